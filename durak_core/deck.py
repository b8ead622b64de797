# Compiled with mypyc at install (.build/backend.py): after an edit its group runs as Python
# until the next install (durak_core/compiled_sources.py).
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
from functools import lru_cache
from typing import Final, TypeVar

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
    """Uniform integers from SHAKE-256(seed): the one source of every random draw of a deal.

    The output is read as 64-bit big-endian words, each held as its two 32-bit halves so that
    the arithmetic stays in machine words (which the compiled module does natively) and gives
    the same numbers. ``expect`` words are read up front (one per draw, unless one is rejected);
    longer outputs extend shorter ones, so reading more never changes earlier words.
    """

    def __init__(self, seed: bytes, expect: int) -> None:
        self._seed = seed
        self._halves = _shake_halves(seed, expect)
        self._pos = 0

    def below(self, n: int) -> int:
        """A uniform integer in ``range(n)`` (``1 <= n <= 128``): the next word modulo ``n``,
        rejecting words at or above ``2**64 - 2**64 % n`` (no modulo bias)."""
        low_limit = _LOW_LIMITS[n]
        high_mod = _HIGH_MOD[n]
        while True:
            k = self._pos
            halves = self._halves
            if k >= len(halves):
                halves = self._halves = _shake_halves(self._seed, len(halves) // 2 + 64)
            hi = halves[k]
            lo = halves[k + 1]
            self._pos = k + 2
            # A word hi * 2**32 + lo is rejected exactly when hi is all ones and lo is at or
            # above _LOW_LIMITS[n]; and its value modulo n is (hi * (2**32 % n) + lo) % n.
            if hi != _HALF_TOP or lo < low_limit:
                return (hi * high_mod + lo) % n


_WORDS: Final = 1 << 64
_HALF_TOP: Final = (1 << 32) - 1
#: Per range n (up to 128, the largest deck): the smallest rejected low half of a word whose
#: high half is all ones, and 2**32 modulo n.
_LOW_LIMITS: Final = tuple((1 << 32) - _WORDS % n if n else 0 for n in range(129))
_HIGH_MOD: Final = tuple((1 << 32) % n if n else 0 for n in range(129))


def _shake_halves(seed: bytes, count: int) -> tuple[int, ...]:
    """The first ``count`` 64-bit words of SHAKE-256(seed), each as (high, low) 32-bit halves."""
    return struct.unpack(f">{2 * count}I", hashlib.shake_256(seed).digest(8 * count))


_T = TypeVar("_T")


def _shuffle(items: list[_T], seed: bytes) -> list[_T]:
    """Fisher–Yates over ``items`` in place: from the last position down, swap position ``i``
    with one drawn below ``i + 1`` from the seed's stream."""
    stream = _Stream(seed, len(items) - 1)
    for i in range(len(items) - 1, 0, -1):
        j = stream.below(i + 1)
        items[i], items[j] = items[j], items[i]
    return items


def shuffled_deck(rules: RuleSet, seed: int) -> list[Card]:
    """The deck of ``rules`` in the order ``seed`` determines (top first)."""
    return _shuffle(list(rules.deck()), seed_bytes(seed))


def shuffled_indices(rules: RuleSet, seed: int) -> list[int]:
    """:func:`shuffled_deck` as card indices (the engine's deal)."""
    return _shuffle(list(_deck_indices(rules.deck())), seed_bytes(seed))


@lru_cache(maxsize=32)
def _deck_indices(deck: tuple[Card, ...]) -> tuple[int, ...]:
    return tuple(c.index for c in deck)


def dealer_from_seed(seed: int, seats: int) -> int:
    """The first game's dealer (R8: chosen at random), from the same seed as the shuffle.

    Drawn from a second stream (seed + domain tag) so it never perturbs the shuffle.
    """
    tagged = hashlib.sha256(b"dealer" + seed_bytes(seed)).digest()  # the stream's 32-byte seed
    return _Stream(tagged, 1).below(seats)


def deal(
    rules: RuleSet, seats: int, dealer: int, order: Sequence[_T]
) -> tuple[list[list[_T]], _T, list[_T]]:
    """Split an order (of cards, or of card indices) into hands, the trump card and the talon
    (top first), as documented."""
    n_dealt = seats * rules.hand_size
    # one card at a time clockwise from the dealer's left: seat t gets every seats-th card
    hands = [list(order[(t - dealer - 1) % seats : n_dealt : seats]) for t in range(seats)]
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
