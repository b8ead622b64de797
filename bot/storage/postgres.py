"""PostgreSQL implementation of :class:`bot.storage.interface.Storage` on asyncpg.

Several processes (bot shards, possibly on several machines) share one database. A connection
pool lets one process run transactions in parallel; correctness under concurrency comes from
the database, not from a process-local lock: row locks taken in a fixed order (see
``queries.py``), the lost-update guard of ``save_table``, and idempotent writes. Deadlocks,
serialisation failures and lost connections are retried as a whole transaction (safe: every
write is idempotent or guarded) up to ``retry_seconds``, then ``StorageBusy``.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from typing import Any, TypeVar

import asyncpg

from .connection import Connection, PgConnection, pg_transient
from .dialect import POSTGRES
from .errors import StaleTableVersion
from .migrations import migrate
from .models import SavedTable
from .queries import SqlStorage, save_tables_sql, stored_versions_sql
from .retry import Retry
from .rows import table_values
from .sharding import ShardScope

T = TypeVar("T")

#: Deadlocks, serialisation failures, lost connections: the whole transaction again.
_RETRY = Retry(
    pg_transient,
    first_wait=0.005,
    max_wait=0.5,
    busy="database unavailable or contended for {budget:g}s: {error}",
)


class PostgresStorage(SqlStorage):
    """Durak results, ratings and saved tables in a PostgreSQL database shared by processes."""

    def __init__(
        self, pool: Any, url: str, retry_seconds: float, shards: ShardScope | None
    ) -> None:
        # Use ``await PostgresStorage.open(url)``; this only wires an open pool.
        self._pool = pool
        self.url = url
        self._retry_seconds = retry_seconds
        self.shards = shards

    @classmethod
    async def open(
        cls,
        url: str,
        *,
        min_size: int = 1,
        max_size: int = 5,
        retry_seconds: float = 30.0,
        shards: ShardScope | None = None,
    ) -> PostgresStorage:
        """Connect (``postgresql://user@host:port/db``) and migrate to latest."""
        pool = await _RETRY.run(
            lambda: asyncpg.create_pool(url, min_size=min_size, max_size=max_size),
            retry_seconds,
        )

        async def migrate_once() -> int:
            async with pool.acquire() as conn:
                return await migrate(PgConnection(conn))

        try:
            await _RETRY.run(migrate_once, retry_seconds)
        except BaseException:
            await pool.close()
            raise
        return cls(pool, url, retry_seconds, shards)

    async def close(self) -> None:
        await self._pool.close()

    async def _transaction(self, body: Callable[[Connection], Awaitable[T]], *, write: bool) -> T:
        async def attempt() -> T:
            async with self._pool.acquire() as raw:
                conn = PgConnection(raw)
                async with conn.transaction(write=write):
                    return await body(conn)

        return await _RETRY.run(attempt, self._retry_seconds)

    async def save_table(self, t: SavedTable) -> None:
        async def body(conn: Connection) -> None:
            # One statement; ON CONFLICT locks the row and re-checks the version against
            # the newest committed one, so racing processes cannot lose an update.
            now = POSTGRES.time(datetime.now(UTC))
            if not await conn.execute(save_tables_sql(1), *table_values(t, now)):
                found = await conn.fetch(stored_versions_sql(1), t.table_id)
                raise StaleTableVersion(t.table_id, t.version, found[0][1] if found else -1)

        await self._transaction(body, write=True)
