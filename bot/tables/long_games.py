"""A game that does not end: AI seats that can loop for ever.

With the talon empty and three or more players left, AI seats (Normal's rules of thumb keep
trumps, so a defender takes rather than beats) can pass the same cards round the table bout
after bout, none of them ever going out: the game never ends and, at a tournament table, its
round never closes (issue #30, bug 14: a table at bout 1,904 when the test gave up). Past
:data:`LONG_GAME_BOUTS` an AI seat plays to finish instead: a defender beats whenever it can
(beaten cards leave the game), else any legal move, drawn from a generator seeded by the table
and its version (the same state gets the same move after a restart). A loop of such moves ends
with probability one; no real game comes near the cap (36 cards last some 15 to 40 bouts)."""

from __future__ import annotations

import random

from durak_core import Action, SeatView
from durak_core.actions import DEFEND

#: Bouts after which a game is taken to be looping (a real one ends far sooner).
LONG_GAME_BOUTS = 250


def is_looping(bout: int) -> bool:
    return bout >= LONG_GAME_BOUTS


def finishing_move(view: SeatView, table_id: str, version: int) -> Action:
    """A move that brings a looping game nearer its end (see the module's docstring)."""
    legal = list(view.legal_actions)
    beats = [a for a in legal if a.kind == DEFEND]
    rng = random.Random(f"{table_id}:{version}")
    return rng.choice(beats or legal)
