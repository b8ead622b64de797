"""AI players (see ``docs/ai.md``).

:func:`make_player` is the one entry point the bot uses; every player implements
:class:`Player`: ``choose(view, history) -> Action``, synchronous, safe to run in a worker
thread (``asyncio.to_thread``) — players share no mutable state.

>>> from durak_core import RuleSet, new_game
>>> g = new_game(RuleSet(), 2, seed=3)
>>> p = make_player("normal", seed=1)
>>> p.choose(g.view(g.starter), []) in g.legal_actions(g.starter)
True
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import StrEnum

from .base import Budget, Clock, DeterministicPlayer, Player
from .easy import EasyPlayer
from .normal import NormalPlayer
from .random_player import RandomPlayer


class Level(StrEnum):
    """An AI player's level. A ``StrEnum``: the bot stores it by value ("normal") in saved tables
    and game records, and a level equals its name (``Level.HARD == "hard"``)."""

    RANDOM = "random"
    EASY = "easy"
    NORMAL = "normal"
    HARD = "hard"


LEVELS: tuple[Level, ...] = tuple(Level)


def make_player(
    level: Level, seed: int, budget: Budget | None = None, seats: Sequence[str] = ()
) -> Player:
    """A player of ``level`` with its own random source; ``budget`` (Hard only) defaults to one
    second — pass ``Budget(1.0, clock=time.perf_counter)`` for a real time limit, or
    ``Budget(None, iterations=N)`` for a deterministic one.

    ``seats`` (Hard only): what the table shows for every seat, in seat order — an AI's level
    or anything else for a human (e.g. ``"human"``). It is public: every player at the table
    sees it. Hard plays a seat shown as ``"easy"`` by Easy's published rules, and looks for
    endgame traps against a seat shown as ``"normal"`` (docs/ai.md)."""
    if isinstance(seats, str) or not all(isinstance(x, str) for x in seats):
        raise TypeError("seats must be a sequence of labels, one per seat")
    if level == Level.RANDOM:
        return RandomPlayer(seed)
    if level == Level.EASY:
        return EasyPlayer(seed)
    if level == Level.NORMAL:
        return NormalPlayer(seed)
    if level == Level.HARD:
        from .hard import HardPlayer

        return HardPlayer(seed, budget or Budget(), seats)
    raise ValueError(f"unknown AI level {level!r}; known: {', '.join(LEVELS)}")


__all__ = ["LEVELS", "Budget", "Clock", "DeterministicPlayer", "Level", "Player", "make_player"]
