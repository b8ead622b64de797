# Compiled with mypyc at install (.build/backend.py): after an edit its group runs as Python
# until the next install (durak_core/compiled_sources.py).
"""The unchecked fast path, for search and playouts only.

These functions skip validation, build no events and do not extend the state's log: applying
an illegal action corrupts the state silently. They mutate the state in place, so work on a
:meth:`GameState.copy`. Legality is the same as the public API's (the same listing).

>>> from durak_core import RuleSet, new_game
>>> g = new_game(RuleSet(), 2, seed=3).copy()
>>> seat, action = legal_moves(g)[0]
>>> apply_unchecked(g, seat, action); g.version
1
"""

from __future__ import annotations

from .actions import Action
from .board import Board, Move
from .listing import ACTIONS, list_legal
from .stepping import do


def legal_moves(s: Board) -> list[Move]:
    """Every legal (seat, action) now, as a fresh list (the pairs themselves are interned)."""
    return list_legal(s)


def legal_actions(s: Board, seat: int) -> list[Action]:
    """The seat's legal actions, as a fresh list."""
    return list_legal(s, 1 << seat, ACTIONS)


def apply_unchecked(s: Board, seat: int, action: Action) -> None:
    """Apply ``action`` in place without checking it: no events, no log."""
    do(s, seat, action, None)
