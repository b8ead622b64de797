"""One connection interface over aiosqlite and asyncpg, so the schema and queries run on both.

A :class:`Connection` takes queries with ``?`` placeholders (rewritten for the driver by the
dialect), returns rows indexed by column name (``sqlite3.Row`` or ``asyncpg.Record``) and
row counts, opens transactions, and knows which of its driver's errors are worth retrying.
"""

from __future__ import annotations

import contextlib
import sqlite3
from collections.abc import AsyncIterator, Awaitable, Callable, Coroutine, Iterable, Sequence
from typing import Any, Protocol, TypeVar

import aiosqlite
import asyncpg

from .busy import is_busy
from .dialect import POSTGRES, SQLITE, Dialect

Row = Any  # sqlite3.Row or asyncpg.Record: both are indexed by column name
T = TypeVar("T")


class Connection(Protocol):
    dialect: Dialect

    async def execute(self, sql: str, *args: object) -> int:
        """Run one statement; the number of rows it changed."""
        ...

    async def executemany(self, sql: str, rows: Iterable[Sequence[object]]) -> None: ...

    async def fetch(self, sql: str, *args: object) -> list[Row]: ...

    async def fetchrow(self, sql: str, *args: object) -> Row | None: ...

    def transaction(self, *, write: bool) -> contextlib.AbstractAsyncContextManager[None]:
        """Commit on success, roll back on any exception."""
        ...

    def exclusive(self) -> contextlib.AbstractAsyncContextManager[None]:
        """Keep other processes from migrating at the same time (see ``migrations.py``)."""
        ...

    def transient(self, exc: BaseException) -> bool:
        """Whether running the whole transaction again may succeed (locks, lost connections)."""
        ...


class RunTransaction(Protocol):
    """How a storage runs ``body`` in one transaction (retried whole while the database is
    contended): ``Storage.transaction``, which the queries of a feature kept outside
    ``bot.storage`` (the tournaments') are built on."""

    def __call__(
        self, body: Callable[[Connection], Awaitable[T]], *, write: bool
    ) -> Awaitable[T]: ...


async def fetch_rows(run: RunTransaction, sql: str, *args: object) -> list[Row]:
    """The rows of one read query, in a transaction of its own."""

    async def body(conn: Connection) -> list[Row]:
        return await conn.fetch(sql, *args)

    return await run(body, write=False)


class SqliteConnection:
    """An aiosqlite connection in autocommit mode (``isolation_level=None``)."""

    dialect = SQLITE

    def __init__(self, conn: aiosqlite.Connection) -> None:
        self.raw = conn

    async def execute(self, sql: str, *args: object) -> int:
        cur = await self.raw.execute(sql, args)
        return cur.rowcount

    async def executemany(self, sql: str, rows: Iterable[Sequence[object]]) -> None:
        await self.raw.executemany(sql, rows)

    async def fetch(self, sql: str, *args: object) -> list[Row]:
        cur = await self.raw.execute(sql, args)
        return list(await cur.fetchall())

    async def fetchrow(self, sql: str, *args: object) -> Row | None:
        cur = await self.raw.execute(sql, args)
        return await cur.fetchone()

    @contextlib.asynccontextmanager
    async def transaction(self, *, write: bool) -> AsyncIterator[None]:
        # BEGIN IMMEDIATE takes the file's write lock up front: a read-then-write never
        # deadlocks with another writer.
        try:
            # Inside the try: a task cancelled while it waits for BEGIN has still queued it in
            # aiosqlite's thread, which runs it; without the ROLLBACK below the connection stayed
            # in that transaction for good, and every later read failed with "cannot start a
            # transaction within a transaction" (issue #30 bug 14: a round that never closed).
            await self.raw.execute("BEGIN IMMEDIATE" if write else "BEGIN")
            yield
            await self.raw.execute("COMMIT")
        except BaseException:
            # SQLite may already have rolled back by itself (e.g. after SQLITE_FULL).
            with contextlib.suppress(sqlite3.Error):
                await self.raw.execute("ROLLBACK")
            raise

    def exclusive(self) -> contextlib.AbstractAsyncContextManager[None]:
        # Each migration re-reads the version under BEGIN IMMEDIATE's lock instead.
        return contextlib.nullcontext()

    def transient(self, exc: BaseException) -> bool:
        return is_busy(exc)


class SqliteNowConnection:
    """A plain ``sqlite3`` connection (autocommit) used on the event loop itself: its methods
    never suspend, so a transaction over it runs from ``BEGIN`` to ``COMMIT`` without letting
    another task in (see :func:`run_now` and ``sqlite.py``)."""

    dialect = SQLITE

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.raw = conn

    async def execute(self, sql: str, *args: object) -> int:
        return self.raw.execute(sql, args).rowcount

    async def executemany(self, sql: str, rows: Iterable[Sequence[object]]) -> None:
        self.raw.executemany(sql, rows)

    async def fetch(self, sql: str, *args: object) -> list[Row]:
        return self.raw.execute(sql, args).fetchall()

    async def fetchrow(self, sql: str, *args: object) -> Row | None:
        row: Row | None = self.raw.execute(sql, args).fetchone()
        return row

    @contextlib.asynccontextmanager
    async def transaction(self, *, write: bool) -> AsyncIterator[None]:
        self.raw.execute("BEGIN IMMEDIATE" if write else "BEGIN")
        try:
            yield
            self.raw.execute("COMMIT")
        except BaseException:
            with contextlib.suppress(sqlite3.Error):  # as SqliteConnection's
                self.raw.execute("ROLLBACK")
            raise

    def exclusive(self) -> contextlib.AbstractAsyncContextManager[None]:
        return contextlib.nullcontext()

    def transient(self, exc: BaseException) -> bool:
        return is_busy(exc)


class Suspended(RuntimeError):
    """A transaction meant to run at once (:func:`run_now`) waited for something."""


def run_now(work: Coroutine[Any, Any, T]) -> T:
    """Run ``work`` to its end here and now; it must not suspend (its awaits all end at a
    :class:`SqliteNowConnection`). If it does, it is closed (its transaction rolls back) and
    :class:`Suspended` is raised: another task could otherwise have written inside it."""
    try:
        work.send(None)
    except StopIteration as done:
        result: T = done.value
        return result
    work.close()
    raise Suspended("a transaction on the event loop's connection suspended")


# asyncpg failures after which re-running the whole transaction is right.
_PG_TRANSIENT: tuple[type[BaseException], ...] = (
    asyncpg.exceptions.SerializationError,
    asyncpg.exceptions.DeadlockDetectedError,
    asyncpg.exceptions.ConnectionDoesNotExistError,
    asyncpg.exceptions.CannotConnectNowError,
    asyncpg.exceptions.TooManyConnectionsError,
    asyncpg.exceptions.PostgresConnectionError,
    ConnectionError,
    OSError,
)
# pg_advisory_lock key shared by every process migrating this database ("durak" + 1).
ADVISORY_LOCK_KEY = 0x6475_7261_6B01


class PgConnection:
    """An asyncpg connection (asyncpg ships no types: its edges are typed here)."""

    dialect = POSTGRES

    def __init__(self, conn: Any) -> None:
        self.raw = conn

    async def execute(self, sql: str, *args: object) -> int:
        status: str = await self.raw.execute(POSTGRES.sql(sql), *args)
        count = status.rsplit(" ", 1)[-1]  # "INSERT 0 1", "UPDATE 2", "DELETE 0"
        return int(count) if count.isdigit() else 0

    async def executemany(self, sql: str, rows: Iterable[Sequence[object]]) -> None:
        await self.raw.executemany(POSTGRES.sql(sql), rows)

    async def fetch(self, sql: str, *args: object) -> list[Row]:
        return list(await self.raw.fetch(POSTGRES.sql(sql), *args))

    async def fetchrow(self, sql: str, *args: object) -> Row | None:
        return await self.raw.fetchrow(POSTGRES.sql(sql), *args)

    @contextlib.asynccontextmanager
    async def transaction(self, *, write: bool) -> AsyncIterator[None]:
        # Reads see one snapshot (a count and its page agree); writes use row locks.
        tx = (
            self.raw.transaction()
            if write
            else self.raw.transaction(isolation="repeatable_read", readonly=True)
        )
        async with tx:
            yield

    @contextlib.asynccontextmanager
    async def exclusive(self) -> AsyncIterator[None]:
        # A session advisory lock, held across the bootstrap too: two first starts racing on
        # CREATE TABLE IF NOT EXISTS can otherwise both fail on PostgreSQL's catalog.
        await self.raw.execute("SELECT pg_advisory_lock($1)", ADVISORY_LOCK_KEY)
        try:
            yield
        finally:
            await self.raw.execute("SELECT pg_advisory_unlock($1)", ADVISORY_LOCK_KEY)

    def transient(self, exc: BaseException) -> bool:
        return pg_transient(exc)


def pg_transient(exc: BaseException) -> bool:
    return isinstance(exc, _PG_TRANSIENT)
