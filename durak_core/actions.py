# Compiled with mypyc at install (.build/backend.py): after an edit its group runs as Python
# until the next install (durak_core/compiled_sources.py).
"""Actions: typed, immutable, with a text notation that round-trips and a fixed integer code.

Notation (cards as in R2)::

    attack 7H        open a bout or throw in (R10, R11)
    defend 7H 9H     beat the attack card 7H with 9H (R13)
    take             pick up the table (R13)
    pass             done throwing in (R15); "done" is accepted as a synonym
    transfer 7S      pass the attack on with a card of the same rank (V1)
    exchange         swap the lowest trump for the face-up trump (V8)
    show 7H          pass the attack on by showing the trump of its rank, kept in hand (V18)

>>> a = parse_action("defend 7h 9H")
>>> a, str(a)
(Defend(attack=Card('7H'), card=Card('9H')), 'defend 7H 9H')
>>> parse_action(str(a)) is a, Action.from_code(a.code) is a
(True, True)
>>> parse_action("beat 7H")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
durak_core.errors.ActionNotationError: 'beat 7H' is not an action (expected one of: attack CARD, ...

Actions are interned: equal actions are the same object, so the engine's legal-action lists
allocate nothing. Codes are stored (button ids, snapshots' readers): a new kind's codes go after
the existing ones, which never move.
"""

from __future__ import annotations

from typing import Final

from .cards import NUM_CARD_IDS, Card
from .errors import ActionNotationError, CardNotationError

# Kind tags, compared in the engine's hot path instead of isinstance chains.
ATTACK: Final = 0
DEFEND: Final = 1
TAKE: Final = 2
PASS: Final = 3
TRANSFER: Final = 4
EXCHANGE: Final = 5
SHOW: Final = 6
#: How many kinds there are (kinds are 0..NUM_KINDS-1, for tables indexed by kind).
NUM_KINDS: Final = 7

_N: Final = NUM_CARD_IDS
#: Code layout: attack 0..N-1, transfer N..2N-1, take, pass, exchange, then defend (a * N + d),
#: then show (V18, appended after the others so that their codes stay as stored).
_TRANSFER_BASE: Final = _N
TAKE_CODE: Final = 2 * _N
PASS_CODE: Final = 2 * _N + 1
EXCHANGE_CODE: Final = 2 * _N + 2
_DEFEND_BASE: Final = 2 * _N + 3
_SHOW_BASE: Final = _DEFEND_BASE + _N * _N
#: Every action code lies in ``range(NUM_ACTION_CODES)``.
NUM_ACTION_CODES: Final = _SHOW_BASE + _N


class Action:
    """Base class of the seven actions. Use :func:`parse_action` or the interned constructors."""

    __slots__ = ("a", "c", "code", "kind")
    kind: int  # ATTACK ... SHOW
    code: int
    c: int  # for hot paths (engine, AI): the index of the card played, or -1
    a: int  # the index of the attack card a defence beats, or -1

    @staticmethod
    def from_code(code: int) -> Action:
        """The action with integer code ``code`` (a fixed range, for AI encodings)."""
        if not isinstance(code, int) or not 0 <= code < NUM_ACTION_CODES:
            raise ActionNotationError(f"action code {code!r} is outside 0..{NUM_ACTION_CODES - 1}")
        if code < _TRANSFER_BASE:
            return attack(Card.from_index(code))
        if code < TAKE_CODE:
            return transfer(Card.from_index(code - _TRANSFER_BASE))
        if code == TAKE_CODE:
            return TAKE_ACTION
        if code == PASS_CODE:
            return PASS_ACTION
        if code == EXCHANGE_CODE:
            return EXCHANGE_ACTION
        if code >= _SHOW_BASE:
            return show(Card.from_index(code - _SHOW_BASE))
        a, d = divmod(code - _DEFEND_BASE, _N)
        return defend(Card.from_index(a), Card.from_index(d))

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"

    def __reduce__(self) -> tuple[object, tuple[int]]:
        return (Action.from_code, (self.code,))

    def __lt__(self, other: Action) -> bool:
        return self.code < other.code

    def __hash__(self) -> int:  # compiled classes get no default hash; equality is identity
        return self.code


class Attack(Action):
    """Open a bout (R10) or throw in (R11) with ``card``."""

    __slots__ = ("card",)
    card: Card

    def __str__(self) -> str:
        return f"attack {self.card}"

    def __repr__(self) -> str:
        return f"Attack(card={self.card!r})"


class Defend(Action):
    """Beat the unbeaten attack card ``attack`` with ``card`` (R13)."""

    __slots__ = ("attack", "card")
    attack: Card
    card: Card

    def __str__(self) -> str:
        return f"defend {self.attack} {self.card}"

    def __repr__(self) -> str:
        return f"Defend(attack={self.attack!r}, card={self.card!r})"


class Take(Action):
    """The defender picks up the table (R13, R14)."""

    __slots__ = ()

    def __str__(self) -> str:
        return "take"


class Pass(Action):
    """An attacker is done throwing in until the table changes (R15)."""

    __slots__ = ()

    def __str__(self) -> str:
        return "pass"


class Transfer(Action):
    """The defender passes the attack on with a card of the attack's rank (V1)."""

    __slots__ = ("card",)
    card: Card

    def __str__(self) -> str:
        return f"transfer {self.card}"

    def __repr__(self) -> str:
        return f"Transfer(card={self.card!r})"


class Show(Action):
    """The defender passes the attack on by showing ``card``, the trump of the attack's rank,
    which stays in the hand (V18)."""

    __slots__ = ("card",)
    card: Card

    def __str__(self) -> str:
        return f"show {self.card}"

    def __repr__(self) -> str:
        return f"Show(card={self.card!r})"


class ExchangeTrump(Action):
    """The holder of the lowest trump swaps it for the face-up trump (V8)."""

    __slots__ = ()

    def __str__(self) -> str:
        return "exchange"


# The classes have no ``__init__``: ``cls()`` makes a bare instance (``object.__new__`` would not
# work on the compiled classes).
def _init(obj: Action, kind: int, code: int, c: int = -1, a: int = -1) -> None:
    obj.kind = kind
    obj.code = code
    obj.c = c
    obj.a = a


def _new(cls: type[Action], kind: int, code: int) -> Action:
    obj = cls()
    _init(obj, kind, code)
    return obj


def _card_action(
    cls: type[Attack] | type[Transfer] | type[Show], kind: int, code: int, i: int
) -> Action:
    obj = cls()
    obj.card = Card.from_index(i)
    _init(obj, kind, code, i)
    return obj


#: Interned attack / transfer / show actions by card index (the engine indexes them directly).
ATTACKS: Final = tuple(_card_action(Attack, ATTACK, i, i) for i in range(_N))
TRANSFERS: Final = tuple(_card_action(Transfer, TRANSFER, _TRANSFER_BASE + i, i) for i in range(_N))
SHOWS: Final = tuple(_card_action(Show, SHOW, _SHOW_BASE + i, i) for i in range(_N))
_DEFENDS: Final[dict[int, Defend]] = {}
TAKE_ACTION: Final = _new(Take, TAKE, TAKE_CODE)
PASS_ACTION: Final = _new(Pass, PASS, PASS_CODE)
EXCHANGE_ACTION: Final = _new(ExchangeTrump, EXCHANGE, EXCHANGE_CODE)


def attack(card: Card) -> Attack:
    return ATTACKS[card.index]  # type: ignore[return-value]


def transfer(card: Card) -> Transfer:
    return TRANSFERS[card.index]  # type: ignore[return-value]


def show(card: Card) -> Show:
    return SHOWS[card.index]  # type: ignore[return-value]


def defend(attack_card: Card, card: Card) -> Defend:
    return defend_i(attack_card.index, card.index)


def defend_i(a: int, d: int) -> Defend:
    """Interned ``Defend`` from card indices (the engine's hot path)."""
    key = a * _N + d
    obj = _DEFENDS.get(key)
    if obj is None:
        obj = Defend()
        _init(obj, DEFEND, _DEFEND_BASE + key, d, a)
        obj.attack = Card.from_index(a)
        obj.card = Card.from_index(d)
        _DEFENDS[key] = obj
    return obj


_USAGE: Final = "attack CARD, defend ATTACK CARD, take, pass, transfer CARD, exchange, show CARD"


def parse_action(text: str) -> Action:
    """Parse the notation above (case-insensitive; cards in letters or symbols)."""
    if not isinstance(text, str):
        raise ActionNotationError(f"{text!r} is not an action (expected one of: {_USAGE})")
    words = text.split()
    verb = words[0].lower() if words else ""
    args = words[1:]
    try:
        if verb == "attack" and len(args) == 1:
            return attack(Card.parse(args[0]))
        if verb == "defend" and len(args) == 2:
            return defend(Card.parse(args[0]), Card.parse(args[1]))
        if verb == "transfer" and len(args) == 1:
            return transfer(Card.parse(args[0]))
        if verb == "show" and len(args) == 1:
            return show(Card.parse(args[0]))
    except CardNotationError as exc:
        raise ActionNotationError(f"{text!r}: {exc}") from None
    if not args:
        if verb == "take":
            return TAKE_ACTION
        if verb in ("pass", "done"):
            return PASS_ACTION
        if verb == "exchange":
            return EXCHANGE_ACTION
    raise ActionNotationError(f"{text!r} is not an action (expected one of: {_USAGE})")
