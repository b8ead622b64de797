"""Events: what an applied action made happen, as immutable records.

Every event is public except :class:`CardsReceived`, which is addressed to one seat (its ``to``).
:func:`visible_to` filters a stream down to what one seat may observe (R23–R25): the AI's
history and the bot's per-player log are built from it.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import NamedTuple

from .actions import Action
from .cards import Card


class ActionTaken(NamedTuple):
    """``seat`` took ``action`` (public: every action is seen by all, R23)."""

    seat: int
    action: Action

    @property
    def to(self) -> int | None:
        return None

    def __str__(self) -> str:
        return f"{self.seat} {self.action}"


class BoutEnded(NamedTuple):
    """The bout ended: ``defended`` (R16a, cards discarded) or taken by ``defender`` (R16b)."""

    defended: bool
    defender: int
    cards: tuple[Card, ...]

    @property
    def to(self) -> int | None:
        return None


class CardsDrawn(NamedTuple):
    """``seat`` drew ``number`` cards (R17); ``trump`` is the face-up trump if it was among them."""

    seat: int
    number: int
    trump: Card | None

    @property
    def to(self) -> int | None:
        return None


class CardsReceived(NamedTuple):
    """Private to ``seat``: the cards it drew."""

    seat: int
    cards: tuple[Card, ...]

    @property
    def to(self) -> int | None:
        return self.seat


class PlayerOut(NamedTuple):
    """``seat`` went out (R18) in ``place`` (1 = first out, the winner)."""

    seat: int
    place: int

    @property
    def to(self) -> int | None:
        return None


class BoutStarted(NamedTuple):
    """A new bout: roles (R9, R19) and the attack-card limit (R12)."""

    attacker: int
    defender: int
    limit: int

    @property
    def to(self) -> int | None:
        return None


class TrumpExchanged(NamedTuple):
    """V8: ``seat`` swapped ``given`` (the lowest trump) for ``taken`` (the face-up trump)."""

    seat: int
    given: Card
    taken: Card

    @property
    def to(self) -> int | None:
        return None


class TrumpRevealed(NamedTuple):
    """V14: the face-up trump was drawn; ``card``, the face-down card under it, is turned and
    fixes the trump for the rest of the game."""

    card: Card

    @property
    def to(self) -> int | None:
        return None


class GameOver(NamedTuple):
    """R20: the game ended; ``durak`` is None for a draw."""

    finishing_order: tuple[int, ...]
    durak: int | None

    @property
    def to(self) -> int | None:
        return None


Event = (
    ActionTaken
    | BoutEnded
    | CardsDrawn
    | CardsReceived
    | PlayerOut
    | BoutStarted
    | TrumpExchanged
    | TrumpRevealed
    | GameOver
)


def visible_to(events: Iterable[Event], seat: int | None) -> list[Event]:
    """The events ``seat`` may see (``None``: a spectator, public events only)."""
    return [e for e in events if e.to is None or e.to == seat]
