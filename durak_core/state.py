# Compiled with mypyc at install (.build/backend.py): after an edit its group runs as Python
# until the next install (durak_core/compiled_sources.py).
"""The full game state: :class:`GameState`, how a game starts, and the public API as methods.

``GameState`` holds secrets (every hand, the talon order). Only the engine, serialization and
tests handle it; the bot and the AI get views (:mod:`durak_core.views`). It is immutable through
the public API: :meth:`GameState.apply` returns a new state. The fast path
(:mod:`durak_core.fast`) mutates a private copy in place, for search.

Its fields are those of :class:`~durak_core.board.Board`, which the engine's kernel reads and
changes; this module sits above the kernel and the views, so the methods below import what they
call without a cycle.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

from .actions import Action, parse_action
from .bits import lowest_bit
from .board import Board, Move, copy_fields, set_roles, set_trump, with_item
from .cards import COPY_STRIDE, SUIT_BLOCKS, Card
from .deck import deal, dealer_from_seed, shuffled_indices
from .describe import describe_state
from .engine import action_taken, can, legal_actions, legal_moves, verify
from .errors import RulesError
from .events import Event
from .invariants import check
from .precomputed import CLOCKWISE
from .result import GameResult, game_result
from .rules import RuleSet
from .snapshot_writer import state_to_json
from .stepping import do
from .views import PublicView, SeatView, public_view, seat_view


class GameState(Board):
    """One moment of one game. Read it through properties, views and the methods below."""

    def copy(self) -> GameState:
        """An independent copy (the fast path mutates one in place; :meth:`apply` changes one
        into the next state): :func:`~durak_core.board.copy_fields`, beside the fields."""
        new = GameState()  # no __init__: copy_fields sets every field
        copy_fields(self, new)
        return new

    def __repr__(self) -> str:
        return describe_state(self)

    # --- the public API, as methods ----------------------------------------------------------

    # seat and action: any value, checked at run time (see :mod:`durak_core.engine`)
    def legal_actions(self, seat: object) -> tuple[Action, ...]:
        """The legal actions of ``seat`` now (empty when it has none, or the game is over)."""
        return legal_actions(self, seat)

    def legal_moves(self) -> tuple[Move, ...]:
        """Every legal (seat, action) pair now, seats in order."""
        return legal_moves(self)

    def can(self, seat: object, action: object) -> bool:
        """Whether ``seat`` may play ``action`` now."""
        return can(self, seat, action)

    def verify(self, seat: object, action: object) -> None:
        """Raise :class:`~durak_core.errors.IllegalActionError` (naming the rule) unless
        ``action`` is legal for ``seat``."""
        verify(self, seat, action)

    def apply(self, seat: object, action: object) -> tuple[GameState, tuple[Event, ...]]:
        """Apply a legal action: the new state and the events it produced; this one is
        unchanged. An illegal action raises :class:`~durak_core.errors.IllegalActionError`
        (its ``rule`` names the rule). An action may be given as notation."""
        cache = self._legal
        if (
            cache is None
            or cache[-1] is None
            or type(seat) is not int
            or not isinstance(action, Action)
            or (seat, action) not in cache[-1]
        ):  # not one of the listed pairs (or not listed yet): the full check
            if isinstance(action, str):
                action = parse_action(action)
            verify(self, seat, action)
        played = cast(Action, action)  # listed or verified: a seat number and an action
        by = cast(int, seat)
        new = self.copy()
        events: list[Event] = [action_taken(by, played)]
        do(new, by, played, events)
        new._log_tail = (self._log_tail, (by, played))
        return new, tuple(events)

    def view(self, seat: object) -> SeatView:
        """What ``seat``, and only ``seat``, may know (R23, R24)."""
        return seat_view(self, seat)

    def public_view(self) -> PublicView:
        """What a spectator may know (R23)."""
        return public_view(self)

    @property
    def result(self) -> GameResult | None:
        """The finished game's result; None while it is being played."""
        return game_result(self)

    def status(self) -> tuple[str, ...]:
        """The problems with this state (every card once, R7, R12, roles); empty when none."""
        return check(self)

    def to_json(self) -> str:
        """The whole state, secrets included, for storage (see :mod:`durak_core.serialize`)."""
        return state_to_json(self)


def apply(s: GameState, seat: object, action: object) -> tuple[GameState, tuple[Event, ...]]:
    """:meth:`GameState.apply` as a function."""
    return s.apply(seat, action)


step = apply


# --- starting a game ----------------------------------------------------------------------------


def _deck_and_dealer(
    rules: RuleSet,
    seats: int,
    seed: int | None,
    order: Sequence[Card | str] | None,
    dealer: int | None,
) -> tuple[list[int], int]:
    """:func:`new_game`'s deck (card indices, top first) and dealer, its arguments checked."""
    if not isinstance(rules, RuleSet):
        raise RulesError(f"rules must be a RuleSet, not {type(rules).__name__}")
    rules.check_seats(seats)
    if (seed is None) == (order is None):
        raise RulesError("R4: give exactly one of seed or order")
    if seed is not None:
        deck = shuffled_indices(rules, seed)
        default_dealer = dealer_from_seed(seed, seats)
    else:
        assert order is not None
        deck = [c.index for c in _check_order(rules, order)]
        default_dealer = seats - 1
    if dealer is None:
        return deck, default_dealer
    if not isinstance(dealer, int) or not 0 <= dealer < seats:
        raise RulesError(f"R3: the dealer must be a seat 0..{seats - 1}, not {dealer!r}")
    return deck, dealer


def new_game(
    rules: RuleSet,
    seats: int,
    *,
    seed: int | None = None,
    order: Sequence[Card | str] | None = None,
    dealer: int | None = None,
    first_game: bool = True,
) -> GameState:
    """Deal a new game.

    Give exactly one of ``seed`` (an int in 0..2**256-1; the deck is :func:`shuffled_deck`) or
    ``order`` (every card of the deck once, top first; see :mod:`durak_core.deck` for the dealing
    convention). ``dealer`` defaults to a seat drawn from the seed, or to the last seat with an
    explicit order (so seat 0 receives the first card). ``first_game=False`` marks a later game
    of a series, where V10 decides the starter instead of R8.
    """
    deck, dealer = _deck_and_dealer(rules, seats, seed, order, dealer)
    hands, trump, talon = deal(rules, seats, dealer, deck)
    s = GameState()  # no __init__: new_game sets every field
    s.rules = rules
    s.n = seats
    s.teams = rules.teams_of(seats)
    set_trump(s, Card.from_index(trump))
    s.hidden_trump = talon[-1] if rules.changing_trump else -1
    s.hands = [sum(1 << card for card in hand) for hand in hands]
    s.known = (0,) * seats
    talon.reverse()
    s.talon = tuple(talon)
    s.discard = 0
    s.att = []
    s.dfn = []
    s.table = s.ranks = s.unbeaten = s.passed = 0
    s.taken = False
    s.active = (1 << seats) - 1
    s.out = ()
    s.emptied = (-1,) * seats
    s.discarded_once = False
    s.bout = 0
    s.version = 0
    s.dealer = dealer
    s.first_game = first_game
    s.seed = seed
    s.order = tuple(deck)
    s.log = ()
    s.finished = False
    s._legal = None
    if not talon:  # R6: everyone knows who holds the last dealt card
        s.known = with_item(s.known, dealer, 1 << trump)

    holder = None
    if first_game or not rules.under_the_fool:  # V10 skips R8 in later games
        holder = _lowest_trump_holder(s)  # R8
    s.starter = (dealer + 1) % seats if holder is None else holder
    set_roles(s, s.starter)
    return s


def _check_order(rules: RuleSet, order: Sequence[Card | str]) -> list[Card]:
    cards = [c if isinstance(c, Card) else Card.parse(c) for c in order]
    deck = set(rules.deck())
    seen: set[Card] = set()
    for c in cards:
        if c not in deck:
            raise RulesError(f"R1/V2: {c} is not in the {rules.deck_size}-card deck")
        if c in seen:
            raise RulesError(f"R1: {c} appears twice in the card order")
        seen.add(c)
    if len(cards) != len(deck):
        missing = ", ".join(str(c) for c in sorted(deck - seen))
        raise RulesError(f"R1: the card order lacks {missing}")
    return cards


def _lowest_trump_holder(s: GameState) -> int | None:
    """R8: the seat holding the lowest trump (the face-up trump under the talon is not held);
    that card becomes public knowledge. Under V16 two players may hold that rank: the one first
    in the deal (clockwise from the dealer's left) starts."""
    if s.trump_suit < 0:
        return None
    block = SUIT_BLOCKS[s.trump_suit]  # the trump suit's first copies, in rank order
    held = 0
    for hand in s.hands:
        held |= (hand | hand >> COPY_STRIDE) & block  # V16: a second copy counts as its rank
    if not held:
        return None
    low = held & -held  # the lowest trump rank anyone holds
    both_copies = low | low << COPY_STRIDE
    for seat in CLOCKWISE[s.n][(s.dealer + 1) % s.n]:
        mine = s.hands[seat] & both_copies
        if mine:
            s.known = with_item(s.known, seat, s.known[seat] | 1 << lowest_bit(mine))
            return seat
    raise AssertionError("unreachable: someone holds that trump")
