# Compiled with mypyc at install (.build/backend.py): after an edit its group runs as Python
# until the next install (durak_core/compiled_sources.py).
"""What one seat, or a spectator, may know (R23–R25). The bot and the AI only ever get these.

A view is built from public facts plus, for a seat, its own hand and legal actions. It never
reads another hand or the talon order, which the leak test proves by reshuffling everything
hidden from a seat and comparing its views.

>>> from durak_core import RuleSet, new_game
>>> v = new_game(RuleSet(), 3, seed=1).view(0)
>>> len(v.hand), v.hand_sizes, v.talon_size, str(v.trump_card)
(6, (6, 6, 6), 18, '10D')
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, fields
from operator import attrgetter
from typing import Any, Final

from .actions import Action
from .board import Board
from .cards import Card, Suit, cards_of
from .engine import legal_actions
from .errors import SeatError
from .result import GameResult, game_result
from .rules import RuleSet


@dataclass(frozen=True, slots=True)
class PublicView:
    """Everything public (R23): what a spectator sees."""

    rules: RuleSet
    seats: int
    teams: tuple[int, ...]
    dealer: int
    #: The trump suit; None when the game has none (V11, V13, a turned joker under V15).
    trump: Suit | None
    #: The face-up card: under the talon while ``trump_in_talon``, else drawn (or R6-dealt).
    trump_card: Card
    trump_in_talon: bool
    #: V14: a face-down card lies under the trump and becomes the trump once it is drawn.
    trump_will_change: bool
    talon_size: int
    discard_size: int
    #: Cards seen going to the discard pile (everyone saw them played).
    discarded: frozenset[Card]
    hand_sizes: tuple[int, ...]
    #: Per seat: cards everyone knows are in that hand (taken from the table, shown, R6/R8).
    known: tuple[frozenset[Card], ...]
    #: The table as (attack card, defence card or None) pairs, in play order.
    table: tuple[tuple[Card, Card | None], ...]
    bout: int
    attacker: int
    defender: int
    #: Seats that may throw in this bout (R9, V5, V7).
    attackers: frozenset[int]
    limit: int
    taken: bool
    #: Attackers who explicitly passed since the table last changed (R15).
    passed: frozenset[int]
    active: tuple[int, ...]
    finishing_order: tuple[int, ...]
    #: Whose response the game waits for, judged from public facts only: the main attacker
    #: before the opening card, the defender while a card is unbeaten, else the attackers who
    #: have not passed (some may have nothing to throw in; only they know).
    awaiting: tuple[int, ...]
    version: int
    finished: bool
    result: GameResult | None

    def __init__(
        self,
        rules: RuleSet,
        seats: int,
        teams: tuple[int, ...],
        dealer: int,
        trump: Suit | None,
        trump_card: Card,
        trump_in_talon: bool,
        trump_will_change: bool,
        talon_size: int,
        discard_size: int,
        discarded: frozenset[Card],
        hand_sizes: tuple[int, ...],
        known: tuple[frozenset[Card], ...],
        table: tuple[tuple[Card, Card | None], ...],
        bout: int,
        attacker: int,
        defender: int,
        attackers: frozenset[int],
        limit: int,
        taken: bool,
        passed: frozenset[int],
        active: tuple[int, ...],
        finishing_order: tuple[int, ...],
        awaiting: tuple[int, ...],
        version: int,
        finished: bool,
        result: GameResult | None,
    ) -> None:
        # Written out rather than left to @dataclass: compiled by mypyc, a generated __init__
        # stays interpreted (27 object.__setattr__ calls, ~4.5 µs a view), while each line
        # here compiles to a plain store (~0.2 µs a view). The same calls @dataclass makes.
        object.__setattr__(self, "rules", rules)
        object.__setattr__(self, "seats", seats)
        object.__setattr__(self, "teams", teams)
        object.__setattr__(self, "dealer", dealer)
        object.__setattr__(self, "trump", trump)
        object.__setattr__(self, "trump_card", trump_card)
        object.__setattr__(self, "trump_in_talon", trump_in_talon)
        object.__setattr__(self, "trump_will_change", trump_will_change)
        object.__setattr__(self, "talon_size", talon_size)
        object.__setattr__(self, "discard_size", discard_size)
        object.__setattr__(self, "discarded", discarded)
        object.__setattr__(self, "hand_sizes", hand_sizes)
        object.__setattr__(self, "known", known)
        object.__setattr__(self, "table", table)
        object.__setattr__(self, "bout", bout)
        object.__setattr__(self, "attacker", attacker)
        object.__setattr__(self, "defender", defender)
        object.__setattr__(self, "attackers", attackers)
        object.__setattr__(self, "limit", limit)
        object.__setattr__(self, "taken", taken)
        object.__setattr__(self, "passed", passed)
        object.__setattr__(self, "active", active)
        object.__setattr__(self, "finishing_order", finishing_order)
        object.__setattr__(self, "awaiting", awaiting)
        object.__setattr__(self, "version", version)
        object.__setattr__(self, "finished", finished)
        object.__setattr__(self, "result", result)

    def __reduce__(self) -> tuple[type[PublicView], tuple[object, ...]]:
        # Views travel pickled to the AI's worker processes. Compiled by mypyc, a frozen
        # dataclass unpickles only through its constructor (its __setattr__ refuses the fields).
        return (type(self), tuple([getattr(self, f.name) for f in fields(self)]))


@dataclass(frozen=True, slots=True)
class SeatView(PublicView):
    """A player's view: the public view plus its own hand and its legal actions (R24, R25)."""

    seat: int
    hand: tuple[Card, ...]
    legal_actions: tuple[Action, ...]

    def __init__(
        self,
        rules: RuleSet,
        seats: int,
        teams: tuple[int, ...],
        dealer: int,
        trump: Suit | None,
        trump_card: Card,
        trump_in_talon: bool,
        trump_will_change: bool,
        talon_size: int,
        discard_size: int,
        discarded: frozenset[Card],
        hand_sizes: tuple[int, ...],
        known: tuple[frozenset[Card], ...],
        table: tuple[tuple[Card, Card | None], ...],
        bout: int,
        attacker: int,
        defender: int,
        attackers: frozenset[int],
        limit: int,
        taken: bool,
        passed: frozenset[int],
        active: tuple[int, ...],
        finishing_order: tuple[int, ...],
        awaiting: tuple[int, ...],
        version: int,
        finished: bool,
        result: GameResult | None,
        seat: int,
        hand: tuple[Card, ...],
        legal_actions: tuple[Action, ...],
    ) -> None:
        # Written out, as PublicView's (its stores compile only in the class itself).
        object.__setattr__(self, "rules", rules)
        object.__setattr__(self, "seats", seats)
        object.__setattr__(self, "teams", teams)
        object.__setattr__(self, "dealer", dealer)
        object.__setattr__(self, "trump", trump)
        object.__setattr__(self, "trump_card", trump_card)
        object.__setattr__(self, "trump_in_talon", trump_in_talon)
        object.__setattr__(self, "trump_will_change", trump_will_change)
        object.__setattr__(self, "talon_size", talon_size)
        object.__setattr__(self, "discard_size", discard_size)
        object.__setattr__(self, "discarded", discarded)
        object.__setattr__(self, "hand_sizes", hand_sizes)
        object.__setattr__(self, "known", known)
        object.__setattr__(self, "table", table)
        object.__setattr__(self, "bout", bout)
        object.__setattr__(self, "attacker", attacker)
        object.__setattr__(self, "defender", defender)
        object.__setattr__(self, "attackers", attackers)
        object.__setattr__(self, "limit", limit)
        object.__setattr__(self, "taken", taken)
        object.__setattr__(self, "passed", passed)
        object.__setattr__(self, "active", active)
        object.__setattr__(self, "finishing_order", finishing_order)
        object.__setattr__(self, "awaiting", awaiting)
        object.__setattr__(self, "version", version)
        object.__setattr__(self, "finished", finished)
        object.__setattr__(self, "result", result)
        object.__setattr__(self, "seat", seat)
        object.__setattr__(self, "hand", hand)
        object.__setattr__(self, "legal_actions", legal_actions)


def _awaiting(s: Board) -> tuple[int, ...]:
    if s.finished:
        return ()
    if not s.att:
        return (s.attacker,)
    if s.unbeaten and not s.taken:
        return (s.defender,)
    return tuple(t for t in range(s.n) if s.attackers >> t & 1 and not s.passed >> t & 1)


def public_view(s: Board) -> PublicView:
    return PublicView(
        rules=s.rules,
        seats=s.n,
        teams=s.teams,
        dealer=s.dealer,
        trump=s.trump,
        trump_card=Card.from_index(s.trump_card),
        trump_in_talon=s.trump_card in s.talon,
        trump_will_change=s.hidden_trump >= 0,
        talon_size=len(s.talon),
        discard_size=s.discard.bit_count(),
        discarded=frozenset(cards_of(s.discard)),
        hand_sizes=tuple([h.bit_count() for h in s.hands]),
        known=tuple([frozenset(cards_of(k)) for k in s.known]),
        table=tuple(
            [
                (Card.from_index(a), Card.from_index(d) if d >= 0 else None)
                for a, d in zip(s.att, s.dfn, strict=True)
            ]
        ),
        bout=s.bout,
        attacker=s.attacker,
        defender=s.defender,
        attackers=_seat_set(s.attackers, s.n),
        limit=s.limit,
        taken=s.taken,
        passed=_seat_set(s.passed, s.n),
        active=tuple([t for t in range(s.n) if s.active >> t & 1]),
        finishing_order=tuple(s.out),
        awaiting=_awaiting(s),
        version=s.version,
        finished=s.finished,
        result=game_result(s),
    )


def _seat_set(mask: int, n: int) -> frozenset[int]:
    return frozenset([t for t in range(n) if mask >> t & 1])


def seat_view(s: Board, seat: object, public: PublicView | None = None) -> SeatView:
    """``seat``'s view; any other value than a seat number (``True`` included, as in
    :meth:`~durak_core.state.GameState.apply`) raises :class:`SeatError`. ``public``: ``s``'s public
    view, if the caller keeps it, whose fields the seat's view then shares (a table shows
    one state to every seat)."""
    if type(seat) is not int or not 0 <= seat < s.n:
        raise SeatError(f"R3: there is no seat {seat!r} at this {s.n}-seat table")
    if public is not None and public.version != s.version:
        raise ValueError("the public view is of another state")
    if public is None:
        public = public_view(s)
    # A seat view's fields are the public view's, in order, then its own three.
    values = (*_public_values(public), seat, cards_of(s.hands[seat]), legal_actions(s, seat))
    return SeatView(*values)


#: A public view's field values, in order, in one call.
_public_values: Final[Callable[[PublicView], tuple[Any, ...]]] = attrgetter(
    *(f.name for f in fields(PublicView))
)
