# Compiled with mypyc at install (.build/backend.py): after an edit its group runs as Python
# until the next install (durak_core/compiled_sources.py).
"""The engine's entry points on a state: legal actions, and checking one action.

The engine is split by what each part does:

- :mod:`durak_core.legality`: what a seat may do now and which rule says no — every rule of
  play stated once (R9–R15, R18, V1, V5, V7, V8);
- :mod:`durak_core.listing`: :func:`~durak_core.listing.list_legal`, the one listing of what
  those checks allow;
- :mod:`durak_core.stepping`: applying a legal action in place;
- :mod:`durak_core.after_bout`: the bout's end, the draw, players out, the game's end;
- :mod:`durak_core.precomputed`: the seat order and roles, precomputed per rule set and seat count;
- :mod:`durak_core.state`: dealing a new game (``new_game``) and ``GameState.apply``, which
  checks here, then steps a copy.

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

from typing import Final

from .actions import NUM_ACTION_CODES, Action
from .board import Board, Move
from .errors import GameOverError, IllegalActionError
from .events import ActionTaken
from .legality import ALLOWED, check, reason
from .listing import ACTIONS, list_legal
from .rules import MAX_SEATS

# --- legal actions --------------------------------------------------------------------------------

# The public entry points below take ``object`` for the seat and the action: they check them at run
# time and answer bad input with a typed error (compiled, an ``int`` parameter would raise a bare
# TypeError before the check, and would turn ``True`` into seat 1).


def _cached_actions(s: Board, seat: int) -> list[Action]:
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


def legal_actions(s: Board, seat: object) -> tuple[Action, ...]:
    """The legal actions of ``seat`` now (empty when it has none, or the game is over)."""
    if type(seat) is not int or not 0 <= seat < s.n:
        return ()
    return tuple(_cached_actions(s, seat))


def legal_moves(s: Board) -> tuple[Move, ...]:
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


def can(s: Board, seat: object, action: object) -> bool:
    """Whether ``seat`` may play ``action`` now."""
    return (
        type(seat) is int
        and 0 <= seat < s.n
        and isinstance(action, Action)
        and check(s, seat, action) == ALLOWED
    )


def verify(s: Board, seat: object, action: object) -> None:
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


#: Interned ``ActionTaken`` events (events are values), per seat by action code.
_ACTIONS_TAKEN: Final[tuple[list[ActionTaken | None], ...]] = tuple(
    [None] * NUM_ACTION_CODES for _ in range(MAX_SEATS)
)


def action_taken(seat: int, action: Action) -> ActionTaken:
    """The interned ``ActionTaken`` event of ``seat`` playing ``action``."""
    row = _ACTIONS_TAKEN[seat]
    event = row[action.code]
    if event is None:
        event = row[action.code] = ActionTaken(seat, action)
    return event
