# Compiled with mypyc at install (.build/backend.py): after an edit its group runs as Python
# until the next install (durak_core/compiled_sources.py).
"""What a game is made of: :class:`Board`, every card's place, the bout and the roles.

The engine's kernel (listing, checking, stepping, the bout's end) reads and changes a ``Board``;
the public type is its subclass :class:`~durak_core.state.GameState`, which adds the copy and
the public API as methods. Keeping the fields down here, below the kernel, and the methods up
there, above it, keeps ``durak_core`` free of import cycles; the copy of the fields
(:func:`copy_fields`) sits here too, so a new field is one module's edit.

Card sets are bitmasks over card indices (:mod:`durak_core.cards`), seat sets bitmasks over seat
numbers, so the hot path does integer arithmetic instead of building sets.
"""

from __future__ import annotations

import inspect
from collections.abc import Iterable
from functools import lru_cache
from typing import TYPE_CHECKING, Any, Final

from .cards import Card, Suit
from .precomputed import Tables, tables_for, throwers_of
from .rules import RuleSet

if TYPE_CHECKING:
    from .actions import Action

Move = tuple[int, "Action"]
#: (previous tail, move) or None. Spelled without recursion: mypyc cannot map a recursive alias.
LogTail = tuple[Any, Move] | None
#: ``trump_suit`` of a game without trump (V11, V13, a turned joker under V15). The engine keeps
#: the suit as an int for its tables; everything public (:attr:`Board.trump`, the views)
#: says None.
NO_TRUMP: Final = -1


class Board:
    """Every card's place, the bout and the roles: the fields the engine reads and changes.

    The annotations below are the state's one list of fields (:data:`FIELDS` is read from them):
    equality, pickling, the copy and the JSON snapshot all follow them. Every field holds an
    immutable value (ints, tuples, the rule set), shared between states, except three working
    lists the engine changes on every card played: ``hands``, ``att`` and ``dfn``. They belong
    to one state (:func:`copy_fields` copies them) and are read-only outside the engine: a
    state handed out is never changed again. (Tuples there measurably slow the compiled fast
    path, which changes them in place.)
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
    # V18: (bout, seats that showed a trump in that bout); a tuple of any length because the
    # compiled class would store a fixed pair unboxed, building a new tuple on each read
    shown: tuple[int, ...] = (-1, 0)
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
        return isinstance(other, Board) and self._key() == other._key()

    __hash__ = None  # type: ignore[assignment]

    def order_cards(self) -> tuple[Card, ...]:
        """The initial card order (top first) this game was dealt from."""
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
        self._k = tables_for(self.rules, self.n)


def _declared_fields() -> tuple[str, ...]:
    # Pure Python: the class annotations, in order. Compiled, mypyc keeps no annotations but
    # records the same attributes, in the same order, for pickling.
    names: Iterable[str] = inspect.get_annotations(Board) or getattr(Board, "__mypyc_attrs__", ())
    return tuple(name for name in names if not name.startswith("__"))


#: Every field of :class:`Board`, in declaration order.
FIELDS: Final = _declared_fields()
#: The fields that make a state's value (with its log): not the engine's caches and tables,
#: nor the log's two halves (compared as the whole log), nor ``beat`` (follows the trump).
_VALUE_FIELDS: Final = tuple(
    name for name in FIELDS if name not in ("_k", "_legal", "_log_base", "_log_tail", "beat")
)


def copy_fields(s: Board, new: Board) -> None:
    """Set every field of ``new`` (a bare instance) from ``s``: the three working lists are
    copied, every other field is immutable and shared; the engine's cache of legal actions
    starts empty. Written out field by field, here beside the declarations, because it runs once
    per applied action (a loop over :data:`FIELDS` is several times slower compiled); a test
    checks it against them."""
    new.rules = s.rules
    new.n = s.n
    new.teams = s.teams
    new.beat = s.beat
    new.trump_suit = s.trump_suit
    new.trump_card = s.trump_card
    new.hidden_trump = s.hidden_trump
    new.hands = s.hands[:]
    new.known = s.known
    new.talon = s.talon
    new.discard = s.discard
    new.att = s.att[:]
    new.dfn = s.dfn[:]
    new.table = s.table
    new.ranks = s.ranks
    new.unbeaten = s.unbeaten
    new.attacker = s.attacker
    new.defender = s.defender
    new.attackers = s.attackers
    new.limit = s.limit
    new.taken = s.taken
    new.passed = s.passed
    new.active = s.active
    new.out = s.out
    new.emptied = s.emptied
    new.shown = s.shown
    new.discarded_once = s.discarded_once
    new.bout = s.bout
    new.version = s.version
    new.dealer = s.dealer
    new.starter = s.starter
    new.first_game = s.first_game
    new.seed = s.seed
    new.order = s.order
    new._log_base = s._log_base
    new._log_tail = s._log_tail
    new.finished = s.finished
    new._legal = None
    new._k = s._k


def with_item(values: tuple[int, ...], index: int, value: int) -> tuple[int, ...]:
    """``values`` with ``values[index]`` replaced (how the engine changes a per-seat field)."""
    changed = list(values)
    changed[index] = value
    return tuple(changed)


def set_trump(s: Board, card: Card) -> None:
    """Make ``card`` the face-up trump card (R5; V14 on reveal), and attach the rule set's
    tables to the state."""
    suit = s.rules.trump_for(card)
    tables = s._k = tables_for(s.rules, s.n)
    s.trump_card = card.index
    trump = s.trump_suit = -1 if suit is None else int(suit)
    beat = tables.beat[trump]
    if beat is None:
        beat = tables.beat[trump] = _beat_table(s.rules, trump)
    s.beat = beat


@lru_cache(maxsize=256)
def _beat_table(rules: RuleSet, trump: int) -> tuple[int, ...]:
    """For each card index, the mask of deck cards that beat it (R7, via ``rules.beats``);
    ``trump`` is a suit number or -1 for none."""
    deck = rules.deck()
    suit = None if trump < 0 else Suit(trump)
    table = [0] * (max(card.index for card in deck) + 1)
    for attack in deck:
        table[attack.index] = sum(1 << d.index for d in deck if rules.beats(attack, d, suit))
    return tuple(table)


def set_roles(s: Board, attacker: int) -> None:
    """R9/R12: ``attacker`` leads against the next opponent; the bout's limit is fixed from that
    defender's hand now (at the bout's start, or at a V1 transfer)."""
    tables = s._k
    active = s.active
    s.attacker = attacker
    defender = s.defender = tables.next_opponent(attacker, active)
    if defender < 0:
        raise AssertionError("no opponent left; the game should have ended")
    cap = tables.caps[s.discarded_once]
    held = s.hands[defender].bit_count()
    s.limit = held if held < cap else cap  # R12, fixed for the bout
    s.attackers = tables.throwers(attacker, defender, active)


def throwers_now(s: Board) -> int:
    """R9, V5, V7: who may throw in this bout (computed, not looked up: the state may not have
    its tables yet)."""
    return throwers_of(s.rules, s.n, s.teams, s.active, s.attacker, s.defender)
