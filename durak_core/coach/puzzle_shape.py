"""A puzzle's shape and its grade (docs/ai.md, "Puzzles: how they are made").

**Shape.** Under the classic rules a puzzle plays alike when the three plain suits are
relabelled among themselves, and when the ranks no card holds are dropped: play reads only
which card beats which (order within a suit, the trump) and which ranks are equal (R7, R11).
:func:`shape` is the position with the ranks compressed to 0, 1, … and the plain suits in a
fixed order: two puzzles of one shape are one puzzle.

**Grade.** Along the solution, a player's move is a *real decision* when some option there
does not keep the forced win; its *traps* are those options. The grade counts the real
decisions and the traps (:func:`grade_of`): one real decision (the first move, which is always
one) is easy whatever else.

>>> from durak_core.coach.puzzles import Puzzle
>>> a = Puzzle(1, "6S 8S", "9S", "6H", "", ())
>>> b = Puzzle(2, "7C 9C", "10C", "8D", "", ())  # other suits, other ranks: the same puzzle
>>> shape(a) == shape(b)
True
>>> grade_of(1, 9), grade_of(2, 2), grade_of(3, 4), grade_of(4, 4)
('easy', 'easy', 'medium', 'hard')
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from ..cards import Card, parse_cards
from ..fast import apply_unchecked
from ..serialize import parse_move
from .puzzles import GRADES, PLAYER, Puzzle, judge, solver_for

#: The width of one suit's block in the card index (13 ranks).
_SUIT: Final = 13
#: Grades by real decisions: up to EASY_DECISIONS easy (with at most EASY_TRAPS traps when
#: there are two), from HARD_DECISIONS hard, or from HARD_TRAPS traps with one fewer.
EASY_TRAPS: Final = 3
HARD_DECISIONS: Final = 4
HARD_TRAPS: Final = 8


def _masks(p: Puzzle) -> tuple[int, int, int]:
    hands = [parse_cards(p.attacker), parse_cards(p.defender)]
    a, d = (sum(1 << c.index for c in h) for h in hands)
    suit = Card.parse(p.trump).suit
    assert suit is not None
    return a, d, int(suit)


def shape(p: Puzzle) -> tuple[int, ...]:
    """The puzzle's identity up to relabelling the plain suits and compressing the ranks:
    for each suit (the trump first, then the plain suits in order of their cards), the two
    hands' cards of that suit as rank positions among the ranks either hand holds."""
    a, d, trump = _masks(p)
    live = a | d
    folded = 0
    for k in range(4):
        folded |= live >> (_SUIT * k)
    used = [r for r in range(_SUIT) if folded >> r & 1]

    def squeeze(mask: int, suit: int) -> int:
        block = mask >> (_SUIT * suit)
        return sum(1 << i for i, r in enumerate(used) if block >> r & 1)

    suits = [(squeeze(a, k), squeeze(d, k)) for k in range(4)]
    plain = sorted(suits[k] for k in range(4) if k != trump)
    return (*suits[trump], *(x for pair in plain for x in pair))


@dataclass(frozen=True)
class Decisions:
    """The player's moves along a solution: how many are real, and their traps in all."""

    real: int
    traps: int


def decisions(p: Puzzle, node_limit: int | None = None) -> Decisions:
    """Judge every option of each player's move on the solution line (``OutOfBudget`` if a
    judgement does not fit ``node_limit``)."""
    s = p.start()
    solver = solver_for(s, node_limit)
    real = traps = 0
    for text in p.line:
        seat, action = parse_move(text)
        if seat == PLAYER:
            lost = 0
            for option in s.legal_actions(PLAYER):
                child = s.copy()
                apply_unchecked(child, PLAYER, option)
                lost += judge(solver, child)[0] != 1.0
            real += lost > 0
            traps += lost
        apply_unchecked(s, seat, action)
    return Decisions(real, traps)


def grade_of(real: int, traps: int) -> str:
    """``easy``: one real decision, or two with at most :data:`EASY_TRAPS` traps; ``hard``:
    :data:`HARD_DECISIONS` real decisions or more, or one fewer with :data:`HARD_TRAPS` traps
    or more; else ``medium``."""
    if real <= 1 or (real == 2 and traps <= EASY_TRAPS):
        return GRADES[0]
    if real >= HARD_DECISIONS or (real == HARD_DECISIONS - 1 and traps >= HARD_TRAPS):
        return GRADES[2]
    return GRADES[1]


def distinct(puzzles: Sequence[Puzzle]) -> bool:
    """No two of ``puzzles`` have one shape."""
    return len({shape(p) for p in puzzles}) == len(puzzles)
