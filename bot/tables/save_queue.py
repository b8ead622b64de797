"""Durable saving (docs/robustness.md): a change is saved before the caller acknowledges it; if
the database is locked, slow or full, the game goes on in memory and one background task writes
the latest state of every unsaved table (and records finished games, idempotently) as soon as
the database answers again."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable, Coroutine
from typing import Any

from tenacity import AsyncRetrying, retry_if_result, wait_exponential

from bot.storage import SavedTable, Storage

from .persistence import to_saved
from .table import Table

log = logging.getLogger(__name__)

RETRY_MIN_SECONDS, RETRY_MAX_SECONDS = 0.2, 5.0
#: In the warning for a save that outlasts its wait (benchmarks/bot_load.py counts them).
SLOW_SAVE = "database locked or slow"

Write = Callable[[], Coroutine[Any, Any, None]]


class SaveQueue:
    def __init__(self, storage: Storage, wait_seconds: float) -> None:
        self.storage = storage
        #: How long a change waits for its write before the game goes on in memory.
        self.wait_seconds = wait_seconds
        # The write in flight per table, tables whose latest state is not saved yet, finished
        # games not recorded yet, and the task that retries both.
        self._saving: dict[str, asyncio.Task[bool]] = {}
        self._unsaved: dict[str, Table] = {}
        self._unrecorded: list[tuple[str, Write]] = []
        #: game records being written right now (counted by ``pending``)
        self._recording: set[asyncio.Task[None]] = set()
        self._retry_task: asyncio.Task[None] | None = None
        self._outage = False

    async def save(self, table: Table) -> None:
        """Under the lock: write the table now and wait for it (briefly), so a caller that
        acknowledges afterwards acknowledges a saved change. If the database fails or is
        slow, the game goes on in memory and the background saver writes the latest state."""
        tid = table.table_id
        in_flight = self._saving.get(tid)
        if in_flight is not None and not in_flight.done():
            self._mark_unsaved(table)  # written after the write in flight, newest state
            return
        self._unsaved.pop(tid, None)
        saved = to_saved(table)
        try:
            if self.storage.save_table_at_once(saved):
                return  # written without suspending: no task, no timer
        except Exception as exc:  # as in _write
            self._report_outage(f"table {tid}", exc)
            self._mark_unsaved(table)
            return
        task = asyncio.create_task(self._write(table, saved), name=f"durak-save-{tid}")
        self._saving[tid] = task
        done, _ = await asyncio.wait({task}, timeout=self.wait_seconds)
        if not done:
            log.warning(
                "saving table %s takes over %.1fs (%s): the game goes on in memory and is saved "
                "when the database answers",
                tid,
                self.wait_seconds,
                SLOW_SAVE,
            )
            self._mark_unsaved(table)

    async def _write(self, table: Table, saved: SavedTable) -> bool:
        try:
            await self.storage.save_table(saved)
        except Exception as exc:  # StorageBusy, disk full (sqlite3 errors), connection loss
            self._report_outage(f"table {table.table_id}", exc)
            self._mark_unsaved(table)
            return False
        finally:
            if self._saving.get(table.table_id) is asyncio.current_task():
                del self._saving[table.table_id]
        return True

    def _mark_unsaved(self, table: Table) -> None:
        self._unsaved[table.table_id] = table
        self._start_retry()

    async def durable(self, what: str, write: Write) -> None:
        """Run a write that must happen once (recording a finished game); on failure or a slow
        database, keep it queued and retry it in the background until it succeeds."""
        task = asyncio.create_task(write(), name=f"durak-record-{what}")
        self._recording.add(task)
        task.add_done_callback(self._recording.discard)
        done, _ = await asyncio.wait({task}, timeout=self.wait_seconds)
        if done and task.exception() is None:
            return
        if done:
            self._report_outage(what, task.exception())
        else:  # still running: let it finish, then retry (idempotent) to be sure
            task.add_done_callback(lambda t: t.cancelled() or t.exception())
        self._unrecorded.append((what, write))
        self._start_retry()

    def _report_outage(self, what: str, exc: BaseException | None) -> None:
        if not self._outage:
            log.error(
                "database unavailable (%s: %s) while saving %s: games go on in memory; "
                "retrying in the background",
                type(exc).__name__,
                exc,
                what,
            )
        self._outage = True

    def _start_retry(self) -> None:
        if self._retry_task is None or self._retry_task.done():
            self._retry_task = asyncio.create_task(self._retry_loop(), name="durak-save-retry")

    async def _retry_loop(self) -> None:
        """Flush until nothing is left: again after each failure, waiting twice as long each
        time (up to ``RETRY_MAX_SECONDS``); what came meanwhile goes after a short wait."""
        retrying = AsyncRetrying(
            retry=retry_if_result(lambda flushed: not flushed),
            wait=wait_exponential(multiplier=RETRY_MIN_SECONDS, max=RETRY_MAX_SECONDS),
        )
        while self._unsaved or self._unrecorded:
            await asyncio.sleep(RETRY_MIN_SECONDS)
            await retrying(self.flush)

    async def flush(self) -> bool:
        """Try to write everything not yet saved or recorded; True if nothing is left."""
        while self._unrecorded:
            what, write = self._unrecorded[0]
            try:
                await write()
            except Exception as exc:
                self._report_outage(what, exc)
                return False
            self._unrecorded.pop(0)
        for tid, table in list(self._unsaved.items()):
            in_flight = self._saving.get(tid)
            if in_flight is not None and not in_flight.done():
                await asyncio.wait({in_flight})
            async with table.lock:
                if self._unsaved.get(tid) is not table:
                    continue
                del self._unsaved[tid]
                saved = to_saved(table)
            task = asyncio.create_task(self._write(table, saved), name=f"durak-save-{tid}")
            self._saving[tid] = task
            if not await task:
                return False
        if self._outage and not self._unsaved and not self._unrecorded:
            log.warning("database available again: every table and game is saved")
            self._outage = False
        return not self._unsaved and not self._unrecorded

    @property
    def pending(self) -> int:
        """Tables and games waiting to be written (0 when everything is saved)."""
        in_flight = sum(1 for t in self._saving.values() if not t.done())
        return len(self._unsaved) + len(self._unrecorded) + in_flight + len(self._recording)

    async def close(self) -> None:
        """Stop retrying; one last flush before the process ends."""
        if self._retry_task is not None:
            self._retry_task.cancel()
        if self._unsaved or self._unrecorded:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self.flush(), self.wait_seconds * 3)
