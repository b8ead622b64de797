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
    """Uniform integers from SHAKE-256(seed), refilled on demand."""

    def __init__(self, seed: int) -> None:
        self._seed = seed_bytes(seed)
        self._words: tuple[int, ...] = ()
        self._pos = 0

    def _refill(self) -> None:
        # 64 more words at a time. Longer outputs extend shorter ones, so asking for more never
        # changes earlier words.
        self._words = _shake_words(self._seed, len(self._words) + 64)

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
#: _LIMITS[n]: words at or above it are rejected when drawing below ``n`` (decks up to 128).
_LIMITS: Final = tuple(_WORDS - _WORDS % n if n else 0 for n in range(129))


def _shake_words(seed: bytes, count: int) -> tuple[int, ...]:
    """The first ``count`` 64-bit words (big-endian) of SHAKE-256(seed)."""
    return struct.unpack(f">{count}Q", hashlib.shake_256(seed).digest(8 * count))


def shuffled_deck(rules: RuleSet, seed: int) -> list[Card]:
    """The deck of ``rules`` in the order ``seed`` determines (top first)."""
    return _shuffle(list(rules.deck()), seed_bytes(seed))


_T = TypeVar("_T")


def _shuffle(items: list[_T], seed: bytes) -> list[_T]:
    """Fisher–Yates over ``items`` in place, each swap index drawn as ``_Stream.below`` draws
    it from the words of SHAKE-256(seed), in order (the same words, read in one pass)."""
    last = len(items) - 1
    # Each 64-bit word as its two 32-bit halves: the arithmetic then stays in machine words
    # (which the compiled module does natively) and gives the same numbers.
    halves = _shake_halves(seed, last)  # one word a swap, unless one is rejected
    k = 0
    for n in range(last + 1, 1, -1):
        if halves[k] == _HALF_TOP and halves[k + 1] >= _LOW_LIMITS[n]:
            return _shuffle_by_words(items, seed)  # a word is rejected: probability < 2**-57
        k += 2
    k = 0
    for i in range(last, 0, -1):
        n = i + 1
        j = (halves[k] * _HIGH_MOD[n] + halves[k + 1]) % n  # the word modulo n
        items[i], items[j] = items[j], items[i]
        k += 2
    return items


def _shuffle_by_words(items: list[_T], seed: bytes) -> list[_T]:
    """:func:`_shuffle` word by word, drawing further words after a rejection."""
    last = len(items) - 1
    words = _shake_words(seed, last + 64)
    pos = 0
    for i in range(last, 0, -1):
        n = i + 1
        w = words[pos]
        pos += 1
        while w >= _LIMITS[n]:  # rejected: draw the next word
            if pos + i > len(words):  # keep a word for each swap still to come
                words = _shake_words(seed, pos + i + 64)
            w = words[pos]
            pos += 1
        j = w % n
        items[i], items[j] = items[j], items[i]
    return items


def _shake_halves(seed: bytes, count: int) -> tuple[int, ...]:
    """The first ``count`` 64-bit words of SHAKE-256(seed), each as (high, low) 32-bit halves."""
    return struct.unpack(f">{2 * count}I", hashlib.shake_256(seed).digest(8 * count))


_HALF_TOP: Final = (1 << 32) - 1
#: A word (hi, lo) is rejected for range n (at or above _LIMITS[n]) exactly when hi is all ones
#: and lo >= _LOW_LIMITS[n]; and (hi * 2**32 + lo) % n == (hi * _HIGH_MOD[n] + lo) % n.
_LOW_LIMITS: Final = tuple((1 << 32) - _WORDS % n if n else 0 for n in range(129))
_HIGH_MOD: Final = tuple((1 << 32) % n if n else 0 for n in range(129))


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
    w = int.from_bytes(hashlib.shake_256(tagged).digest(8), "big")  # its first word
    if w < _LIMITS[seats]:
        return w % seats
    return _Stream(int.from_bytes(tagged, "big")).below(seats)  # rejected: the whole stream


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
