"""One background task that calls ``tick`` every few seconds (turn timers, abandoned tables)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

log = logging.getLogger(__name__)


class Ticker:
    def __init__(self, seconds: float, tick: Callable[[], Awaitable[None]] | None = None) -> None:
        self.seconds = seconds
        #: What runs every ``seconds`` (set once the timers exist: they use what starts this).
        self.tick = tick
        self._task: asyncio.Task[None] | None = None

    def ensure(self) -> None:
        """Start the loop unless it runs."""
        if self._task is None or self._task.done():
            self._task = asyncio.create_task(self._loop(), name="durak-ticker")

    async def _loop(self) -> None:
        while True:
            await asyncio.sleep(self.seconds)
            if self.tick is None:
                continue
            try:
                await self.tick()
            except Exception:  # one bad table must not stop every timer
                log.exception("timer tick failed")

    def cancel(self) -> None:
        if self._task is not None:
            self._task.cancel()
