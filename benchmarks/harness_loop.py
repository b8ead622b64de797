"""The load benchmark's own event loop (the fake Discord and the simulated players): uvloop's
where it is installed, as the bot runs on, and a probe of how late it wakes a sleeper, so that
a harness too busy to answer the bot shows in the figures instead of in the bot's latencies."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Coroutine
from typing import Any, TypeVar

T = TypeVar("T")


def run_fast(main: Coroutine[Any, Any, T]) -> T:
    """``asyncio.run(main)`` on uvloop's loop (its sockets and callbacks cost a fraction of
    asyncio's), on asyncio's own where uvloop is missing (Windows)."""
    try:
        import uvloop
    except ImportError:
        return asyncio.run(main)
    with asyncio.Runner(loop_factory=uvloop.new_event_loop) as runner:
        return runner.run(main)


def lag_figures(
    name: str, lags: list[float], percentiles: Callable[[str, list[float]], dict[str, float]]
) -> dict[str, float]:
    """``{name}_p50``, ``_p99`` and ``_max`` of a probe's lags, in milliseconds."""
    return {**percentiles(name, lags), f"{name}_max": round(max(lags, default=0.0) * 1000, 1)}


class LoopLag:
    """A task that sleeps ``interval`` seconds over and over and records by how much each
    wake came late: the loop's queueing, which every request to the fake also waits through.
    ``record`` takes each lag (default: kept in ``lags``)."""

    def __init__(
        self, interval: float = 0.010, record: Callable[[float], None] | None = None
    ) -> None:
        self.interval = interval
        self.lags: list[float] = []
        self._record = record if record is not None else self.lags.append
        self._task: asyncio.Task[None] | None = None

    async def _probe(self) -> None:
        while True:
            t0 = time.perf_counter()
            await asyncio.sleep(self.interval)
            self._record(time.perf_counter() - t0 - self.interval)

    def start(self) -> None:
        self.lags.clear()
        self._task = asyncio.create_task(self._probe(), name="loop-lag")

    def stop(self, percentiles: Callable[[str, list[float]], dict[str, float]]) -> dict[str, float]:
        """Stop probing; ``harness_loop_lag_ms_p50``, ``_p99`` and ``_max``."""
        if self._task is not None:
            self._task.cancel()
            self._task = None
        return lag_figures("harness_loop_lag_ms", self.lags, percentiles)
