"""The full game state: every card's place, the bout, the roles.

``GameState`` holds secrets (every hand, the talon order). Only the engine, serialization and
tests handle it; the bot and the AI get views (:mod:`durak_core.views`). It is immutable through
the public API: :meth:`GameState.apply` returns a new state. The fast path
(:mod:`durak_core.fast`) mutates a private copy in place, for search.

Card sets are bitmasks over card indices (:mod:`durak_core.cards`), seat sets bitmasks over seat
numbers, so the hot path does integer arithmetic instead of building sets.
"""

from __future__ import annotations

import inspect
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, Final

from .cards import Suit
from .rules import RuleSet

if TYPE_CHECKING:
    from .actions import Action
    from .cards import Card
    from .events import Event
    from .result import GameResult
    from .tables import Tables
    from .views import PublicView, SeatView

Move = tuple[int, "Action"]
#: (previous tail, move) or None. Spelled without recursion: mypyc cannot map a recursive alias.
LogTail = tuple[Any, Move] | None
#: ``trump_suit`` of a game without trump (V11, V13, a turned joker under V15). The engine keeps
#: the suit as an int for its tables; everything public (:attr:`GameState.trump`, the views)
#: says None.
NO_TRUMP: Final = -1


class GameState:
    """One moment of one game. Read it through properties, views and the engine functions.

    The annotations below are the state's one list of fields (:data:`FIELDS` is read from them):
    equality, pickling, the copy and the JSON snapshot all follow them. Every field holds an
    immutable value (ints, tuples, the rule set), shared between states, except three working
    lists the engine changes on every card played: ``hands``, ``att`` and ``dfn``. They belong
    to one state (:meth:`copy` copies them) and are read-only outside the engine: a state
    handed out is never changed again. (Tuples there measurably slow the compiled fast path,
    which changes them in place.)
    """

    rules: RuleSet
    n: int  # seats
    teams: tuple[int, ...]  # team number of each seat (each seat its own without V7)
    beat: tuple[int, ...]  # card index -> mask of the cards that beat it (R7, per trump)
    trump_suit: int  # the suit's number, or NO_TRUMP (see :attr:`trump` for the public form)
    trump_card: int  # the face-up card: bottom of the talon, or in a hand under R6
    hidden_trump: int  # V14: the face-down card under the trump (talon[0]) until revealed, or -1
    hands: list[int]  # per seat: the mask of its cards (a working list: see copy)
    known: tuple[int, ...]  # per seat: cards publicly known to be in that hand (R23)
    talon: tuple[int, ...]  # top of the talon LAST; the trump card is [0] (V14: [1])
    discard: int
    att: list[int]  # attack cards of this bout, in order (a working list: see copy)
    dfn: list[int]  # the card beating att[i], or -1 (a working list: see copy)
    table: int  # mask of every card on the table
    ranks: int  # mask of every card whose rank is on the table (R11)
    unbeaten: int
    attacker: int  # main attacker
    defender: int
    attackers: int  # seats that may throw in this bout (R9, V5, V7)
    limit: int  # R12 attack-card limit of this bout
    taken: bool
    passed: int  # seats that explicitly passed since the table last changed (R15)
    active: int  # seats still in the game
    out: tuple[int, ...]  # seats out, in finishing order (R18)
    emptied: tuple[int, ...]  # per seat: version of the action that emptied the hand, or -1
    discarded_once: bool  # has any bout ended defended yet (V4)
    bout: int
    version: int  # number of actions applied
    dealer: int
    starter: int
    first_game: bool
    seed: int | None
    order: tuple[int, ...]  # the initial card order (top first), for replay
    _log_base: tuple[Move, ...]  # the log is _log_base, then the moves chained in _log_tail
    _log_tail: LogTail  # (previous tail, move) or None: O(1) per applied action
    finished: bool
    _legal: list[Any] | None  # the engine's cache: per seat its actions, then every move
    _k: Tables  # the engine's tables for this rule set and seat count (tables.tables_for)

    def copy(self) -> GameState:
        """An independent copy (the fast path mutates one in place; the engine's ``apply``
        changes one into the next state): the three working lists are copied, every other
        field is immutable and shared; the engine's cache of legal actions starts empty.
        Written out field by field because it runs once per applied action (a loop over
        :data:`FIELDS` is several times slower compiled); a test checks it against them."""
        new = GameState()  # no __init__: every field is set below
        new.rules = self.rules
        new.n = self.n
        new.teams = self.teams
        new.beat = self.beat
        new.trump_suit = self.trump_suit
        new.trump_card = self.trump_card
        new.hidden_trump = self.hidden_trump
        new.hands = self.hands[:]
        new.known = self.known
        new.talon = self.talon
        new.discard = self.discard
        new.att = self.att[:]
        new.dfn = self.dfn[:]
        new.table = self.table
        new.ranks = self.ranks
        new.unbeaten = self.unbeaten
        new.attacker = self.attacker
        new.defender = self.defender
        new.attackers = self.attackers
        new.limit = self.limit
        new.taken = self.taken
        new.passed = self.passed
        new.active = self.active
        new.out = self.out
        new.emptied = self.emptied
        new.discarded_once = self.discarded_once
        new.bout = self.bout
        new.version = self.version
        new.dealer = self.dealer
        new.starter = self.starter
        new.first_game = self.first_game
        new.seed = self.seed
        new.order = self.order
        new._log_base = self._log_base
        new._log_tail = self._log_tail
        new.finished = self.finished
        new._legal = None
        new._k = self._k
        return new

    @property
    def trump(self) -> Suit | None:
        """The trump suit; None when the game has none (V11, V13, a joker turned under V15)."""
        return None if self.trump_suit == NO_TRUMP else Suit(self.trump_suit)

    @property
    def log(self) -> tuple[Move, ...]:
        """Every (seat, action) applied since the deal, in order."""
        tail = self._log_tail
        if tail is None:
            return self._log_base
        moves: list[Move] = []
        while tail is not None:
            tail, move = tail
            moves.append(move)
        moves.reverse()
        log = self._log_base + tuple(moves)
        self._log_base = log  # the same value, now flat
        self._log_tail = None
        return log

    @log.setter
    def log(self, moves: tuple[Move, ...]) -> None:
        self._log_base = tuple(moves)
        self._log_tail = None

    def _key(self) -> tuple[object, ...]:
        return (*(getattr(self, name) for name in _VALUE_FIELDS), self.log)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, GameState) and self._key() == other._key()

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        from .render import describe_state

        return describe_state(self)

    # --- the public API, as methods (see :mod:`durak_core.engine`) ---------------------------

    # seat and action: any value, checked at run time (see the engine's public entry points)
    def legal_actions(self, seat: object) -> tuple[Action, ...]:
        return _engine.legal_actions(self, seat)

    def legal_moves(self) -> tuple[Move, ...]:
        return _engine.legal_moves(self)

    def can(self, seat: object, action: object) -> bool:
        return _engine.can(self, seat, action)

    def verify(self, seat: object, action: object) -> None:
        _engine.verify(self, seat, action)

    def apply(self, seat: object, action: object) -> tuple[GameState, tuple[Event, ...]]:
        return _engine.apply(self, seat, action)

    def view(self, seat: object) -> SeatView:
        from .views import seat_view

        return seat_view(self, seat)

    def public_view(self) -> PublicView:
        from .views import public_view

        return public_view(self)

    @property
    def result(self) -> GameResult | None:
        from .result import game_result

        return game_result(self)

    def status(self) -> tuple[str, ...]:
        from .invariants import check

        return check(self)

    def to_json(self) -> str:
        from .serialize import state_to_json

        return state_to_json(self)

    @staticmethod
    def from_json(text: str | bytes) -> GameState:
        from .serialize import state_from_json

        return state_from_json(text)

    def order_cards(self) -> tuple[Card, ...]:
        """The initial card order (top first) this game was dealt from."""
        from .cards import Card

        return tuple(Card.from_index(i) for i in self.order)

    def hand_size(self, seat: int) -> int:
        return self.hands[seat].bit_count()

    def __getstate__(self) -> dict[str, Any]:
        d = {k: getattr(self, k) for k in _VALUE_FIELDS}
        d["beat"] = self.beat
        d["log"] = self.log
        return d

    def __setstate__(self, d: dict[str, Any]) -> None:
        for k, v in d.items():
            setattr(self, k, v)
        self._legal = None
        self._k = _tables_for(self.rules, self.n)


def _declared_fields() -> tuple[str, ...]:
    # Pure Python: the class annotations, in order. Compiled, mypyc keeps no annotations but
    # records the same attributes, in the same order, for pickling.
    names: Iterable[str] = inspect.get_annotations(GameState) or getattr(
        GameState, "__mypyc_attrs__", ()
    )
    return tuple(name for name in names if not name.startswith("__"))


#: Every field of :class:`GameState`, in declaration order.
FIELDS: Final = _declared_fields()
#: The fields that make a state's value (with its log): not the engine's caches and tables,
#: nor the log's two halves (compared as the whole log), nor ``beat`` (follows the trump).
_VALUE_FIELDS: Final = tuple(
    name for name in FIELDS if name not in ("_k", "_legal", "_log_base", "_log_tail", "beat")
)


def with_item(values: tuple[int, ...], index: int, value: int) -> tuple[int, ...]:
    """``values`` with ``values[index]`` replaced (how the engine changes a per-seat field)."""
    changed = list(values)
    changed[index] = value
    return tuple(changed)


from . import engine as _engine  # noqa: E402  (the engine imports GameState; see module doc)
from .tables import tables_for as _tables_for  # noqa: E402
