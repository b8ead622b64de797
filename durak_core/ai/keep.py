"""What a Normal hand keeps: a prior over where the hidden cards lie.

Normal's rules are published and deterministic (seeds/004): it leads and throws in its cheapest
plain cards and keeps its trumps while the talon lasts. So the cards a seat shown as Normal
still holds are, on average, dearer than the cards left in the talon, although both came from
the same shuffle. Dealing a hidden card to such a seat's unknown slots is weighted by how much
more (or less) often a card of its kind is found there than a uniform deal would put it:
:data:`KEEP` was measured by ``benchmarks/keep_prior.py`` (Normal against Normal, classic, 1,500
games, at every decision of the observing seat with the talon not empty, counting only the
cards no inference of :mod:`~durak_core.ai.memory` already covers; the table was rounded
from three decimals, so three entries are 0.01 off the script's two-decimal output). The
figures depend on the policy, not on the cards dealt, so the same for anyone who knows that
policy.

>>> from durak_core import RuleSet, Card, Suit
>>> from durak_core.ai.cardinfo import card_table
>>> ct = card_table(RuleSet(), Suit.HEARTS)
>>> w = keep_weights(ct, talon=12, full_talon=24)
>>> w[Card.parse("6S").index] < 1 < w[Card.parse("AH").index]
True
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from types import MappingProxyType

from .cardinfo import CardTable

#: Per phase of the talon (at least 3/4 left, at least 5/12 left, less), the ratio found /
#: expected under a uniform deal for the plain cards and for the strong (trump-like) cards, from
#: the cheapest to the dearest (nine steps; other decks are mapped onto them by rank).
KEEP: tuple[tuple[tuple[float, ...], tuple[float, ...]], ...] = (
    (
        (0.77, 0.91, 1.04, 1.07, 1.14, 1.24, 1.26, 1.2, 1.21),
        (0.37, 0.78, 0.93, 1.15, 1.3, 1.29, 1.35, 1.31, 1.35),
    ),
    (
        (0.5, 0.69, 0.84, 0.92, 1.09, 1.17, 1.21, 1.25, 1.21),
        (1.02, 1.09, 1.2, 1.32, 1.65, 1.69, 1.64, 1.62, 1.72),
    ),
    (
        (0.7, 0.75, 0.85, 0.92, 1.01, 1.05, 1.07, 1.08, 1.08),
        (1.05, 1.06, 1.09, 1.15, 1.36, 1.39, 1.31, 1.34, 1.34),
    ),
)


def talon_phase(talon: int, full_talon: int) -> int:
    """0 while at least 3/4 of the talon is left, 1 while at least 5/12 is, then 2."""
    if talon * 4 >= full_talon * 3:
        return 0
    if talon * 12 >= full_talon * 5:
        return 1
    return 2


def keep_weights(ct: CardTable, talon: int, full_talon: int) -> Mapping[int, float]:
    """Per deck card: the relative weight of finding it in a Normal hand rather than in the
    talon, with ``talon`` of the ``full_talon`` cards (after the first deal) left."""
    return _weights(ct, talon_phase(talon, max(full_talon, 1)))


@lru_cache(maxsize=256)
def _weights(ct: CardTable, phase: int) -> Mapping[int, float]:
    """Each deck card gets the row's entry for its class (plain or strong) at the step (0–8)
    of its value among the distinct values of that class."""
    row = KEEP[phase]
    cards = [c for c in range(len(ct.value)) if ct.deck >> c & 1]
    out: dict[int, float] = {}
    for strong in (0, 1):
        group = [c for c in cards if (ct.strong >> c & 1) == strong]
        values = sorted({ct.value[c] for c in group})
        top = max(len(values) - 1, 1)
        for c in group:
            out[c] = row[strong][round(8 * values.index(ct.value[c]) / top)]
    return MappingProxyType(out)  # cached: shared by every caller, so read-only
