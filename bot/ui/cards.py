"""Cards and actions in words (display only; the engine decides everything)."""

from __future__ import annotations

from collections.abc import Sequence

from bot.text import t
from durak_core import Action, Card, Suit
from durak_core.actions import ATTACK, DEFEND, EXCHANGE, PASS, TAKE, TRANSFER
from durak_core.events import ActionTaken, BoutEnded, Event, PlayerOut


def card_text(card: Card) -> str:
    return card.unicode()


def cards_text(cards: Sequence[Card]) -> str:
    return " ".join(c.unicode() for c in cards)


def suit_order(trump: Suit | None) -> list[Suit]:
    """Suits for display: the non-trumps in a fixed order, the trump (if any, V11) last."""
    return [s for s in Suit if s != trump] + ([trump] if trump is not None else [])


def grouped_hand(hand: Sequence[Card], trump: Suit | None) -> str:
    """Cards grouped by suit, ascending, trumps last and marked."""
    groups = []
    for suit in suit_order(trump):
        cards = sorted((c for c in hand if c.suit == suit), key=lambda c: c.rank)
        if not cards:
            continue
        text = " ".join(c.unicode() for c in cards)
        groups.append(f"{t('hand.trump_mark')} {text}" if suit == trump else text)
    others = [c for c in hand if c.suit is None]  # jokers
    if others:
        groups.append(" ".join(c.unicode() for c in others))
    return "  │  ".join(groups)


def hand_sort_key(card: Card, trump: Suit | None) -> tuple[int, int, int]:
    suit = card.suit
    order = suit_order(trump)
    return (order.index(suit) if suit is not None else 9, card.rank, card.index)


def event_line(event: Event, names: Sequence[str]) -> str | None:
    """One public event in words, or None for events not worth a line."""
    if isinstance(event, ActionTaken):
        return action_line(event.seat, event.action, names)
    if isinstance(event, BoutEnded):
        if event.defended:
            return t("log.defended", n=len(event.cards))
        return t("log.taken", name=names[event.defender], n=len(event.cards))
    if isinstance(event, PlayerOut):
        return t("log.out", name=names[event.seat], place=event.place)
    return None


def action_line(seat: int, action: Action, names: Sequence[str]) -> str:
    name = names[seat]
    kind = action.kind
    if kind == ATTACK:
        return t("log.attack", name=name, card=action.card.unicode())  # type: ignore[attr-defined]
    if kind == DEFEND:
        return t(
            "log.defend",
            name=name,
            attack=action.attack.unicode(),  # type: ignore[attr-defined]
            card=action.card.unicode(),  # type: ignore[attr-defined]
        )
    if kind == TAKE:
        return t("log.take", name=name)
    if kind == PASS:
        return t("log.pass", name=name)
    if kind == TRANSFER:
        return t("log.transfer", name=name, card=action.card.unicode())  # type: ignore[attr-defined]
    assert kind == EXCHANGE
    return t("log.exchange", name=name)
