"""The unchecked fast path, for search and playouts only.

These functions skip validation, build no events and do not extend the state's log: applying
an illegal action corrupts the state silently. They mutate the state in place, so work on a
:meth:`GameState.copy`. Legality is the same as the public API's (same generator).

>>> from durak_core import RuleSet, new_game
>>> g = new_game(RuleSet(), 2, seed=3).copy()
>>> seat, action = legal_moves(g)[0]
>>> apply_unchecked(g, seat, action); g.version
1
"""

from __future__ import annotations

from .actions import Action
from .engine import _do, _emit, _generate
from .state import GameState, Move


def legal_moves(s: GameState) -> list[Move]:
    """Every legal (seat, action) now, as a fresh list (the pairs themselves are interned)."""
    return _emit(s)


def legal_actions(s: GameState, seat: int) -> list[Action]:
    """The seat's legal actions, as a fresh list."""
    return _generate(s, seat)


def apply_unchecked(s: GameState, seat: int, action: Action) -> None:
    """Apply ``action`` in place without checking it: no events, no log."""
    _do(s, seat, action, None)
