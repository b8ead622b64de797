"""At most one run of a piece of work per interval, however often it is asked for: the pacing
of every message the bot keeps fresh (:mod:`.refresher`)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import time
from collections.abc import Awaitable, Callable

log = logging.getLogger(__name__)


class Coalescer:
    """Runs ``flush`` after ``mark``; marks during a flush cause one more flush, not many.

    Two flushes are never closer than ``interval``. A ``lazy`` mark (a change nobody has to
    act on) waits until ``lazy_interval`` after the last flush, so such changes collapse into
    one edit; an urgent mark meanwhile cuts that wait short.
    """

    def __init__(
        self,
        flush: Callable[[], Awaitable[None]],
        interval: float,
        name: str,
        *,
        lazy_interval: float = 0.0,
    ) -> None:
        self._flush = flush
        self._interval = interval
        self._lazy_interval = max(interval, lazy_interval)
        self._name = name
        self._dirty = False
        self._urgent = False
        self._task: asyncio.Task[None] | None = None
        self._wake: asyncio.Future[None] | None = None
        self._last = -math.inf  # monotonic start of the last flush

    def mark(self, *, lazy: bool = False) -> None:
        self._dirty = True
        if not lazy:
            self._urgent = True
            if self._wake is not None and not self._wake.done():
                self._wake.set_result(None)
        if self._task is None or self._task.done():
            self._task = asyncio.create_task(self._run(), name=self._name)

    async def _run(self) -> None:
        while self._dirty:
            # Never two flushes closer than the interval, also when a mark comes right after an
            # idle spell (Discord allows about 5 edits per 5 s per channel; more answer 429).
            gap = self._interval if self._urgent else self._lazy_interval
            wait = self._last + gap - time.monotonic()
            if wait > 0:
                if self._urgent:
                    await asyncio.sleep(wait)
                else:  # an urgent mark may end this wait early: look again then
                    self._wake = asyncio.get_running_loop().create_future()
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(self._wake, wait)
                    self._wake = None
                    continue
            self._dirty = self._urgent = False
            self._last = time.monotonic()
            try:
                await self._flush()
            except Exception:
                log.exception("refresh %s failed", self._name)

    @property
    def idle(self) -> bool:
        return self._task is None or self._task.done()

    async def close(self) -> None:
        if self._task is not None and not self._task.done():
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
