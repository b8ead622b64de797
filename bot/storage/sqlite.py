"""SQLite implementation of :class:`bot.storage.interface.Storage` on aiosqlite.

One connection per storage object; an ``asyncio.Lock`` serialises its
transactions (aiosqlite shares one connection between tasks, so interleaved
transactions would mix). Across processes or storage objects SQLite's own
write lock applies: ``BEGIN IMMEDIATE`` takes it up front, ``busy_timeout``
waits for it, and a bounded retry turns a lasting lock into ``StorageBusy``.

Table saves (``save_table``, one after every action of every table) take another way: a second,
plain ``sqlite3`` connection used on the event loop itself. Such a write is a few tens of
microseconds (WAL, no fsync); the trip to aiosqlite's thread and back cost far more under
load (the thread and the loop's callback queue each wait for a busy loop; figures in
docs/performance.md, "Storage" and "Bot under load"). That
connection never waits on a lock (``busy_timeout`` 0: a lock is retried asynchronously, with
backoff) and never checkpoints (which writes the database file and syncs it); the aiosqlite
connection checkpoints in its thread at most every ``CHECKPOINT_SECONDS`` after saves.
"""

from __future__ import annotations

import asyncio
import contextlib
import math
import random
import sqlite3
import time
from collections.abc import Awaitable, Callable, Sequence
from datetime import UTC, datetime
from pathlib import Path
from types import TracebackType
from typing import Self, TypeVar, cast

import aiosqlite

from .busy import is_busy
from .errors import GameNotFound, InvalidQuery, StaleTableVersion, StorageBusy, UnknownPlayer
from .interface import (
    SETTINGS_OWNER,
    LeaderboardSort,
    SettingsTable,
    check_limit,
    check_page,
    check_statuses,
)
from .migrations import migrate
from .models import (
    GameRecord,
    GameSummary,
    HeadToHead,
    LeaderboardEntry,
    LeaderboardPage,
    PlayerStats,
    SavedTable,
    SeatRecord,
    SeatResult,
    TableStatus,
)
from .outcome import DEFAULT_RATING, Rating, rate_game, seat_outcomes
from .rows import (
    SAVED_TABLE_COLUMNS,
    SAVED_TABLE_UPSERT,
    SEAT_COLUMNS,
    SUMMARY_COLUMNS,
    dumps,
    game_from_row,
    group_seats,
    stats_from_row,
    summary_from_row,
    table_from_row,
    ts,
)
from .settings import SettingsStore
from .sharding import ShardScope

T = TypeVar("T")
Conn = aiosqlite.Connection

DEFAULT_DATABASE_PATH = Path("data") / "durak.sqlite3"

_STATS_UPSERT = """
INSERT INTO {table} ({key_cols}, kind, user_id, ai_level, display_name,
                     games, wins, losses, draws, current_streak, best_streak{extra_cols})
VALUES ({key_params}, ?, ?, ?, ?, 1, ?, ?, ?, ?, ?{extra_params})
ON CONFLICT ({key_cols}) DO UPDATE SET
    display_name = excluded.display_name,
    games = games + 1,
    wins = wins + excluded.wins,
    losses = losses + excluded.losses,
    draws = draws + excluded.draws,
    current_streak = CASE WHEN excluded.wins > 0 THEN current_streak + 1 ELSE 0 END,
    best_streak = MAX(best_streak,
                      CASE WHEN excluded.wins > 0 THEN current_streak + 1 ELSE 0 END)
    {extra_set}
"""
_GUILD_UPSERT = _STATS_UPSERT.format(
    table="guild_stats",
    key_cols="guild_id, player_key",
    key_params="?, ?",
    extra_cols=", mu, sigma, rating",
    extra_params=", ?, ?, ?",
    extra_set=", mu = excluded.mu, sigma = excluded.sigma, rating = excluded.rating",
)
_GLOBAL_UPSERT = _STATS_UPSERT.format(
    table="global_stats",
    key_cols="player_key",
    key_params="?",
    extra_cols="",
    extra_params="",
    extra_set="",
)

_LEADERBOARD_ORDER: dict[str, str] = {
    "wins": "wins DESC, games ASC, rating DESC, player_key",
    "win_rate": "CAST(wins AS REAL) / games DESC, games DESC, player_key",
    "rating": "rating DESC, games DESC, player_key",
}


class SqliteStorage(SettingsStore):
    """Durak results, ratings and saved tables in one SQLite file (WAL mode)."""

    def __init__(
        self,
        conn: Conn,
        writer: sqlite3.Connection,
        path: Path,
        retry_seconds: float,
        shards: ShardScope | None = None,
    ) -> None:
        # Use ``await SqliteStorage.open(path)``; this only wires open connections.
        self._conn = conn
        self._writer = writer
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
            await _retry(lambda: conn.execute("PRAGMA journal_mode = WAL"), retry_seconds)
            await conn.execute("PRAGMA synchronous = NORMAL")
            await _retry(lambda: migrate(conn), retry_seconds)
            writer = sqlite3.connect(path, isolation_level=None)
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

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.close()

    # -- transactions -------------------------------------------------------------

    async def _transaction(self, body: Callable[[Conn], Awaitable[T]], *, write: bool) -> T:
        """Run ``body`` in one transaction, retried as a whole while the file is locked."""
        begin = "BEGIN IMMEDIATE" if write else "BEGIN"

        async def attempt() -> T:
            await self._conn.execute(begin)
            try:
                result = await body(self._conn)
                await self._conn.execute("COMMIT")
            except BaseException:
                await _rollback(self._conn)
                raise
            return result

        async with self._lock:
            return await _retry(attempt, self._retry_seconds)

    # -- games --------------------------------------------------------------------

    async def record_game(self, rec: GameRecord) -> str:
        outcomes = seat_outcomes(rec)
        by_num = rec.seats_by_number

        async def body(conn: Conn) -> str:
            cur = await conn.execute("SELECT 1 FROM games WHERE game_id = ?", (rec.game_id,))
            if await cur.fetchone() is not None:
                return rec.game_id  # already recorded: idempotent no-op
            keys = sorted({s.player_key for s in rec.seats})
            prior = await _ratings(conn, rec.guild_id, keys)
            new = rate_game(rec, prior)
            ended = ts(rec.ended_at)
            await conn.execute(
                "INSERT INTO games (game_id, guild_id, channel_id, table_id, series_id,"
                " game_number, rules_json, finishing_order_json, durak_seat,"
                " losing_seats_json, started_at, ended_at, seed_commitment, seed,"
                " card_order_json, actions_json, recorded_at)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    rec.game_id, rec.guild_id, rec.channel_id, rec.table_id, rec.series_id,
                    rec.game_number, dumps(rec.rules), dumps(rec.finishing_order),
                    rec.durak_seat, dumps(rec.losing_seats), ts(rec.started_at), ended,
                    rec.seed_commitment, rec.seed, dumps(rec.card_order), dumps(rec.actions),
                    ts(datetime.now(UTC)),
                ),
            )  # fmt: skip
            seat_rows = []
            guild_rows = []
            global_rows = []
            for o in outcomes:
                s = by_num[o.seat]
                r = new[o.player_key]
                who = (s.kind, s.user_id, s.ai_level, s.display_name)
                tally = (o.win, o.loss, o.draw, o.win, o.win)
                seat_rows.append(
                    (rec.game_id, o.seat, rec.guild_id, ended, *who[:3], o.player_key,
                     s.display_name, s.team, o.place, o.result, r.mu, r.sigma)
                )  # fmt: skip
                guild_rows.append(
                    (rec.guild_id, o.player_key, *who, *tally, r.mu, r.sigma, r.ordinal)
                )
                global_rows.append((o.player_key, *who, *tally))
            await conn.executemany(
                "INSERT INTO game_seats (game_id, seat, guild_id, ended_at, kind, user_id,"
                " ai_level, player_key, display_name, team, place, result, mu_after,"
                " sigma_after) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                seat_rows,
            )
            await conn.executemany(_GUILD_UPSERT, guild_rows)
            await conn.executemany(_GLOBAL_UPSERT, global_rows)
            return rec.game_id

        return await self._transaction(body, write=True)

    async def finish_series(
        self, guild_id: int, series_id: str, winners: list[int], losers: list[int]
    ) -> bool:
        if set(winners) & set(losers):
            raise InvalidQuery(f"series {series_id!r}: a user cannot both win and lose")
        if len(set(winners)) != len(winners) or len(set(losers)) != len(losers):
            raise InvalidQuery(f"series {series_id!r}: a user is listed twice")

        async def body(conn: Conn) -> bool:
            cur = await conn.execute(
                "INSERT INTO series_results (series_id, guild_id, winners_json, losers_json,"
                " finished_at) VALUES (?, ?, ?, ?, ?) ON CONFLICT (series_id) DO NOTHING",
                (series_id, guild_id, dumps(winners), dumps(losers), ts(datetime.now(UTC))),
            )
            if cur.rowcount == 0:
                return False  # already counted
            for column, users in (("series_won", winners), ("series_lost", losers)):
                for user_id in users:
                    key = f"user:{user_id}"
                    cur = await conn.execute(
                        f"UPDATE guild_stats SET {column} = {column} + 1"
                        " WHERE guild_id = ? AND player_key = ?",
                        (guild_id, key),
                    )
                    if cur.rowcount == 0:
                        raise UnknownPlayer(guild_id, user_id)  # rolls the series back
                    await conn.execute(
                        f"UPDATE global_stats SET {column} = {column} + 1 WHERE player_key = ?",
                        (key,),
                    )
            return True

        return await self._transaction(body, write=True)

    async def get_game(self, game_id: str) -> GameRecord:
        async def body(conn: Conn) -> GameRecord:
            cur = await conn.execute("SELECT * FROM games WHERE game_id = ?", (game_id,))
            row = await cur.fetchone()
            if row is None:
                raise GameNotFound(game_id)
            cur = await conn.execute(
                f"SELECT {SEAT_COLUMNS} FROM game_seats WHERE game_id = ? ORDER BY seat",
                (game_id,),
            )
            seats = group_seats(await cur.fetchall())[game_id]
            return game_from_row(row, seats)

        return await self._transaction(body, write=False)

    # -- saved tables -------------------------------------------------------------

    async def save_table(self, t: SavedTable) -> None:
        """Written at once when nothing else is writing: no suspension, so the save a click
        waits for costs no extra turns of a busy event loop. Otherwise group commit: saves
        that arrive while a batch is being written (or retried because another connection
        holds the lock) wait for the next batch, which writes them all. Returns once ``t`` is
        committed; raises what its write raised."""
        if (
            not self._save_queue
            and not self._lock.locked()
            and (self._saver is None or self._saver.done())
        ):
            try:
                stale = _upsert_tables(self._writer, [t])
            except sqlite3.OperationalError as exc:
                if not is_busy(exc):
                    raise
            else:  # (locked: queued below and retried with backoff)
                self._after_write()
                if t.table_id in stale:
                    raise StaleTableVersion(t.table_id, t.version, stale[t.table_id])
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

        async with self._lock:
            stale = await _retry(write, self._retry_seconds)
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

    async def load_tables(
        self, statuses: Sequence[TableStatus] = (TableStatus.LOBBY, TableStatus.RUNNING)
    ) -> list[SavedTable]:
        check_statuses(statuses)
        if not statuses:
            return []

        marks = ", ".join("?" * len(statuses))
        where = f"status IN ({marks})"
        params: list[object] = list(statuses)
        if self.shards is not None:
            ids = ", ".join("?" * len(self.shards.shard_ids))
            where += f" AND ((guild_id >> 22) % ?) IN ({ids})"
            params += [self.shards.shard_count, *self.shards.shard_ids]

        async def body(conn: Conn) -> list[SavedTable]:
            cur = await conn.execute(
                f"SELECT * FROM saved_tables WHERE {where} ORDER BY updated_at, table_id",
                params,
            )
            return [table_from_row(r) for r in await cur.fetchall()]

        return await self._transaction(body, write=False)

    async def delete_table(self, table_id: str) -> bool:
        async def body(conn: Conn) -> bool:
            cur = await conn.execute("DELETE FROM saved_tables WHERE table_id = ?", (table_id,))
            return cur.rowcount > 0

        return await self._transaction(body, write=True)

    # -- guild and user settings --------------------------------------------------

    async def _settings(self, table: SettingsTable, owner_id: int) -> dict[str, str]:
        owner = SETTINGS_OWNER[table]

        async def body(conn: Conn) -> dict[str, str]:
            cur = await conn.execute(
                f"SELECT key, value FROM {table} WHERE {owner} = ?", (owner_id,)
            )
            return {str(row[0]): str(row[1]) for row in await cur.fetchall()}

        return await self._transaction(body, write=False)

    async def _set_setting(self, table: SettingsTable, owner_id: int, key: str, value: str) -> None:
        owner = SETTINGS_OWNER[table]

        async def body(conn: Conn) -> None:
            await conn.execute(
                f"INSERT INTO {table} ({owner}, key, value) VALUES (?, ?, ?)"
                f" ON CONFLICT ({owner}, key) DO UPDATE SET value = excluded.value",
                (owner_id, key, value),
            )

        await self._transaction(body, write=True)

    # -- queries ------------------------------------------------------------------

    async def leaderboard(
        self,
        guild_id: int,
        sort: LeaderboardSort,
        page: int = 1,
        page_size: int = 10,
        min_games: int = 5,
        include_ai: bool = False,
    ) -> LeaderboardPage:
        check_page(page, page_size, min_games, sort)
        where = "guild_id = ? AND games > 0"
        params: list[object] = [guild_id]
        if not include_ai:
            where += " AND kind = 'human'"
        if sort == "win_rate":
            where += " AND games >= ?"
            params.append(min_games)

        async def body(conn: Conn) -> LeaderboardPage:
            cur = await conn.execute(f"SELECT COUNT(*) FROM guild_stats WHERE {where}", params)
            row = await cur.fetchone()
            total = int(row[0]) if row else 0
            offset = (page - 1) * page_size
            cur = await conn.execute(
                "SELECT kind, user_id, ai_level, display_name, games, wins, losses, draws,"
                f" rating, best_streak FROM guild_stats WHERE {where}"
                f" ORDER BY {_LEADERBOARD_ORDER[sort]} LIMIT ? OFFSET ?",
                [*params, page_size, offset],
            )
            entries = [
                LeaderboardEntry(
                    rank=offset + i + 1,
                    kind=r["kind"],
                    user_id=r["user_id"],
                    ai_level=r["ai_level"],
                    display_name=r["display_name"],
                    games=r["games"],
                    wins=r["wins"],
                    losses=r["losses"],
                    draws=r["draws"],
                    win_rate=r["wins"] / r["games"],
                    rating=r["rating"],
                    best_streak=r["best_streak"],
                )
                for i, r in enumerate(await cur.fetchall())
            ]
            pages = math.ceil(total / page_size)
            return LeaderboardPage(entries=entries, page=page, pages=pages, total=total)

        return await self._transaction(body, write=False)

    async def user_stats(self, user_id: int, guild_id: int | None) -> PlayerStats:
        key = f"user:{user_id}"

        async def body(conn: Conn) -> PlayerStats:
            if guild_id is None:
                cur = await conn.execute(
                    "SELECT *, NULL AS mu, NULL AS sigma, NULL AS rating"
                    " FROM global_stats WHERE player_key = ?",
                    (key,),
                )
            else:
                cur = await conn.execute(
                    "SELECT * FROM guild_stats WHERE guild_id = ? AND player_key = ?",
                    (guild_id, key),
                )
            r = await cur.fetchone()
            return stats_from_row(r, user_id, guild_id)

        return await self._transaction(body, write=False)

    async def recent_games(
        self, user_id: int, guild_id: int | None, limit: int = 10
    ) -> list[GameSummary]:
        check_limit(limit)
        guild_filter = "" if guild_id is None else " AND s.guild_id = ?"
        params: list[object] = [user_id] if guild_id is None else [user_id, guild_id]

        async def body(conn: Conn) -> list[GameSummary]:
            cur = await conn.execute(
                f"SELECT {SUMMARY_COLUMNS}, s.seat AS user_seat, s.result AS user_result"
                " FROM game_seats s JOIN games g ON g.game_id = s.game_id"
                f" WHERE s.user_id = ?{guild_filter}"
                " ORDER BY s.ended_at DESC, s.game_id DESC LIMIT ?",
                [*params, limit],
            )
            rows = list(await cur.fetchall())
            seats = await _seats_of(conn, [r["game_id"] for r in rows])
            return [
                summary_from_row(
                    r, seats[r["game_id"]], r["user_seat"], cast(SeatResult, r["user_result"])
                )
                for r in rows
            ]

        return await self._transaction(body, write=False)

    async def channel_history(
        self, guild_id: int, channel_id: int, limit: int = 10
    ) -> list[GameSummary]:
        check_limit(limit)

        async def body(conn: Conn) -> list[GameSummary]:
            cur = await conn.execute(
                f"SELECT {SUMMARY_COLUMNS} FROM games g"
                " WHERE g.guild_id = ? AND g.channel_id = ?"
                " ORDER BY g.ended_at DESC, g.game_id DESC LIMIT ?",
                (guild_id, channel_id, limit),
            )
            rows = list(await cur.fetchall())
            seats = await _seats_of(conn, [r["game_id"] for r in rows])
            return [summary_from_row(r, seats[r["game_id"]]) for r in rows]

        return await self._transaction(body, write=False)

    async def head_to_head(self, guild_id: int, user_a: int, user_b: int) -> HeadToHead:
        if user_a == user_b:
            raise InvalidQuery("head_to_head needs two different users")

        async def body(conn: Conn) -> HeadToHead:
            cur = await conn.execute(
                "SELECT COUNT(*), TOTAL(a.place < b.place), TOTAL(a.place > b.place),"
                " TOTAL(a.place = b.place), TOTAL(g.durak_seat = a.seat),"
                " TOTAL(g.durak_seat = b.seat), TOTAL(g.durak_seat IS NULL)"
                " FROM game_seats a"
                " JOIN game_seats b ON b.game_id = a.game_id AND b.user_id = ?"
                " JOIN games g ON g.game_id = a.game_id"
                " WHERE a.user_id = ? AND a.guild_id = ?",
                (user_b, user_a, guild_id),
            )
            row = await cur.fetchone()
            n = [int(v) for v in row] if row else [0] * 7
            return HeadToHead(
                guild_id=guild_id, user_a=user_a, user_b=user_b, games=n[0], a_ahead=n[1],
                b_ahead=n[2], tied=n[3], a_durak=n[4], b_durak=n[5], draws=n[6],
            )  # fmt: skip

        return await self._transaction(body, write=False)


async def _ratings(conn: Conn, guild_id: int, keys: list[str]) -> dict[str, Rating]:
    marks = ", ".join("?" * len(keys))
    cur = await conn.execute(
        f"SELECT player_key, mu, sigma FROM guild_stats"
        f" WHERE guild_id = ? AND player_key IN ({marks})",
        (guild_id, *keys),
    )
    found = {r["player_key"]: Rating(r["mu"], r["sigma"]) for r in await cur.fetchall()}
    return {k: found.get(k, DEFAULT_RATING) for k in keys}


async def _seats_of(conn: Conn, game_ids: list[str]) -> dict[str, list[SeatRecord]]:
    if not game_ids:
        return {}
    marks = ", ".join("?" * len(game_ids))
    cur = await conn.execute(
        f"SELECT {SEAT_COLUMNS} FROM game_seats WHERE game_id IN ({marks}) ORDER BY game_id, seat",
        game_ids,
    )
    return group_seats(await cur.fetchall())


async def _rollback(conn: Conn) -> None:
    # SQLite may already have rolled back by itself (e.g. after SQLITE_FULL).
    with contextlib.suppress(sqlite3.Error):
        await conn.execute("ROLLBACK")


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
        rows = ", ".join(["(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"] * len(chunk))
        cur = conn.execute(
            f"INSERT INTO saved_tables ({SAVED_TABLE_COLUMNS}) VALUES {rows}{SAVED_TABLE_UPSERT}",
            [
                value
                for t in chunk
                for value in (
                    t.table_id, t.guild_id, t.channel_id, t.thread_id, t.lobby_message_id,
                    t.table_message_id, t.state_json, dumps(t.meta), t.status, t.version, now,
                )
            ],
        )  # fmt: skip
        written += cur.rowcount
    if written == len(tables):
        return {}
    marks = ", ".join("?" * len(tables))
    found = conn.execute(
        f"SELECT table_id, version FROM saved_tables WHERE table_id IN ({marks})",
        [t.table_id for t in tables],
    ).fetchall()
    stored = {str(row[0]): int(row[1]) for row in found}
    return {
        t.table_id: stored.get(t.table_id, -1)
        for t in tables
        if stored.get(t.table_id, -1) != t.version
    }


async def _retry(op: Callable[[], Awaitable[T]], budget_seconds: float) -> T:
    """Re-run ``op`` while SQLite reports a lock, with jittered backoff, up to the budget."""
    deadline = time.monotonic() + budget_seconds
    delay = 0.002
    while True:
        try:
            return await op()
        except sqlite3.OperationalError as exc:
            if not is_busy(exc):
                raise
            if time.monotonic() >= deadline:
                raise StorageBusy(f"database stayed locked for {budget_seconds:g}s") from exc
        await asyncio.sleep(delay * (0.5 + random.random()))
        delay = min(delay * 2, 0.1)
