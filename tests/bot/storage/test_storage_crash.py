"""A failure (both backends) or a hard crash (SQLite) inside record_game leaves no
half-recorded game."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
import textwrap
from collections.abc import Callable
from pathlib import Path

import pytest

from bot.storage import GameRecord, PostgresStorage, SqliteStorage, Storage
from tests.bot.storage.storage_helpers import count_rows

MakeGame = Callable[..., GameRecord]
ROOT = Path(__file__).resolve().parents[3]


def _counts(path: Path) -> dict[str, int]:
    with sqlite3.connect(path) as conn:
        return {
            t: int(conn.execute(f"SELECT COUNT(*) FROM {t}").fetchone()[0])
            for t in ("games", "game_seats", "guild_stats", "global_stats")
        }


_PG_TRIGGER = (
    "CREATE FUNCTION fail_user3() RETURNS trigger LANGUAGE plpgsql AS"
    " $$ BEGIN RAISE EXCEPTION 'injected failure'; END $$",
    "CREATE TRIGGER fail_user3 BEFORE INSERT ON guild_stats FOR EACH ROW"
    " WHEN (NEW.user_id = 3) EXECUTE FUNCTION fail_user3()",
)


async def _sql(storage: Storage, *statements: str) -> None:
    """Run DDL beside the storage, on its own database."""
    if isinstance(storage, SqliteStorage):
        with sqlite3.connect(storage.path) as conn:
            for stmt in statements:
                conn.execute(stmt)
        return
    import asyncpg

    assert isinstance(storage, PostgresStorage)
    conn = await asyncpg.connect(storage.url)
    try:
        for stmt in statements:
            await conn.execute(stmt)
    finally:
        await conn.close()


async def _all_counts(storage: Storage) -> dict[str, int]:
    tables = ("games", "game_seats", "guild_stats", "global_stats")
    return {t: await count_rows(storage, t) for t in tables}


async def test_failure_mid_transaction_rolls_everything_back(
    storage: Storage, make_game: MakeGame
) -> None:
    await storage.record_game(make_game([1, 2], [0], 1))
    before_counts = await _all_counts(storage)
    before_stats = await storage.user_stats(1, 1)
    before_global = await storage.user_stats(1, None)
    # Fail on the aggregate of user 3, after the game row was inserted and (SQLite) user
    # 1's aggregate was updated in the same transaction.
    if isinstance(storage, SqliteStorage):
        await _sql(
            storage,
            "CREATE TRIGGER fail_user3 BEFORE INSERT ON guild_stats WHEN NEW.user_id = 3"
            " BEGIN SELECT RAISE(ABORT, 'injected failure'); END",
        )
    else:
        await _sql(storage, *_PG_TRIGGER)
    bad = make_game([1, 3], [0], 1)
    with pytest.raises(Exception, match="injected"):
        await storage.record_game(bad)
    assert await _all_counts(storage) == before_counts
    assert await storage.user_stats(1, 1) == before_stats
    assert await storage.user_stats(1, None) == before_global
    # The storage is still usable, and the same game can be recorded once fixed.
    await _sql(
        storage,
        "DROP TRIGGER fail_user3"
        + ("" if isinstance(storage, SqliteStorage) else " ON guild_stats"),
    )
    await storage.record_game(bad)
    assert (await storage.user_stats(1, 1)).games == before_stats.games + 1


@pytest.mark.slow
async def test_process_killed_mid_record_leaves_no_trace(db_path: Path) -> None:
    script = textwrap.dedent(
        """
        import asyncio, os, sys
        from datetime import UTC, datetime
        from bot.storage import GameRecord, SeatRecord, SqliteStorage
        from bot.storage.connection import SqliteNowConnection

        def game(game_id: str) -> GameRecord:
            now = datetime.now(UTC)
            seats = [SeatRecord(seat=i, kind="human", user_id=i + 1, display_name="p")
                     for i in range(3)]
            return GameRecord(
                game_id=game_id, guild_id=1, channel_id=1, table_id="t", series_id="s",
                game_number=1, rules={}, seats=seats, finishing_order=[0, 1], durak_seat=2,
                losing_seats=[2], started_at=now, ended_at=now, seed_commitment="aa",
                seed="bb", card_order=[], actions=[])

        async def main(path: str) -> None:
            s = await SqliteStorage.open(path)
            await s.record_game(game("survivor"))
            real = SqliteNowConnection.executemany  # the connection writes go through

            async def die_on_global(self, sql, rows):  # type: ignore[no-untyped-def]
                if "global_stats" in sql:
                    os._exit(17)  # the game and guild_stats rows already written
                return await real(self, sql, rows)

            SqliteNowConnection.executemany = die_on_global
            await s.record_game(game("victim"))

        asyncio.run(main(sys.argv[1]))
        """
    )
    proc = subprocess.run([sys.executable, "-c", script, str(db_path)], cwd=ROOT, timeout=60)
    assert proc.returncode == 17
    assert _counts(db_path) == {"games": 1, "game_seats": 3, "guild_stats": 3, "global_stats": 3}
    async with await SqliteStorage.open(db_path) as s:
        assert (await s.user_stats(1, 1)).games == 1
        assert (await s.get_game("survivor")).game_id == "survivor"
