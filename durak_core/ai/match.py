"""Play one game between AI players (pure: the clock is injected). Used by the arena, the
benchmarks and the tests.

Seats act in the order of :func:`~durak_core.ai.schedule.next_actor`; every player gets only
its seat's view and the events that seat observed (R25).

>>> from durak_core import RuleSet
>>> from durak_core.ai import make_player
>>> rec = play_game(RuleSet(), [make_player("easy", 1), make_player("random", 2)], seed=9)
>>> rec.result.durak in (0, 1, None)
True
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from ..events import Event, visible_to
from ..result import GameResult
from ..rules import RuleSet
from ..state import new_game
from .base import Clock, Player
from .schedule import next_actor


@dataclass(slots=True)
class GameRecord:
    """The result, the number of actions, and each seat's decision times (seconds; empty
    without a clock)."""

    result: GameResult
    actions: int
    latencies: list[list[float]] = field(default_factory=list)


def play_game(
    rules: RuleSet,
    players: Sequence[Player],
    *,
    seed: int,
    clock: Clock | None = None,
    max_actions: int = 5000,
) -> GameRecord:
    n = len(players)
    state = new_game(rules, n, seed=seed)
    histories: list[list[Event]] = [[] for _ in range(n)]
    latencies: list[list[float]] = [[] for _ in range(n)]
    actions = 0
    while not state.finished:
        seat = next_actor(state)
        assert seat is not None
        view = state.view(seat)
        t0 = clock() if clock else 0.0
        action = players[seat].choose(view, tuple(histories[seat]))
        if clock:
            latencies[seat].append(clock() - t0)
        state, events = state.apply(seat, action)  # checked: an illegal AI action raises
        for t in range(n):
            histories[t].extend(visible_to(events, t))
        actions += 1
        if actions > max_actions:
            raise RuntimeError(f"game with seed {seed} did not end in {max_actions} actions")
    result = state.result
    assert result is not None
    return GameRecord(result, actions, latencies)
