"""One task per key runs a piece of work; asking again while it runs makes it run once more
afterwards, never twice at once (a tournament's advance, its public messages)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable

log = logging.getLogger(__name__)


class Coalesced:
    def __init__(self, work: Callable[[str], Awaitable[None]], what: str) -> None:
        self.work = work
        self.what = what
        self._wanted: set[str] = set()
        self._tasks: dict[str, asyncio.Task[None]] = {}

    def want(self, key: str) -> None:
        """Run ``work(key)`` soon (once more, if it runs now). Does not block."""
        self._wanted.add(key)
        task = self._tasks.get(key)
        if task is None or task.done():
            self._tasks[key] = asyncio.create_task(self._run(key), name=f"durak-{self.what}-{key}")

    async def _run(self, key: str) -> None:
        while key in self._wanted:
            self._wanted.discard(key)
            try:
                await self.work(key)
            except Exception:
                log.exception("%s %s failed", self.what, key)

    async def close(self) -> None:
        tasks = list(self._tasks.values())
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(BaseException):
                await task
