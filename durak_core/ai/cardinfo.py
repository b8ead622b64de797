# Compiled with mypyc at install (.build/backend.py): after an edit its group runs as Python
# until the next install (durak_core/compiled_sources.py).
"""Card strength derived from the rule set (never hard-coded beating: ``RuleSet.beats`` decides).

A card's *value* is how many cards of the deck it beats under the current trump: a low plain
card beats almost nothing, a high trump beats almost everything. Variants that change beating
change the values with it.

>>> from durak_core import RuleSet, Card, Suit
>>> ct = card_table(RuleSet(), Suit.HEARTS)
>>> ct.value[Card.parse("6S").index], ct.value[Card.parse("AS").index]
(0, 8)
>>> ct.value[Card.parse("6H").index], bool(ct.strong >> Card.parse("6H").index & 1)
(27, True)
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from ..cards import NUM_CARD_IDS, Suit
from ..rules import RuleSet


@dataclass(frozen=True, slots=True)
class CardTable:
    """Per card index: ``value`` (deck cards it beats) and ``beaters`` (mask of deck cards that
    beat it); ``strong``: cards that beat some card of another suit (trumps, R7b); ``cheap``:
    plain cards in the lower part of their suit; ``top``: the upper half of the strong cards."""

    deck: int
    value: tuple[int, ...]
    beaters: tuple[int, ...]
    strong: int
    cheap: int
    top: int


@lru_cache(maxsize=128)
def card_table(rules: RuleSet, trump: Suit | None) -> CardTable:
    deck = rules.deck()
    value = [0] * NUM_CARD_IDS
    beaters = [0] * NUM_CARD_IDS
    strong = 0
    for a in deck:
        for d in deck:
            if rules.beats(a, d, trump):
                value[d.index] += 1
                beaters[a.index] |= 1 << d.index
                if a.suit != d.suit or a.suit is None:
                    strong |= 1 << d.index
    plain = [c for c in deck if not strong >> c.index & 1]
    cheap = 0
    if plain:
        top_plain = max(value[c.index] for c in plain)
        for c in plain:
            if value[c.index] * 5 < top_plain * 3:  # the lower ~60% of a suit
                cheap |= 1 << c.index
    strong_cards = sorted((c for c in deck if strong >> c.index & 1), key=lambda c: value[c.index])
    top = 0
    for c in strong_cards[len(strong_cards) // 2 :]:
        top |= 1 << c.index
    mask = sum(1 << c.index for c in deck)
    return CardTable(mask, tuple(value), tuple(beaters), strong, cheap, top)
