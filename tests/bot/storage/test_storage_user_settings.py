"""Per-user settings (``/durak settings notify:``): stored per user on both backends, and the
v5 migration adds them to a database of the previous release in place, keeping its data."""

from __future__ import annotations

from pathlib import Path

import aiosqlite
import asyncpg

from bot.storage import PostgresStorage, SqliteStorage, Storage
from bot.storage import migrations as mig
from bot.storage.connection import PgConnection, SqliteConnection

PREVIOUS = 4  # the last schema without user_settings


async def test_user_settings_round_trip(storage: Storage) -> None:
    assert await storage.user_settings(7) == {}
    await storage.set_user_setting(7, "notify", "dm")
    await storage.set_user_setting(7, "notify", "off")  # overwrites, no second row
    await storage.set_user_setting(8, "notify", "mention")
    assert await storage.user_settings(7) == {"notify": "off"}
    assert await storage.user_settings(8) == {"notify": "mention"}
    # A user id that is also a guild id shares nothing with that guild's settings.
    await storage.set_guild_setting(7, "images", "off")
    assert await storage.user_settings(7) == {"notify": "off"}
    assert await storage.guild_settings(7) == {"images": "off"}


async def test_sqlite_upgrade_in_place_keeps_guild_settings(db_path: Path) -> None:
    db_path.parent.mkdir(parents=True, exist_ok=True)
    async with aiosqlite.connect(db_path, isolation_level=None) as conn:
        assert await mig.migrate(SqliteConnection(conn), target=PREVIOUS) == PREVIOUS
        await conn.execute("INSERT INTO guild_settings VALUES (1, 'images', 'off')")
    async with await SqliteStorage.open(db_path) as s:
        await s.set_user_setting(2**62, "notify", "dm")  # a snowflake-sized id
        assert await s.user_settings(2**62) == {"notify": "dm"}
        assert await s.guild_settings(1) == {"images": "off"}
    async with aiosqlite.connect(db_path) as conn:
        cur = await conn.execute("SELECT MAX(version) FROM schema_migrations")
        assert await cur.fetchone() == (mig.LATEST_VERSION,)
    assert mig.LATEST_VERSION > PREVIOUS


async def test_postgres_upgrade_in_place_keeps_guild_settings(pg_url: str) -> None:
    conn = await asyncpg.connect(pg_url)
    try:
        assert await mig.migrate(PgConnection(conn), target=PREVIOUS) == PREVIOUS
        await conn.execute("INSERT INTO guild_settings VALUES (1, 'images', 'off')")
    finally:
        await conn.close()
    async with await PostgresStorage.open(pg_url) as s:
        await s.set_user_setting(2**62, "notify", "dm")
        assert await s.user_settings(2**62) == {"notify": "dm"}
        assert await s.guild_settings(1) == {"images": "off"}
    conn = await asyncpg.connect(pg_url)
    try:
        assert await conn.fetchval("SELECT MAX(version) FROM schema_migrations") == (
            mig.LATEST_VERSION
        )
    finally:
        await conn.close()
