"""Concurrent writers on one storage object, several objects and several processes (both
backends), plus SQLite's lasting-lock behaviour."""

from __future__ import annotations

import asyncio
import random
import sqlite3
import subprocess
import sys
import textwrap
from collections.abc import Callable
from pathlib import Path

import pytest

from bot.storage import (
    GameRecord,
    SavedTable,
    SqliteStorage,
    StaleTableVersion,
    Storage,
    StorageBusy,
    TableStatus,
    open_storage,
)

MakeGame = Callable[..., GameRecord]
ROOT = Path(__file__).resolve().parents[3]


def _table(table_id: str, version: int) -> SavedTable:
    return SavedTable(
        table_id=table_id, guild_id=1, channel_id=2, state_json=f'{{"v": {version}}}',
        status=TableStatus.RUNNING, version=version,
    )  # fmt: skip


async def _open(url: str) -> Storage:
    if url.startswith("sqlite:///"):
        # busy_timeout 0 makes every collision surface as SQLITE_BUSY: only the retry saves us.
        return await SqliteStorage.open(url.removeprefix("sqlite:///"), busy_timeout_ms=0)
    return await open_storage(url)


async def _everything(s: Storage, games: list[GameRecord], tag: str) -> None:
    """Interleave game records and table saves from many tasks.

    Each table saves its versions in order, as the bot does (a table's lock serialises
    them); a pool-backed storage runs the five tables' saves in parallel.
    """

    async def save_chain(k: int) -> None:
        for i in range(k, len(games), 5):
            await s.save_table(_table(f"{tag}-{k}", i))

    saves = [save_chain(k) for k in range(5)]
    await asyncio.gather(*(s.record_game(g) for g in games), *saves, return_exceptions=False)


async def _assert_totals(url: str, n_games: int) -> None:
    s = await open_storage(url)
    try:
        # User 1 sits in every game: every update to its row must survive.
        one = await s.user_stats(1, 1)
        assert one.games == n_games
        assert one.wins + (await s.user_stats(2, 1)).wins == n_games
        assert one.losses == (await s.user_stats(2, 1)).wins
        assert (await s.user_stats(1, None)).games == n_games
    finally:
        await s.close()


def _games(make_game: MakeGame, n: int, prefix: str) -> list[GameRecord]:
    rnd = random.Random(prefix)
    out = []
    for i in range(n):
        winner = rnd.randrange(2)
        out.append(make_game([1, 2], [winner], 1 - winner, game_id=f"{prefix}-{i}"))
    return out


@pytest.mark.slow
async def test_many_tasks_one_storage(
    storage: Storage, storage_url: str, make_game: MakeGame
) -> None:
    await _everything(storage, _games(make_game, 150, "a"), "a")
    await _assert_totals(storage_url, 150)


@pytest.mark.slow
async def test_several_storage_objects_on_one_database(
    storage_url: str, make_game: MakeGame
) -> None:
    stores = [await _open(storage_url) for _ in range(4)]
    try:
        await asyncio.gather(
            *(_everything(s, _games(make_game, 40, f"s{k}"), f"s{k}") for k, s in enumerate(stores))
        )
    finally:
        for s in stores:
            await s.close()
    await _assert_totals(storage_url, 160)


async def test_same_game_from_several_objects_is_recorded_once(
    storage_url: str, make_game: MakeGame
) -> None:
    stores = [await _open(storage_url) for _ in range(4)]
    games = _games(make_game, 20, "dup")
    try:
        # Every object records every game at once: each must land exactly once.
        await asyncio.gather(*(s.record_game(g) for g in games for s in stores))
    finally:
        for s in stores:
            await s.close()
    await _assert_totals(storage_url, 20)


async def test_racing_table_saves_keep_the_newest(storage_url: str) -> None:
    stores = [await _open(storage_url) for _ in range(3)]
    versions = list(range(60))
    random.Random(7).shuffle(versions)

    async def save(i: int, v: int) -> bool:
        try:
            await stores[i % 3].save_table(_table("t", v))
        except StaleTableVersion:
            return False
        return True

    try:
        results = await asyncio.gather(*(save(i, v) for i, v in enumerate(versions)))
        assert any(results) and not all(results)
        assert (await stores[0].load_tables())[0].version == 59
    finally:
        for s in stores:
            await s.close()


@pytest.mark.slow
async def test_several_processes_on_one_database(storage_url: str) -> None:
    await (await open_storage(storage_url)).close()
    script = textwrap.dedent(
        """
        import asyncio, sys
        from datetime import UTC, datetime
        from bot.storage import GameRecord, SavedTable, SeatRecord, SqliteStorage, open_storage

        async def main(url: str, tag: str) -> None:
            now = datetime.now(UTC)
            seats = [SeatRecord(seat=i, kind="human", user_id=i + 1, display_name="p")
                     for i in range(2)]
            if url.startswith("sqlite:///"):
                s = await SqliteStorage.open(url[10:], busy_timeout_ms=1)
            else:
                s = await open_storage(url)
            async with s:
                for i in range(40):
                    await s.record_game(GameRecord(
                        game_id=f"{tag}-{i}", guild_id=1, channel_id=1, table_id="t",
                        series_id="s", game_number=1, rules={}, seats=seats,
                        finishing_order=[i % 2], durak_seat=1 - i % 2,
                        losing_seats=[1 - i % 2], started_at=now, ended_at=now,
                        seed_commitment="aa", seed="bb", card_order=[], actions=[]))
                    await s.save_table(SavedTable(table_id=tag, guild_id=1, channel_id=1,
                        state_json="{}", status="running", version=i))

        asyncio.run(main(sys.argv[1], sys.argv[2]))
        """
    )
    procs = [
        subprocess.Popen([sys.executable, "-c", script, storage_url, f"p{k}"], cwd=ROOT)
        for k in range(3)
    ]
    assert [p.wait(timeout=60) for p in procs] == [0, 0, 0]
    await _assert_totals(storage_url, 120)


async def test_lasting_lock_becomes_storage_busy(db_path: Path, make_game: MakeGame) -> None:
    async with await SqliteStorage.open(db_path, busy_timeout_ms=0, retry_seconds=0.2) as s:
        blocker = sqlite3.connect(db_path, isolation_level=None)
        blocker.execute("BEGIN IMMEDIATE")
        try:
            with pytest.raises(StorageBusy, match="locked"):
                await s.record_game(make_game([1, 2], [0], 1))
            # Readers are not blocked by a writer in WAL mode.
            assert (await s.user_stats(1, 1)).games == 0
        finally:
            blocker.execute("ROLLBACK")
            blocker.close()
        await s.record_game(make_game([1, 2], [0], 1))
        assert (await s.user_stats(1, 1)).games == 1


async def test_one_save_batch_larger_than_one_statement(tmp_path: Path) -> None:
    """Group commit writes a batch in multi-row statements of at most ``UPSERT_ROWS`` tables:
    a batch of more than two statements stores every table, and a save older than the stored
    version inside it is still refused."""
    from bot.storage.sqlite import UPSERT_ROWS

    s = await SqliteStorage.open(str(tmp_path / "db.sqlite3"))
    try:
        await s.save_table(_table("t7", 5))  # nothing else writing: written at once
        n = 2 * UPSERT_ROWS + 3
        # Another process is writing: the first save finds the file locked, and the others
        # queue up behind it for one batch, written once the lock is gone.
        blocker = sqlite3.connect(s.path, isolation_level=None)
        blocker.execute("BEGIN IMMEDIATE")
        try:
            saves = asyncio.gather(
                *(s.save_table(_table(f"t{i}", 3 if i == 7 else 1)) for i in range(n)),
                return_exceptions=True,
            )
            await asyncio.sleep(0.05)
            assert s._saver is not None and not s._saver.done()  # waiting for the lock
        finally:
            blocker.execute("ROLLBACK")
            blocker.close()
        results = await saves
        assert [i for i, r in enumerate(results) if isinstance(r, StaleTableVersion)] == [7]
        assert all(r is None for i, r in enumerate(results) if i != 7)
        stored = {t.table_id: t.version for t in await s.load_tables()}
        assert len(stored) == n and stored["t7"] == 5 and stored[f"t{n - 1}"] == 1
    finally:
        await s.close()


async def test_saves_reach_the_database_file_by_checkpoints(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Table saves are written on the event loop by a connection that never checkpoints; the
    aiosqlite connection copies the WAL into the database file in its thread after saves."""
    import bot.storage.sqlite as sqlite_mod

    def file_version(db: Path) -> int | None:
        copy = tmp_path / "copy.sqlite3"  # the database file alone, without its WAL
        copy.write_bytes(db.read_bytes())
        conn = sqlite3.connect(copy)
        try:
            row = conn.execute("SELECT version FROM saved_tables WHERE table_id = 't'").fetchone()
        except sqlite3.OperationalError:  # not even the schema is in the file yet
            row = None
        finally:
            conn.close()
            copy.unlink()
        return None if row is None else int(row[0])

    db = tmp_path / "db.sqlite3"
    s = await SqliteStorage.open(str(db))
    try:
        monkeypatch.setattr(sqlite_mod, "CHECKPOINT_SECONDS", 3600.0)
        await s.save_table(_table("t", 1))
        assert file_version(db) is None  # only in the WAL so far
        monkeypatch.setattr(sqlite_mod, "CHECKPOINT_SECONDS", 0.0)
        for v in range(2, 30):
            await s.save_table(_table("t", v))
        await asyncio.wait_for(s._checkpoint_done(), 5)
        assert file_version(db) == 29
    finally:
        await s.close()


@pytest.mark.slow  # over a second: out of the quick subset
async def test_table_saves_do_not_wait_behind_game_records(
    db_path: Path, make_game: MakeGame
) -> None:
    """A wave of games ending together (tables opened together end together) on a busy event
    loop: a table's save goes at once. When records went through aiosqlite's thread, each of
    their statements waited for a turn of the loop while the record held the file's lock, and
    the saves behind them waited seconds (docs/performance.md, "What keeps it cheap")."""

    async def busy_loop(until: float) -> None:  # other tables' work: 5 ms at a time
        loop = asyncio.get_running_loop()
        while loop.time() < until:
            t0 = loop.time()
            while loop.time() - t0 < 0.005:
                pass
            await asyncio.sleep(0)

    async with await SqliteStorage.open(db_path) as s:
        loop = asyncio.get_running_loop()
        load = [asyncio.create_task(busy_loop(loop.time() + 1.0)) for _ in range(4)]
        records = [asyncio.create_task(s.record_game(make_game([1, 2], [0], 1))) for _ in range(40)]
        await asyncio.sleep(0)  # the records have begun
        t0 = loop.time()
        await s.save_table(_table("t", 1))
        waited = loop.time() - t0
        await asyncio.gather(*records, *load)
        assert waited < 0.1, f"a save waited {waited:.3f} s behind game records"
        assert (await s.user_stats(1, 1)).games == 40
        assert [t.version for t in await s.load_tables()] == [1]


async def test_a_write_transaction_that_suspends_is_refused_and_rolled_back(
    db_path: Path,
) -> None:
    """Writes run on the event loop's connection without suspending; one that waits for
    something else would let other tasks write inside its transaction, so it is closed,
    rolled back and refused."""
    from bot.storage.connection import Connection, Suspended

    async with await SqliteStorage.open(db_path) as s:

        async def body(conn: Connection) -> None:
            await conn.execute("DELETE FROM saved_tables")
            await asyncio.sleep(0)  # a real suspension

        await s.save_table(_table("t", 1))
        with pytest.raises(Suspended):
            await s._transaction(body, write=True)
        assert [t.table_id for t in await s.load_tables()] == ["t"]  # the delete rolled back
        await s.save_table(_table("t", 2))  # the connection is usable again
        assert [t.version for t in await s.load_tables()] == [2]
