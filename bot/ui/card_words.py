# Compiled with mypyc at install (.build/backend.py): after an edit its group runs as Python
# until the next install (durak_core/compiled_sources.py).
"""Cards and actions in words, in the reader's language (display only; the engine decides).

Ranks are written as players of each language say them (ru В Д К Т, de B D K A); suits keep
their symbols. The second copy of a card (V16) looks exactly like the first: that is the point
of the double deck, and the buttons' custom ids tell them apart.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

from bot.text import t
from durak_core import Action, Card, Suit
from durak_core.cards import RANK_NAMES
from durak_core.events import ActionTaken, BoutEnded, Event, PlayerOut, TrumpRevealed
from durak_core.move_kinds import cards_of, move_kind

_FACES = ("J", "Q", "K", "A")


# Cards are interned and a text depends on the card and the language only: every message
# writes the same few dozen again and again (a hand, its buttons, the table, the log).
@functools.lru_cache(maxsize=2048)
def rank_label(rank: int, loc: str | None = None) -> str:
    name = RANK_NAMES[rank]
    return t(f"card.{name}", loc) if name in _FACES else name


@functools.lru_cache(maxsize=4096)
def card_text(card: Card, loc: str | None = None) -> str:
    if card.joker:
        return t("card.joker_red" if card.is_red else "card.joker_black", loc)
    assert card.suit is not None
    return rank_label(card.rank, loc) + card.suit.symbol


def cards_text(cards: Sequence[Card], loc: str | None = None) -> str:
    return " ".join(card_text(c, loc) for c in cards)


@functools.lru_cache(maxsize=8)
def suit_order(trump: Suit | None) -> tuple[Suit, ...]:
    """Suits for display: the non-trumps in a fixed order, the trump (if any, V11) last."""
    return tuple(s for s in Suit if s != trump) + ((trump,) if trump is not None else ())


def grouped_hand(hand: Sequence[Card], trump: Suit | None, loc: str | None = None) -> str:
    """Cards grouped by suit, ascending, trumps last and marked; jokers at the very end."""
    return _grouped_hand(tuple(hand), trump, loc)


# A hand is shown again on every move of the others: its cards are written once.
@functools.lru_cache(maxsize=2048)
def _grouped_hand(hand: tuple[Card, ...], trump: Suit | None, loc: str | None) -> str:
    groups = []
    for suit in suit_order(trump):
        cards = sorted((c for c in hand if c.suit == suit), key=lambda c: c.rank)
        if not cards:
            continue
        text = cards_text(cards, loc)
        groups.append(f"{t('hand.trump_mark', loc)} {text}" if suit == trump else text)
    others = [c for c in hand if c.suit is None]  # jokers
    if others:
        groups.append(cards_text(others, loc))
    return "  │  ".join(groups)


@functools.lru_cache(maxsize=1024)  # every sort of a hand, its buttons, its picture asks
def hand_sort_key(card: Card, trump: Suit | None) -> tuple[int, int, int]:
    suit = card.suit
    order = suit_order(trump)
    return (order.index(suit) if suit is not None else 9, card.rank, card.index)


def event_line(event: Event, names: Sequence[str], loc: str | None = None) -> str | None:
    """One public event in words, or None for events not worth a line."""
    if isinstance(event, ActionTaken):
        return action_line(event.seat, event.action, names, loc)
    if isinstance(event, BoutEnded):
        if event.defended:
            return t("log.defended", loc, n=len(event.cards))
        return t("log.taken", loc, name=names[event.defender], n=len(event.cards))
    if isinstance(event, PlayerOut):
        return t("log.out", loc, name=names[event.seat], place=event.place)
    if isinstance(event, TrumpRevealed):  # V14
        return t("log.trump_revealed", loc, card=card_text(event.card, loc))
    return None


def action_line(seat: int, action: Action, names: Sequence[str], loc: str | None = None) -> str:
    """``action`` by ``seat`` as the log tells it, in its kind's words (durak_core/move_kinds)."""
    return t(move_kind(action).log, loc, name=names[seat], **action_cards(action, loc))


def action_cards(action: Action, loc: str | None = None) -> dict[str, str]:
    """The cards ``action`` names, in words: ``card`` (the card it plays or shows) and
    ``attack`` (the open card it beats), each only when it names one."""
    card, attack = cards_of(action)
    words = {}
    if card is not None:
        words["card"] = card_text(card, loc)
    if attack is not None:
        words["attack"] = card_text(attack, loc)
    return words
