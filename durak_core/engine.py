"""The rules engine's public API: new games, legal actions, checking and applying actions.

The engine is split by what each part does:

- :mod:`durak_core.legality`: what a seat may do now and which rule says no — every rule of
  play stated once (R9–R15, R18, V1, V5, V7, V8);
- :mod:`durak_core.listing`: :func:`~durak_core.listing.list_legal`, the one listing of what
  those checks allow;
- :mod:`durak_core.stepping`: applying a legal action in place;
- :mod:`durak_core.after_bout`: the bout's end, the draw, players out, the game's end;
- :mod:`durak_core.tables`: the seat order and roles, precomputed per rule set and seat count.

``verify`` refuses exactly what the listing leaves out, naming the rule (pokerkit's verify /
can / do: ``verify`` raises, ``can`` answers, ``apply`` verifies then does).

>>> from durak_core import RuleSet, new_game
>>> g = new_game(RuleSet(), 2, seed=7)
>>> g.starter  # R8: seat 1 holds 9S, the lowest trump (spades)
1
>>> [str(a) for a in g.legal_actions(1)][:3]
['attack 9S', 'attack 6C', 'attack 10C']
>>> g2, events = g.apply(1, "attack 6C")
>>> [str(a) for a in g2.legal_actions(0)]
['defend 6C JS', 'defend 6C AS', 'defend 6C 7C', 'take']
>>> g.apply(0, "take")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
durak_core.errors.IllegalActionError: R10: seat 0 may not act before the main attacker (seat 1) ...
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final, cast

from .actions import NUM_ACTION_CODES, Action, parse_action
from .bits import lowest_bit
from .cards import COPY_STRIDE, SUIT_BLOCKS, Card
from .deck import deal, dealer_from_seed, shuffled_indices
from .errors import GameOverError, IllegalActionError, RulesError
from .events import ActionTaken, Event
from .legality import ALLOWED, check, reason
from .listing import ACTIONS, list_legal
from .rules import MAX_SEATS, RuleSet
from .state import GameState, Move, with_item
from .stepping import do
from .tables import CLOCKWISE, set_roles, set_trump

# --- starting a game ----------------------------------------------------------------------------


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
        dealer = default_dealer
    elif not isinstance(dealer, int) or not 0 <= dealer < seats:
        raise RulesError(f"R3: the dealer must be a seat 0..{seats - 1}, not {dealer!r}")

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


# --- legal actions --------------------------------------------------------------------------------

# The public entry points below take ``object`` for the seat and the action: they check them at run
# time and answer bad input with a typed error (compiled, an ``int`` parameter would raise a bare
# TypeError before the check, and would turn ``True`` into seat 1).


def _cached_actions(s: GameState, seat: int) -> list[Action]:
    """The seat's legal actions, cached on the state (states are immutable in the public API;
    the step clears the cache). The cache holds one list per seat and, last, the tuple of every
    (seat, action) pair."""
    cache = s._legal
    if cache is None:
        cache = s._legal = [None] * (s.n + 1)
    else:
        cached: list[Action] | None = cache[seat]
        if cached is not None:
            return cached
    actions = cache[seat] = list_legal(s, 1 << seat, ACTIONS)
    return actions


def legal_actions(s: GameState, seat: object) -> tuple[Action, ...]:
    """The legal actions of ``seat`` now (empty when it has none, or the game is over)."""
    if type(seat) is not int or not 0 <= seat < s.n:
        return ()
    return tuple(_cached_actions(s, seat))


def legal_moves(s: GameState) -> tuple[Move, ...]:
    """Every legal (seat, action) pair now, seats in order (cached on the state)."""
    cache = s._legal
    if cache is None:
        cache = s._legal = [None] * (s.n + 1)
    else:
        cached: tuple[Move, ...] | None = cache[-1]
        if cached is not None:
            return cached
    moves = cache[-1] = tuple(list_legal(s))
    return moves


def can(s: GameState, seat: object, action: object) -> bool:
    """Whether ``seat`` may play ``action`` now."""
    return (
        type(seat) is int
        and 0 <= seat < s.n
        and isinstance(action, Action)
        and check(s, seat, action) == ALLOWED
    )


def verify(s: GameState, seat: object, action: object) -> None:
    """Raise :class:`IllegalActionError` (naming the rule) unless ``action`` is legal for
    ``seat``."""
    if type(seat) is not int or not 0 <= seat < s.n:
        raise IllegalActionError("R3", f"there is no seat {seat!r} at this {s.n}-seat table")
    if not isinstance(action, Action):
        raise IllegalActionError("R2", f"{action!r} is not an action")
    if s.finished:
        raise GameOverError("R20", f"the game is over; no more actions (got {action})")
    why = check(s, seat, action)
    if why != ALLOWED:
        rule, message = reason(s, seat, action, why)
        raise IllegalActionError(rule, message)


# --- applying actions -----------------------------------------------------------------------------


def apply(s: GameState, seat: object, action: object) -> tuple[GameState, tuple[Event, ...]]:
    """Apply a legal action: the new state and the events it produced; ``s`` is unchanged.

    An illegal action raises :class:`IllegalActionError` (its ``rule`` names the rule).
    """
    cache = s._legal
    if (
        cache is None
        or cache[-1] is None
        or type(seat) is not int
        or not isinstance(action, Action)
        or (seat, action) not in cache[-1]
    ):  # not one of the listed pairs (or not listed yet): the full check
        if isinstance(action, str):
            action = parse_action(action)
        verify(s, seat, action)
    played = cast(Action, action)  # listed or verified: a seat number and an action
    by = cast(int, seat)
    new = s.copy()
    events: list[Event] = [_action_taken(by, played)]
    do(new, by, played, events)
    new._log_tail = (s._log_tail, (by, played))
    return new, tuple(events)


step = apply

#: Interned ``ActionTaken`` events (events are values), per seat by action code.
_ACTIONS_TAKEN: Final[tuple[list[ActionTaken | None], ...]] = tuple(
    [None] * NUM_ACTION_CODES for _ in range(MAX_SEATS)
)


def _action_taken(seat: int, action: Action) -> ActionTaken:
    row = _ACTIONS_TAKEN[seat]
    event = row[action.code]
    if event is None:
        event = row[action.code] = ActionTaken(seat, action)
    return event
