"""Shuffling and dealing (R4, R5, R6).

The shuffle is a function of a 256-bit seed only, defined here once and for all so that anyone
can recompute a deck from a revealed seed (fair-shuffle verification): SHAKE-256 of the seed
yields 64-bit words; a Fisher–Yates shuffle draws each swap index from them by rejection
sampling (no modulo bias). Production seeds come from a CSPRNG (``secrets``), chosen by the
caller: the engine itself never touches a global random source.

Dealing convention for an explicit card order (top of the deck first): cards are dealt one at a
time, clockwise, starting with the seat left of the dealer, until every hand has ``hand_size``
cards; the next card is the face-up trump, placed under the talon (R5); with V14 the card after
it lies face down under the trump, the very last card of the talon; the rest is the talon, drawn
from the top. When the deal uses the whole deck there is no talon, and the last card dealt (the
dealer's) fixes the trump and stays in the dealer's hand (R6).

>>> from durak_core.rules import RuleSet
>>> order = shuffled_deck(RuleSet(), seed=42)
>>> len(order), len(set(order)), order == shuffled_deck(RuleSet(), seed=42)
(36, 36, True)
>>> seed_commitment(42)[:16]
'0a28e9ffef0073f9'
"""

from __future__ import annotations

import hashlib
import struct
from collections.abc import Sequence
from typing import Final

from .cards import Card
from .errors import RulesError
from .rules import RuleSet

SEED_BITS: Final = 256


def seed_bytes(seed: int) -> bytes:
    if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < 1 << SEED_BITS:
        raise RulesError(f"R4: a seed is an integer in 0..2**{SEED_BITS}-1, not {seed!r}")
    return seed.to_bytes(SEED_BITS // 8, "big")


def seed_commitment(seed: int) -> str:
    """SHA-256 of the seed's 32 bytes, hex: published before the game, checked after."""
    return hashlib.sha256(seed_bytes(seed)).hexdigest()


class _Stream:
    """Uniform integers from SHAKE-256(seed), refilled on demand."""

    def __init__(self, seed: int) -> None:
        self._seed = seed_bytes(seed)
        self._words: tuple[int, ...] = ()
        self._pos = 0

    def _refill(self) -> None:
        # 64 more words at a time. Longer outputs extend shorter ones, so asking for more never
        # changes earlier words.
        count = len(self._words) + 64
        self._words = struct.unpack(f">{count}Q", hashlib.shake_256(self._seed).digest(8 * count))

    def below(self, n: int) -> int:
        """A uniform integer in ``range(n)``: whole words, rejecting the top ``2**64 % n``
        values (no modulo bias)."""
        limit = _WORDS - _WORDS % n
        while True:
            pos = self._pos
            if pos >= len(self._words):
                self._refill()
            w = self._words[pos]
            self._pos = pos + 1
            if w < limit:
                return w % n


_WORDS: Final = 1 << 64


def shuffled_deck(rules: RuleSet, seed: int) -> list[Card]:
    """The deck of ``rules`` in the order ``seed`` determines (top first)."""
    return _shuffle(list(rules.deck()), _Stream(seed))


def _shuffle(cards: list[Card], stream: _Stream) -> list[Card]:
    below = stream.below
    for i in range(len(cards) - 1, 0, -1):
        j = below(i + 1)
        cards[i], cards[j] = cards[j], cards[i]
    return cards


def dealer_from_seed(seed: int, seats: int) -> int:
    """The first game's dealer (R8: chosen at random), from the same seed as the shuffle.

    Drawn from a second stream (seed + domain tag) so it never perturbs the shuffle.
    """
    tagged = int.from_bytes(hashlib.sha256(b"dealer" + seed_bytes(seed)).digest(), "big")
    return _Stream(tagged).below(seats)


def deal(
    rules: RuleSet, seats: int, dealer: int, order: Sequence[Card]
) -> tuple[list[list[Card]], Card, list[Card]]:
    """Split an order into hands, the trump card and the talon (top first), as documented."""
    n_dealt = seats * rules.hand_size
    hands: list[list[Card]] = [[] for _ in range(seats)]
    for k in range(n_dealt):
        hands[(dealer + 1 + k) % seats].append(order[k])
    if n_dealt == len(order):
        return hands, order[n_dealt - 1], []  # R6
    trump = order[n_dealt]
    if rules.changing_trump:  # V14: the next card lies face down under the trump
        return hands, trump, [*order[n_dealt + 2 :], trump, order[n_dealt + 1]]
    return hands, trump, [*order[n_dealt + 1 :], trump]


def order_from_hands(
    hands: Sequence[Sequence[Card]],
    trump: Card | None,
    talon: Sequence[Card],
    dealer: int,
    *,
    under_trump: Card | None = None,
) -> list[Card]:
    """Inverse of :func:`deal`: the card order that deals ``hands`` (seat by seat), shows
    ``trump`` and leaves ``talon`` (top first, without the trump). With ``trump=None`` the deal
    uses the whole deck (R6) and the dealer's last card is the trump. ``under_trump`` is V14's
    face-down card under the trump.

    >>> from durak_core.cards import parse_cards
    >>> h = [parse_cards("6S 7S"), parse_cards("6H 7H")]
    >>> [str(c) for c in order_from_hands(h, Card.parse("AD"), parse_cards("8C"), dealer=1)]
    ['6S', '6H', '7S', '7H', 'AD', '8C']
    """
    seats = len(hands)
    size = len(hands[0])
    if any(len(h) != size for h in hands):
        raise RulesError("R5: every hand of a deal has the same size")
    order: list[Card] = []
    for k in range(seats * size):
        seat = (dealer + 1 + k) % seats
        order.append(hands[seat][k // seats])
    if trump is not None:
        order.append(trump)
    if under_trump is not None:
        order.append(under_trump)
    order.extend(talon)
    return order
