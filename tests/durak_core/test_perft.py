"""Golden counts (perft): legal action sequences to a fixed depth from fixed deals.

Any change of legality changes a count. To regenerate after an intended rule change:
``python -m tests.durak_core.test_perft`` prints the new table (and say why in the commit).
"""

from __future__ import annotations

import pytest

from durak_core import PRESETS, GameState, RuleSet, new_game, position
from durak_core.fast import apply_unchecked, legal_moves


def perft(s: GameState, depth: int) -> int:
    if depth == 0 or s.finished:
        return 1
    total = 0
    for seat, action in legal_moves(s):
        child = s.copy()
        apply_unchecked(child, seat, action)
        total += perft(child, depth - 1)
    return total


#: Rule sets that are no preset, by the name the table below gives them.
CUSTOM: dict[str, RuleSet] = {
    "transfer+show": RuleSet(transfer=True, transfer_by_trump=True),  # V1 + V18
}

# (preset, seats, seed, depth) -> count
GOLDEN: dict[tuple[str, int, int, int], int] = {
    ("classic", 2, 1, 7): 14474,
    ("classic", 2, 2, 7): 10127,
    ("classic", 3, 3, 6): 2919,
    ("classic", 6, 4, 5): 7747,
    ("transfer", 2, 5, 7): 19362,
    ("transfer", 4, 6, 6): 11298,
    ("quick", 4, 7, 5): 29137,
    ("full-deck", 3, 8, 6): 4544,
    ("first-five", 2, 9, 7): 12217,
    ("neighbours", 5, 10, 6): 1949,
    ("no-throw-after-take", 3, 11, 6): 6300,
    ("teams", 4, 12, 6): 3612,
    ("trump-exchange", 2, 13, 7): 23604,
    ("unlimited", 3, 14, 6): 2047,
    ("no-trump", 2, 15, 7): 9253,
    ("crazy", 3, 16, 6): 6412,
    ("diamonds-apart", 2, 17, 7): 3375,
    ("changing-trump", 2, 18, 7): 6826,
    ("jokers", 3, 19, 6): 5592,
    ("double-deck", 4, 20, 5): 1706,
    # V18 with the show its own action (issue #33): the defender may show the trump or play it,
    # both listed; while a transfer with it was a forced show these counts were 19371 and 6429
    ("transfer+show", 2, 5, 7): 19709,
    ("transfer+show", 3, 21, 6): 6838,
}

CASES = [
    ("classic", 2, 1, 7),
    ("classic", 2, 2, 7),
    ("classic", 3, 3, 6),
    ("classic", 6, 4, 5),
    ("transfer", 2, 5, 7),
    ("transfer", 4, 6, 6),
    ("quick", 4, 7, 5),
    ("full-deck", 3, 8, 6),
    ("first-five", 2, 9, 7),
    ("neighbours", 5, 10, 6),
    ("no-throw-after-take", 3, 11, 6),
    ("teams", 4, 12, 6),
    ("trump-exchange", 2, 13, 7),
    ("unlimited", 3, 14, 6),
    ("no-trump", 2, 15, 7),
    ("crazy", 3, 16, 6),
    ("diamonds-apart", 2, 17, 7),
    ("changing-trump", 2, 18, 7),
    ("jokers", 3, 19, 6),
    ("double-deck", 4, 20, 5),
    ("transfer+show", 2, 5, 7),
    ("transfer+show", 3, 21, 6),
]


def rules_of(name: str) -> RuleSet:
    return CUSTOM[name] if name in CUSTOM else PRESETS[name]


@pytest.mark.parametrize("case", CASES, ids=lambda c: "-".join(map(str, c)))
def test_perft_golden_counts(case: tuple[str, int, int, int]) -> None:
    name, seats, seed, depth = case
    s = new_game(rules_of(name), seats, seed=seed)
    assert perft(s, depth) == GOLDEN[case]


def test_perft_by_hand_on_a_tiny_position() -> None:
    # seat 0 opens with 6S or 7S (R10); the defender beats with 8S or takes (R13); nobody can
    # throw in (R11): 2 + 2 sequences of depth 2
    s = position(RuleSet(), ["6S 7S", "8S 6C"], trump="AH", attacker=0)
    assert [perft(s, d) for d in (0, 1, 2)] == [1, 2, 4]


if __name__ == "__main__":
    for case in CASES:
        name, seats, seed, depth = case
        print(f"    {case!r}: {perft(new_game(rules_of(name), seats, seed=seed), depth)},")
