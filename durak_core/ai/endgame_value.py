# Compiled with mypyc at install (.build/backend.py): after an edit its group runs as Python
# until the next install (durak_core/compiled_sources.py).
"""What a two-seat endgame is worth at its start, learned from the exact solver.

Hard's playouts play both seats with the Normal heuristics to the end of the game. Where the
talon has just run out and two seats are left, that heuristic end agrees with the exact result
(best play by both, which is how Hard and Normal play an endgame, :mod:`.endgame`) in only
81% of positions. A logistic model of a few counts per hand (cards, trumps, cards the other
hand cannot beat, ...) fitted to solver-proven positions agrees in 89.5%, with less than half
the squared error (0.063 against 0.146, held-out positions), so Hard's playouts stop there and
score the model's value (issue #34: the heuristic endgame had undervalued keeping trumps).

The model is fitted by ``benchmarks/endgame_value.py`` (classic rules, positions where the
talon ran out in games of the playout policy, each proven by the solver) and holds only for
those rules: :func:`endgame_model` gives None for any other rule set, and the playouts then
play on as before.

>>> from durak_core import RuleSet
>>> endgame_model(RuleSet()) is CLASSIC, endgame_model(RuleSet(deck_size=52))
(True, None)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace

from ..cards import SAME_RANK
from ..rules import RuleSet
from ..state import GameState
from .cardinfo import CardTable

#: The features of one hand, in order (:func:`features` gives the attacker's, then the
#: defender's, then whether the attacker holds the single strongest card).
HAND_FEATURES = (
    "cards",
    "trumps",
    "unbeatable",  # cards the other hand cannot beat
    "mean value",
    "lowest value",
    "highest value",
    "most of one rank",
    "cards sharing a rank",
)


@dataclass(frozen=True, slots=True)
class EndgameModel:
    """Logistic weights over :func:`features`: the attacker's expected score (1 a win,
    ½ a draw, 0 a loss) is ``1 / (1 + exp(-(intercept + weights · features)))``."""

    weights: tuple[float, ...]
    intercept: float

    def value(self, s: GameState, me: int, ct: CardTable) -> float:
        """``me``'s expected score in ``s``: two seats, an empty talon, a bout not yet begun."""
        p = self.attacker_score(features(s, ct))
        return p if me == s.attacker else 1.0 - p

    def attacker_score(self, x: Sequence[float]) -> float:
        """The attacker's expected score for the features ``x``."""
        z = self.intercept
        for w, f in zip(self.weights, x, strict=True):
            z += w * f
        return 1.0 / (1.0 + math.exp(-z))


_CLASSIC_RULES = RuleSet()

#: ``python benchmarks/endgame_value.py --seed 0 --games 6000`` (5,602 proven positions).
CLASSIC = EndgameModel(
    weights=(
        -0.47682, -0.0086, 0.7143, 0.40702, 0.14908, -0.12935, 0.43404, 0.75779,
        -0.06672, -0.11967, -0.63621, -0.28856, -0.20185, 0.0663, -0.73963, -0.22227,
        -0.53807,
    ),
    intercept=5.09909,
)  # fmt: skip


#: Options that do not change a two-seat endgame: V5 (who throws in with three or more
#: seats), V10 and V17 (who starts a later game of a series, when a series ends).
UNUSED_OPTIONS = ("neighbours_only", "under_the_fool", "series_losses")


def endgame_model(rules: RuleSet) -> EndgameModel | None:
    """The model fitted for ``rules``, or None: only the classic rules have one (with any
    setting of :data:`UNUSED_OPTIONS`)."""
    unused = {name: getattr(_CLASSIC_RULES, name) for name in UNUSED_OPTIONS}
    return CLASSIC if replace(rules, **unused) == _CLASSIC_RULES else None


def features(s: GameState, ct: CardTable) -> list[float]:
    """:data:`HAND_FEATURES` of the attacker's hand, then of the defender's, then 1.0 if the
    attacker holds the strongest card of the two hands. Two seats only."""
    att = s.attacker
    mine = s.hands[att]
    theirs = s.hands[1 - att]
    out: list[float] = []
    top_mine = _hand(mine, theirs, ct, out)
    top_theirs = _hand(theirs, mine, ct, out)
    out.append(1.0 if top_mine > top_theirs else 0.0)
    return out


def _hand(hand: int, other: int, ct: CardTable, out: list[float]) -> int:
    """Appends :data:`HAND_FEATURES` of ``hand`` to ``out``; returns its highest value."""
    value = ct.value
    beaters = ct.beaters
    n = trumps = unbeatable = total = 0
    low = 1 << 30
    top = -1
    ranks: dict[int, int] = {}
    while hand:
        bit = hand & -hand
        c = bit.bit_length() - 1
        hand ^= bit
        v = value[c]
        n += 1
        total += v
        low = min(low, v)
        top = max(top, v)
        trumps += ct.strong >> c & 1
        unbeatable += not other & beaters[c]
        rank = SAME_RANK[c]
        ranks[rank] = ranks.get(rank, 0) + 1
    if not n:
        out.extend([0.0] * len(HAND_FEATURES))
        return top
    out.extend((n, trumps, unbeatable, total / n, low, top, max(ranks.values()), n - len(ranks)))
    return top
