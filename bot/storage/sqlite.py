"""SQLite implementation of :class:`bot.storage.interface.Storage` on aiosqlite.

The schema and the queries are the shared ones (``migrations.py``, ``queries.py``); this
module holds how SQLite runs them.

Two connections per storage object:

- Reads (leaderboards, stats, settings, loading tables) run on an aiosqlite connection, in its
  thread, since a read may scan; an ``asyncio.Lock`` serialises its transactions (aiosqlite
  shares one connection between tasks, so interleaved transactions would mix). It also
  migrates at open, and checkpoints (copies the WAL into the database file and syncs it) in its
  thread at most every ``CHECKPOINT_SECONDS`` after writes.
- Writes (a table's save after every action of every table, a game's record, a setting) run
  on a plain ``sqlite3`` connection on the event loop itself, each from ``BEGIN`` to
  ``COMMIT`` without suspending (``run_now``). Such a write is short (WAL, no fsync); a trip
  to aiosqlite's thread and back per statement cost far more under load, and a write
  transaction held the file's lock for all its trips (figures in docs/performance.md,
  "storage" and "What keeps it cheap"). That connection never waits on a lock (``busy_timeout``
  0): a lock held by another process is retried asynchronously, with backoff, and a lasting
  one becomes ``StorageBusy``. It never checkpoints.
"""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
import time
from collections.abc import Awaitable, Callable, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import TypeVar

import aiosqlite

from .busy import is_busy
from .connection import Connection, SqliteConnection, SqliteNowConnection, run_now
from .dialect import ts
from .errors import StaleTableVersion
from .migrations import migrate
from .models import SavedTable
from .queries import SqlStorage, refused_saves, save_tables_sql, stored_versions_sql
from .retry import Retry
from .rows import table_values
from .sharding import ShardScope

T = TypeVar("T")

DEFAULT_DATABASE_PATH = Path("data") / "durak.sqlite3"


class SqliteStorage(SqlStorage):
    """Durak results, ratings and saved tables in one SQLite file (WAL mode)."""

    def __init__(
        self,
        conn: aiosqlite.Connection,
        writer: sqlite3.Connection,
        path: Path,
        retry_seconds: float,
        shards: ShardScope | None = None,
    ) -> None:
        # Use ``await SqliteStorage.open(path)``; this only wires open connections.
        self._conn = conn
        self._db = SqliteConnection(conn)
        self._writer = writer
        self._now = SqliteNowConnection(writer)
        self._checkpointed = time.monotonic()
        self._checkpoint: asyncio.Task[None] | None = None
        self.path = path
        self._retry_seconds = retry_seconds
        self._lock = asyncio.Lock()
        # save_table's group commit: saves waiting for the next transaction, and its task.
        self._save_queue: list[tuple[SavedTable, asyncio.Future[None]]] = []
        self._saver: asyncio.Task[None] | None = None
        #: With a scope, ``load_tables`` returns only the tables of this process's guilds.
        self.shards = shards

    @classmethod
    async def open(
        cls,
        path: str | Path = DEFAULT_DATABASE_PATH,
        *,
        busy_timeout_ms: int = 5000,
        retry_seconds: float = 30.0,
        shards: ShardScope | None = None,
    ) -> SqliteStorage:
        """Open (creating the file and its directory if missing) and migrate to latest."""
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        conn = await aiosqlite.connect(path, isolation_level=None)
        try:
            conn.row_factory = sqlite3.Row
            await conn.execute(f"PRAGMA busy_timeout = {int(busy_timeout_ms)}")
            await conn.execute("PRAGMA foreign_keys = ON")
            # WAL lets readers run beside the writer; NORMAL sync keeps commits atomic
            # and crash-safe, risking only the last commits on power loss.
            await _RETRY.run(lambda: conn.execute("PRAGMA journal_mode = WAL"), retry_seconds)
            await conn.execute("PRAGMA synchronous = NORMAL")
            await _RETRY.run(lambda: migrate(SqliteConnection(conn)), retry_seconds)
            writer = sqlite3.connect(path, isolation_level=None)
            writer.row_factory = sqlite3.Row
        except BaseException:
            await conn.close()
            raise
        for pragma in ("busy_timeout = 0", "synchronous = NORMAL", "wal_autocheckpoint = 0"):
            writer.execute(f"PRAGMA {pragma}")
        return cls(conn, writer, path, retry_seconds, shards)

    async def close(self) -> None:
        if self._saver is not None:
            await asyncio.wait({self._saver})  # saves already asked for still land
        await self._checkpoint_done()
        async with self._lock:
            self._writer.close()
            await self._conn.close()

    # -- transactions -------------------------------------------------------------

    async def _transaction(self, body: Callable[[Connection], Awaitable[T]], *, write: bool) -> T:
        """Run ``body`` in one transaction, retried as a whole while the file is locked.
        Writes (a few rows each: a game's record, a setting) run at once on the event loop's
        connection, as table saves do; reads, which may scan, in aiosqlite's thread."""
        if write:
            return await _RETRY.run(lambda: self._write_now(body), self._retry_seconds)

        async def attempt() -> T:
            async with self._db.transaction(write=write):
                return await body(self._db)

        async with self._lock:
            return await _RETRY.run(attempt, self._retry_seconds)

    async def _write_now(self, body: Callable[[Connection], Awaitable[T]]) -> T:
        """One write transaction on the loop's connection, from ``BEGIN IMMEDIATE`` to
        ``COMMIT`` without suspending. Through aiosqlite's thread each statement waited for a
        turn of the busy loop while the transaction held the write lock: a wave of games
        ending at once made table saves wait seconds behind their records."""

        async def transaction() -> T:
            async with self._now.transaction(write=True):
                return await body(self._now)

        result = run_now(transaction())
        self._after_write()
        return result

    # -- saved tables -------------------------------------------------------------

    def save_table_at_once(self, t: SavedTable) -> bool:
        """Written at once when nothing else is writing: no suspension, so the save a click
        waits for costs no extra turns of a busy event loop (and no task)."""
        if self._save_queue or not (self._saver is None or self._saver.done()):
            return False
        try:
            stale = _upsert_tables(self._writer, [t])
        except sqlite3.OperationalError as exc:
            if not is_busy(exc):
                raise
            return False  # locked by another connection: queued and retried with backoff
        self._after_write()
        if t.table_id in stale:
            raise StaleTableVersion(t.table_id, t.version, stale[t.table_id])
        return True

    async def save_table(self, t: SavedTable) -> None:
        """Written at once when it can be (``save_table_at_once``); otherwise group commit:
        saves that arrive while a batch is being written (or retried because another
        connection holds the lock) wait for the next batch, which writes them all. Returns once
        ``t`` is committed; raises what its write raised."""
        if self.save_table_at_once(t):
            return
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._save_queue.append((t, done))
        if self._saver is None or self._saver.done():
            self._saver = asyncio.create_task(self._save_batches(), name="sqlite-save-tables")
        await done

    async def _save_batches(self) -> None:
        while self._save_queue:
            batch, self._save_queue = self._save_queue, []
            # In arrival order, as if written one by one: a save older than one before it in
            # the batch is refused (lost-update guard); of the others only the newest version
            # of each table is written, the older ones count as written and then overwritten.
            newest: dict[str, SavedTable] = {}
            refused: dict[int, int] = {}
            for i, (t, _) in enumerate(batch):
                prev = newest.get(t.table_id)
                if prev is not None and t.version < prev.version:
                    refused[i] = prev.version
                else:
                    newest[t.table_id] = t
            tables = list(newest.values())
            try:
                stale = await self._upsert(tables)
            except asyncio.CancelledError:
                for _, fut in batch + self._save_queue:
                    fut.cancel()
                raise
            except Exception as exc:
                for _, fut in batch:
                    if not fut.done():
                        fut.set_exception(exc)
                continue
            for i, (t, fut) in enumerate(batch):
                stored = refused.get(i, stale.get(t.table_id))
                if fut.done():
                    continue
                if stored is not None:
                    fut.set_exception(StaleTableVersion(t.table_id, t.version, stored))
                else:
                    fut.set_result(None)

    async def _upsert(self, tables: list[SavedTable]) -> dict[str, int]:
        """The batch in multi-row statements (of up to ``UPSERT_ROWS`` tables), in autocommit,
        on the event loop's own connection: each row is written whole (engine state and
        metadata together). Retried as a whole while the file is locked: the version guard
        makes a second write of the same version harmless."""

        async def write() -> dict[str, int]:
            return _upsert_tables(self._writer, tables)

        stale = await _RETRY.run(write, self._retry_seconds)
        self._after_write()
        return stale

    def _after_write(self) -> None:
        """Start a checkpoint if the last one is ``CHECKPOINT_SECONDS`` old."""
        if time.monotonic() - self._checkpointed >= CHECKPOINT_SECONDS and (
            self._checkpoint is None or self._checkpoint.done()
        ):
            self._checkpointed = time.monotonic()
            self._checkpoint = asyncio.create_task(self._checkpoint_wal(), name="sqlite-checkpoint")

    async def _checkpoint_done(self) -> None:
        """Wait for the checkpoint in flight, if any (tests)."""
        if self._checkpoint is not None:
            await asyncio.wait({self._checkpoint})

    async def _checkpoint_wal(self) -> None:
        """Copy the WAL into the database file, in aiosqlite's thread (PASSIVE: never waits
        for readers or writers; what it cannot copy now, a later checkpoint will). Not under
        the storage lock: saves go on meanwhile on the other connection, and inside another
        task's transaction on this connection SQLite just refuses it (next time, then)."""
        with contextlib.suppress(sqlite3.Error):  # a lock or a full disk: next time
            await self._conn.execute("PRAGMA wal_checkpoint(PASSIVE)")


#: A lock held by another connection: waited for in ``busy_timeout``, then retried.
_RETRY = Retry(
    is_busy, first_wait=0.002, max_wait=0.1, busy="database stayed locked for {budget:g}s"
)
#: Rows per upsert statement (11 parameters each; SQLite allows 32,766 since 3.32).
UPSERT_ROWS = 500
#: At most this often, after table saves, the WAL is copied into the database file.
CHECKPOINT_SECONDS = 2.0


def _upsert_tables(conn: sqlite3.Connection, tables: Sequence[SavedTable]) -> dict[str, int]:
    """Write ``tables`` (distinct ids) on the event loop (see the module's docstring); returns
    the ids refused by the lost-update guard (a newer version is stored) with the stored
    version. Multi-row statements: each is written whole, in autocommit."""
    now = ts(datetime.now(UTC))
    written = 0
    for k in range(0, len(tables), UPSERT_ROWS):
        chunk = tables[k : k + UPSERT_ROWS]
        values = [v for t in chunk for v in table_values(t, now)]
        written += conn.execute(save_tables_sql(len(chunk)), values).rowcount
    if written == len(tables):
        return {}
    found = conn.execute(stored_versions_sql(len(tables)), [t.table_id for t in tables])
    return refused_saves(tables, found.fetchall())
