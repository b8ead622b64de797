"""Schema migrations: from an empty file, from every earlier version, re-run as no-op."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Callable
from pathlib import Path

import aiosqlite
import pytest

from bot.storage import GameRecord, MigrationError, SavedTable, SqliteStorage, TableStatus
from bot.storage import migrations as mig
from bot.storage.connection import SqliteConnection

MakeGame = Callable[..., GameRecord]


def _schema(path: Path) -> list[tuple[str, str]]:
    with sqlite3.connect(path) as conn:
        return conn.execute(
            "SELECT name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' ORDER BY name"
        ).fetchall()


def _versions(path: Path) -> list[int]:
    with sqlite3.connect(path) as conn:
        return [r[0] for r in conn.execute("SELECT version FROM schema_migrations ORDER BY 1")]


async def _build_at(path: Path, version: int) -> None:
    """Create a database as a release at ``version`` would have left it, with data."""
    path.parent.mkdir(parents=True, exist_ok=True)
    async with aiosqlite.connect(path, isolation_level=None) as conn:
        assert await mig.migrate(SqliteConnection(conn), target=version) == version
        if version >= 1:
            await conn.execute(
                "INSERT INTO guild_stats (guild_id, player_key, kind, user_id, display_name,"
                " games, wins, current_streak, best_streak) VALUES (1, 'user:1', 'human', 1,"
                " 'old', 4, 3, 2, 3)"
            )
            await conn.execute(
                "INSERT INTO global_stats (player_key, kind, user_id, display_name, games,"
                " wins, current_streak, best_streak) VALUES ('user:1', 'human', 1, 'old', 4,"
                " 3, 2, 3)"
            )


async def test_open_creates_directory_and_latest_schema(tmp_path: Path) -> None:
    path = tmp_path / "a" / "b" / "durak.sqlite3"
    async with await SqliteStorage.open(path):
        pass
    assert _versions(path) == list(range(1, mig.LATEST_VERSION + 1))
    names = {name for name, _ in _schema(path)}
    assert {"games", "game_seats", "guild_stats", "global_stats", "saved_tables"} <= names


async def test_connection_pragmas(db_path: Path) -> None:
    async with await SqliteStorage.open(db_path, busy_timeout_ms=1234) as s:
        conn = s._conn
        for pragma, want in [("journal_mode", "wal"), ("foreign_keys", 1), ("busy_timeout", 1234)]:
            cur = await conn.execute(f"PRAGMA {pragma}")
            row = await cur.fetchone()
            assert row is not None and row[0] == want, pragma


async def test_reopening_is_a_noop(db_path: Path) -> None:
    async with await SqliteStorage.open(db_path):
        pass
    before = _schema(db_path)
    for _ in range(2):
        async with await SqliteStorage.open(db_path):
            pass
    assert _schema(db_path) == before
    assert _versions(db_path) == list(range(1, mig.LATEST_VERSION + 1))


@pytest.mark.parametrize("start", range(mig.LATEST_VERSION))
async def test_upgrade_from_every_earlier_version(
    db_path: Path, make_game: MakeGame, start: int
) -> None:
    await _build_at(db_path, start)
    async with await SqliteStorage.open(db_path) as s:
        await s.record_game(make_game([1, 2], [0], 1))
        stats = await s.user_stats(1, 1)
        everywhere = await s.user_stats(1, None)
        await s.save_table(
            SavedTable(table_id="t", guild_id=1, channel_id=2, state_json="{}",
                       status=TableStatus.RUNNING, version=1)
        )  # fmt: skip
        assert [t.table_id for t in await s.load_tables()] == ["t"]
    # Rows written by the older version keep counting.
    old_games = 4 if start >= 1 else 0
    assert (stats.games, everywhere.games) == (old_games + 1, old_games + 1)
    assert stats.best_streak == (3 if start >= 1 else 1)
    assert stats.rating is not None and stats.mu is not None and stats.mu > 25.0
    assert _versions(db_path) == list(range(1, mig.LATEST_VERSION + 1))
    # Upgrading step by step ends at the same schema as a fresh file.
    fresh = db_path.with_name("fresh.sqlite3")
    async with await SqliteStorage.open(fresh):
        pass
    assert _schema(db_path) == _schema(fresh)


async def test_newer_schema_is_refused(db_path: Path) -> None:
    async with await SqliteStorage.open(db_path):
        pass
    with sqlite3.connect(db_path) as conn:
        conn.execute("INSERT INTO schema_migrations VALUES (99, 'future', 'x')")
    with pytest.raises(MigrationError, match="newer"):
        await SqliteStorage.open(db_path)


async def test_failing_migration_rolls_back_whole_version(
    db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    bad = mig.Migration(
        mig.LATEST_VERSION + 1,
        "broken",
        ("CREATE TABLE half_done (x INTEGER)", "THIS IS NOT SQL"),
    )
    monkeypatch.setattr(mig, "MIGRATIONS", (*mig.MIGRATIONS, bad))
    monkeypatch.setattr(mig, "LATEST_VERSION", bad.version)
    with pytest.raises(MigrationError, match="broken"):
        await SqliteStorage.open(db_path)
    assert "half_done" not in {name for name, _ in _schema(db_path)}
    assert max(_versions(db_path)) == bad.version - 1


async def test_concurrent_first_opens_apply_each_migration_once(db_path: Path) -> None:
    stores = await asyncio.gather(*(SqliteStorage.open(db_path) for _ in range(5)))
    for s in stores:
        await s.close()
    assert _versions(db_path) == list(range(1, mig.LATEST_VERSION + 1))
