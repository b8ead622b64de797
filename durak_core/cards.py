# Compiled with mypyc at install (.build/backend.py): after an edit its group runs as Python
# until the next install (durak_core/compiled_sources.py).
"""Cards, suits, ranks and their notation (R1, R2).

A card is a small immutable value identified by one integer, its *index* in a fixed universe
of every card any rule set can use: 4 suits x 13 ranks (2..A), two jokers, and a second copy of
all of these for the double deck (V16). The index layout keeps a suit's cards contiguous and in
rank order, so bitmasks of cards (one bit per index) are the engine's card sets.

>>> Card.parse("10h")
Card('10H')
>>> str(Card.parse("Q♦")), Card.parse("AC").unicode()
('QD', 'A♣')
>>> Card.parse("7H#2").copy, str(Card.parse("7h#2"))
(1, '7H#2')
>>> Card.parse("1H")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
durak_core.errors.CardNotationError: R2: '1H' is not a card (expected rank 2-10, J, Q, K, A ...
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import IntEnum
from typing import Final

from .bits import append_each
from .bits import set_bits as set_bits  # re-exported: the one walk over a mask's set bits
from .errors import CardNotationError


class Suit(IntEnum):
    """The four suits; the value is the suit's block in the card index."""

    SPADES = 0
    CLUBS = 1
    DIAMONDS = 2
    HEARTS = 3

    @property
    def letter(self) -> str:
        return SUIT_LETTERS[self]

    @property
    def symbol(self) -> str:
        return SUIT_SYMBOLS[self]

    @property
    def is_red(self) -> bool:
        return self in (Suit.DIAMONDS, Suit.HEARTS)

    @classmethod
    def parse(cls, text: str) -> Suit:
        t = text.strip().upper()
        if t in _SUIT_BY_TOKEN:
            return _SUIT_BY_TOKEN[t]
        raise CardNotationError(f"R2: {text!r} is not a suit (expected S, C, D, H or ♠ ♣ ♦ ♥)")


SUIT_LETTERS: Final = "SCDH"
SUIT_SYMBOLS: Final = "♠♣♦♥"
_SUIT_BY_TOKEN: Final = {
    **{ch: Suit(i) for i, ch in enumerate(SUIT_LETTERS)},
    **{ch: Suit(i) for i, ch in enumerate(SUIT_SYMBOLS)},
    "♤": Suit.SPADES,
    "♧": Suit.CLUBS,
    "♢": Suit.DIAMONDS,
    "♡": Suit.HEARTS,
}

#: Ranks are plain ints: 2..10, then J=11, Q=12, K=13, A=14; jokers carry rank JOKER_RANK.
JACK: Final = 11
QUEEN: Final = 12
KING: Final = 13
ACE: Final = 14
JOKER_RANK: Final = 15
RANK_NAMES: Final = {
    **{r: str(r) for r in range(2, 11)},
    JACK: "J",
    QUEEN: "Q",
    KING: "K",
    ACE: "A",
}
_RANK_BY_TOKEN: Final = {name: r for r, name in RANK_NAMES.items()}

#: Index layout: suit * 13 + (rank - 2) for the 52 ordinary cards, 52/53 for the black/red
#: joker; the second copy (V16) adds COPY_STRIDE.
BLACK_JOKER: Final = 52
RED_JOKER: Final = 53
COPY_STRIDE: Final = 54
NUM_CARD_IDS: Final = 2 * COPY_STRIDE

_JOKER_TOKENS: Final = {"BJ": BLACK_JOKER, "RJ": RED_JOKER, "🃏B": BLACK_JOKER, "🃏R": RED_JOKER}


def card_index(rank: int, suit: Suit | int, copy: int = 0) -> int:
    """Index of an ordinary card."""
    return copy * COPY_STRIDE + int(suit) * 13 + (rank - 2)


class Card:
    """One physical card, compared by identity of its index.

    Instances are interned (``Card.from_index`` and ``Card.parse`` return the same object for the
    same card), which keeps the engine's hot path free of allocations.
    """

    __slots__ = ("copy", "index", "joker", "rank", "suit")

    index: int
    rank: int
    suit: Suit | None
    copy: int
    joker: bool

    def __new__(cls, index: int) -> Card:
        if not 0 <= index < NUM_CARD_IDS:
            raise CardNotationError(f"R2: card index {index} is outside 0..{NUM_CARD_IDS - 1}")
        if _INTERNED:
            return _INTERNED[index]
        # Only while the module makes the cards. (Here, not in a helper: compiled by mypyc, a
        # class with a __new__ may call object.__new__ only in it.)
        self = object.__new__(cls)
        base = index % COPY_STRIDE
        self.index = index
        self.copy = index // COPY_STRIDE
        self.joker = base >= BLACK_JOKER
        if self.joker:
            self.rank = JOKER_RANK
            self.suit = None
        else:
            self.rank = base % 13 + 2
            self.suit = Suit(base // 13)
        return self

    @staticmethod
    def from_index(index: int) -> Card:
        return _CARDS[index]

    @classmethod
    def of(cls, rank: int, suit: Suit | int, copy: int = 0) -> Card:
        return _CARDS[card_index(rank, suit, copy)]

    @classmethod
    def parse(cls, text: str) -> Card:
        """Parse ``10H``, ``q♦``, ``7H#2`` (second copy, V16), ``BJ``/``RJ`` (jokers, V15)."""
        if not isinstance(text, str):
            raise CardNotationError(f"R2: {text!r} is not a card")
        t = text.strip().upper()
        copy = 0
        if "#" in t:
            t, _, c = t.partition("#")
            if c not in ("1", "2"):
                raise CardNotationError(_bad_card(text))
            copy = int(c) - 1
        if t in _JOKER_TOKENS:
            return _CARDS[copy * COPY_STRIDE + _JOKER_TOKENS[t]]
        if len(t) < 2:
            raise CardNotationError(_bad_card(text))
        rank = _RANK_BY_TOKEN.get(t[:-1])
        suit = _SUIT_BY_TOKEN.get(t[-1])
        if rank is None or suit is None:
            raise CardNotationError(_bad_card(text))
        return _CARDS[card_index(rank, suit, copy)]

    @property
    def is_red(self) -> bool:
        if self.suit is None:
            return self.index % COPY_STRIDE == RED_JOKER
        return self.suit.is_red

    def rank_name(self) -> str:
        return "joker" if self.joker else RANK_NAMES[self.rank]

    def _copy_suffix(self) -> str:
        return "#2" if self.copy else ""

    def __str__(self) -> str:
        if self.joker:
            return ("RJ" if self.is_red else "BJ") + self._copy_suffix()
        assert self.suit is not None
        return RANK_NAMES[self.rank] + self.suit.letter + self._copy_suffix()

    def unicode(self) -> str:
        """Display form, e.g. ``10♥``; jokers are ``🃏B``/``🃏R``."""
        if self.joker:
            return ("🃏R" if self.is_red else "🃏B") + self._copy_suffix()
        assert self.suit is not None
        return RANK_NAMES[self.rank] + self.suit.symbol + self._copy_suffix()

    def __repr__(self) -> str:
        return f"Card({str(self)!r})"

    def __reduce__(self) -> tuple[type[Card], tuple[int]]:
        return (Card, (self.index,))

    # Equal cards are the same object (interned), so equality is identity; the hash is the
    # index, stated because a compiled class with an ordering would otherwise have none.
    def __hash__(self) -> int:
        return self.index

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return self.index < other.index


def _bad_card(text: str) -> str:
    return (
        f"R2: {text!r} is not a card (expected rank 2-10, J, Q, K, A then suit S, C, D, H, "
        "e.g. 10H or Q♦)"
    )


#: Every card by index: empty while ``Card`` makes them, below, then filled once.
_INTERNED: Final[list[Card]] = []
_INTERNED.extend([Card(i) for i in range(NUM_CARD_IDS)])
_CARDS: Final = tuple(_INTERNED)


def parse_cards(text: str | Iterable[str]) -> list[Card]:
    """Parse a whitespace- or comma-separated list of cards, or an iterable of tokens.

    >>> parse_cards("6S, 10h Q♦")
    [Card('6S'), Card('10H'), Card('QD')]
    """
    tokens = text.replace(",", " ").split() if isinstance(text, str) else list(text)
    return [Card.parse(t) for t in tokens]


# --- bitmask helpers --------------------------------------------------------------------------


def mask_of(cards: Iterable[Card]) -> int:
    m = 0
    for c in cards:
        m |= 1 << c.index
    return m


#: The four 13-bit suit blocks of the ordinary first-copy cards (indices 0..51).
SUIT_BLOCKS: Final = tuple(0x1FFF << (13 * k) for k in range(4))
#: Mask of the ordinary first-copy cards (no jokers, no second copies).
PLAIN_CARDS: Final = (1 << BLACK_JOKER) - 1


def cards_of(mask: int) -> tuple[Card, ...]:
    """The cards of ``mask``, lowest index first."""
    # Bit by bit: compiled (mypyc, in machine words), this is ~1.5x as fast as the four
    # suit-run dictionary lookups that were fastest interpreted (docs/performance.md).
    out: list[Card] = []
    append_each(out, _CARDS, mask)
    return tuple(out)


def _rank_masks() -> tuple[int, ...]:
    """For each card index, the mask of every card of the same rank (R11 throw-ins), both
    copies included (V16)."""
    out = []
    for i in range(NUM_CARD_IDS):
        c = _CARDS[i]
        # V15 (decision): a joker has no rank, so it never allows or makes a throw-in
        out.append(0 if c.joker else mask_of(d for d in _CARDS if d.rank == c.rank))
    return tuple(out)


SAME_RANK: Final = _rank_masks()
