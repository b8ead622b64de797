"""PostgreSQL migrations: from empty, re-run is a no-op, concurrent first starts, newer
schema refused, a failing version rolled back. (The history is the one SQLite runs too:
``bot/storage/migrations.py``; tests/bot/storage/test_storage_upgrade.py compares the schema it
makes with the one earlier releases made.)"""

from __future__ import annotations

import asyncio

import asyncpg
import pytest

from bot.storage import MigrationError, PostgresStorage, open_storage
from bot.storage import migrations as mig
from bot.storage.connection import PgConnection

TABLES = {
    "schema_migrations", "games", "game_seats", "guild_stats", "global_stats",
    "series_results", "saved_tables", "guild_settings", "user_settings", "tournaments",
    "tournament_entrants", "tournament_rounds", "tournament_tables", "tournament_games",
    "puzzle_attempts",
}  # fmt: skip


async def _fetch(url: str, sql: str) -> list[asyncpg.Record]:
    conn = await asyncpg.connect(url)
    try:
        return list(await conn.fetch(sql))
    finally:
        await conn.close()


async def test_from_empty_to_latest(pg_url: str) -> None:
    async with await PostgresStorage.open(pg_url):
        pass
    rows = await _fetch(pg_url, "SELECT version FROM schema_migrations ORDER BY version")
    assert [r["version"] for r in rows] == [m.version for m in mig.MIGRATIONS]
    names = await _fetch(
        pg_url, "SELECT table_name FROM information_schema.tables WHERE table_schema = "
        "current_schema()",
    )  # fmt: skip
    assert {r["table_name"] for r in names} == TABLES


async def test_rerun_is_a_noop(pg_url: str) -> None:
    async with await PostgresStorage.open(pg_url):
        pass
    before = await _fetch(pg_url, "SELECT version, applied_at FROM schema_migrations")
    async with await PostgresStorage.open(pg_url):
        pass
    assert await _fetch(pg_url, "SELECT version, applied_at FROM schema_migrations") == before


async def test_concurrent_first_starts_apply_each_version_once(pg_url: str) -> None:
    # Without the advisory lock, racing CREATE TABLE IF NOT EXISTS fails in the catalog.
    stores = await asyncio.gather(*(open_storage(pg_url) for _ in range(6)))
    for s in stores:
        await s.close()
    rows = await _fetch(pg_url, "SELECT version FROM schema_migrations ORDER BY version")
    assert [r["version"] for r in rows] == [m.version for m in mig.MIGRATIONS]


async def test_newer_schema_is_refused(pg_url: str) -> None:
    async with await PostgresStorage.open(pg_url):
        pass
    conn = await asyncpg.connect(pg_url)
    try:
        await conn.execute("INSERT INTO schema_migrations VALUES (99, 'future', now())")
    finally:
        await conn.close()
    with pytest.raises(MigrationError, match="newer"):
        await PostgresStorage.open(pg_url)


async def test_partial_upgrade_then_latest(pg_url: str) -> None:
    conn = await asyncpg.connect(pg_url)
    try:
        assert await mig.migrate(PgConnection(conn), target=1) == 1
        await conn.execute(
            "INSERT INTO guild_stats (guild_id, player_key, kind, user_id, display_name, games)"
            " VALUES (1, 'user:1', 'human', 1, 'p', 3)"
        )
    finally:
        await conn.close()
    async with await PostgresStorage.open(pg_url) as s:
        stats = await s.user_stats(1, 1)
        # Rows from before v2 get the literal openskill prior.
        assert (stats.games, stats.mu, stats.rating) == (3, 25.0, 0.0)


async def test_failing_migration_rolls_back_whole_version(
    pg_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    broken = mig.Migration(2, "broken", ("ALTER TABLE guild_stats ADD COLUMN x INT", "nope"))
    monkeypatch.setattr(mig, "MIGRATIONS", (mig.MIGRATIONS[0], broken))
    monkeypatch.setattr(mig, "LATEST_VERSION", 2)
    with pytest.raises(MigrationError, match="v2"):
        await PostgresStorage.open(pg_url)
    cols = await _fetch(
        pg_url, "SELECT column_name FROM information_schema.columns"
        " WHERE table_name = 'guild_stats' AND table_schema = current_schema()",
    )  # fmt: skip
    assert "x" not in {r["column_name"] for r in cols}
    rows = await _fetch(pg_url, "SELECT version FROM schema_migrations")
    assert [r["version"] for r in rows] == [1]
