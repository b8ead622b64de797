"""The kinds of move, one row each: what a kind *is* (its notation, its words, its button, what
it does to the hand and to the defence), read by the bot's hand, its log and review texts, the
Activity (through the protocol's welcome frame), the AI's and the review's generic checks.

When a kind is legal and what it does to the game stay in the engine (``legality.py``,
``stepping.py``); this table holds no rules. The words are catalogue keys (bot/text/catalogues),
filled with ``{card}`` (the action's card, or what :attr:`MoveKind.label_card` names),
``{attack}`` (the open card a defence beats), ``{trump}`` (the face-up trump) and ``{name}``
(the player, in log lines). docs/architecture.md, "Adding a kind of move", lists what else a new
kind needs.

>>> from durak_core.actions import parse_action
>>> move_kind(parse_action("show 9H")).passes_on, notation(parse_action("defend 7H 9H"))
(True, 'defend 7H 9H')
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, Literal

from .actions import ATTACK, DEFEND, EXCHANGE, NUM_KINDS, PASS, SHOW, TAKE, TRANSFER, Action
from .cards import Card

#: How a button looks: Discord's button styles, and the Activity's button classes.
Style = Literal["primary", "success", "danger", "secondary"]


@dataclass(frozen=True)
class MoveKind:
    """The facts of one kind of move. Its words are the catalogue keys named after its verb:
    :attr:`label`, :attr:`log`, :attr:`review`."""

    #: The engine's tag (``Action.kind``): the row's index in :data:`MOVE_KINDS`.
    kind: int
    #: The notation's first word; the kind's name in the protocol and the Activity's styles.
    verb: str
    #: It puts a card of the hand on the table (a show keeps its card, V18).
    spends_card: bool
    #: It hands the defence on to the next player (V1, V18): the defender changes.
    passes_on: bool
    #: Its button's style (a card button's, when it has no button of its own).
    style: Style
    #: It has a button of its own (``act.<verb>``); else the hand's card buttons play it.
    button: bool = False
    #: A defence: its notation names the open card it beats before its own card.
    aims: bool = False
    #: The review's reason (``review.why.<reason>``) when the better move is of this kind,
    #: whatever was played instead; None: the reason depends on both moves (``coach/review.py``).
    reason: str | None = None
    #: What ``{card}`` in its label is when the action plays none: "lowest_trump" (the lowest
    #: trump of the hand, V8's swap) or "" (no card).
    label_card: Literal["", "lowest_trump"] = ""

    @property
    def label(self) -> str | None:
        """Catalogue key of its button's label, if it has a button."""
        return f"act.{self.verb}" if self.button else None

    @property
    def log(self) -> str:
        """Catalogue key of its line in the table's log ("Bob takes")."""
        return f"log.{self.verb}"

    @property
    def review(self) -> str:
        """Catalogue key of its name in reviews and hints ("take")."""
        return f"review.act.{self.verb}"


MOVE_KINDS: Final[list[MoveKind]] = [
    MoveKind(ATTACK, "attack", True, False, "primary"),
    MoveKind(DEFEND, "defend", True, False, "success", aims=True),
    MoveKind(TAKE, "take", False, False, "danger", button=True),
    MoveKind(PASS, "pass", False, False, "secondary", button=True),
    MoveKind(TRANSFER, "transfer", True, True, "primary", button=True, reason="transfer"),
    MoveKind(
        EXCHANGE, "exchange", False, False, "secondary", button=True, label_card="lowest_trump"
    ),
    MoveKind(SHOW, "show", False, True, "primary", button=True, reason="show"),
]
assert [k.kind for k in MOVE_KINDS] == list(range(NUM_KINDS))

#: Per engine kind: it puts a card of the hand on the table (a tuple for the hot paths).
SPENDS_CARD: Final = tuple(k.spends_card for k in MOVE_KINDS)
#: Bits (``1 << kind``) of the kinds that hand the defence on and keep every card (V18's show).
FREE_PASS_ON: Final = sum(1 << k.kind for k in MOVE_KINDS if k.passes_on and not k.spends_card)


def move_kind(action: Action) -> MoveKind:
    """The row of ``action``'s kind."""
    return MOVE_KINDS[action.kind]


def register(kind: MoveKind) -> None:
    """Add a kind after the existing ones (its tag must be the next free one)."""
    if kind.kind != len(MOVE_KINDS):
        raise ValueError(f"kind {kind.kind} is not the next free tag {len(MOVE_KINDS)}")
    MOVE_KINDS.append(kind)


def cards_of(action: Action) -> tuple[Card | None, Card | None]:
    """(the card it plays or shows, the open card it beats), None where it names none."""
    card = Card.from_index(action.c) if action.c >= 0 else None
    attack = Card.from_index(action.a) if action.a >= 0 else None
    return card, attack


def notation(action: Action) -> str:
    """The action's text notation (``defend 7H 9H``) from its row: the verb, then the open card
    it beats, then its card."""
    card, attack = cards_of(action)
    words = [move_kind(action).verb]
    words += [str(c) for c in (attack, card) if c is not None]
    return " ".join(words)
