"""PostgreSQL implementation of :class:`bot.storage.interface.Storage` on asyncpg.

Several processes (bot shards, possibly on several machines) share one database.
A connection pool lets one process run transactions in parallel; correctness
under concurrency comes from the database, not from a process-local lock:

- ``record_game`` inserts the game row first with ``ON CONFLICT DO NOTHING``:
  a second recorder of the same game id waits on the unique index and then sees
  the conflict, so a game is stored once (idempotent by game id).
- Aggregate rows are created if missing and locked (``FOR UPDATE``) in
  ``player_key`` order, guild rows before global rows, before the ratings are
  read: concurrent games of one player serialise on that row and no rating
  update is lost; the fixed order keeps writers from deadlocking.
- Deadlocks, serialisation failures and lost connections are retried as a whole
  transaction (safe: every write is idempotent or guarded) up to
  ``retry_seconds``, then ``StorageBusy``.
"""

from __future__ import annotations

import asyncio
import math
import random
import time
from collections.abc import Awaitable, Callable, Sequence
from types import TracebackType
from typing import Any, Self, TypeVar, cast

import asyncpg

from .errors import GameNotFound, InvalidQuery, StaleTableVersion, StorageBusy, UnknownPlayer
from .interface import (
    SETTINGS_OWNER,
    LeaderboardSort,
    SettingsTable,
    check_limit,
    check_page,
    check_statuses,
)
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
from .pg_migrations import pg_migrate
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
)
from .rows import table_from_row as _table_from_row
from .settings import SettingsStore
from .sharding import ShardScope

T = TypeVar("T")
Conn = Any  # asyncpg ships no type information

_LEADERBOARD_ORDER: dict[str, str] = {
    "wins": "wins DESC, games ASC, rating DESC, player_key",
    "win_rate": "wins::float8 / games DESC, games DESC, player_key",
    "rating": "rating DESC, games DESC, player_key",
}

_GUILD_UPDATE = """
UPDATE guild_stats SET display_name = $3, games = games + 1, wins = wins + $4,
    losses = losses + $5, draws = draws + $6,
    current_streak = CASE WHEN $4 > 0 THEN current_streak + 1 ELSE 0 END,
    best_streak = GREATEST(best_streak, CASE WHEN $4 > 0 THEN current_streak + 1 ELSE 0 END),
    mu = $7, sigma = $8, rating = $9
WHERE guild_id = $1 AND player_key = $2
"""
_GLOBAL_UPDATE = """
UPDATE global_stats SET display_name = $2, games = games + 1, wins = wins + $3,
    losses = losses + $4, draws = draws + $5,
    current_streak = CASE WHEN $3 > 0 THEN current_streak + 1 ELSE 0 END,
    best_streak = GREATEST(best_streak, CASE WHEN $3 > 0 THEN current_streak + 1 ELSE 0 END)
WHERE player_key = $1
"""

# Failures after which re-running the whole transaction is right.
_TRANSIENT: tuple[type[BaseException], ...] = (
    asyncpg.exceptions.SerializationError,
    asyncpg.exceptions.DeadlockDetectedError,
    asyncpg.exceptions.ConnectionDoesNotExistError,
    asyncpg.exceptions.CannotConnectNowError,
    asyncpg.exceptions.TooManyConnectionsError,
    asyncpg.exceptions.PostgresConnectionError,
    ConnectionError,
    OSError,
)


class PostgresStorage(SettingsStore):
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
        pool = await _retry(
            lambda: asyncpg.create_pool(url, min_size=min_size, max_size=max_size),
            retry_seconds,
        )
        try:
            async with pool.acquire() as conn:
                await pg_migrate(conn)
        except BaseException:
            await pool.close()
            raise
        return cls(pool, url, retry_seconds, shards)

    async def close(self) -> None:
        await self._pool.close()

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
        async def attempt() -> T:
            async with self._pool.acquire() as conn:
                # Reads see one snapshot (a count and its page agree); writes use row locks.
                tx = (
                    conn.transaction()
                    if write
                    else conn.transaction(isolation="repeatable_read", readonly=True)
                )
                async with tx:
                    return await body(conn)

        return await _retry(attempt, self._retry_seconds)

    # -- games --------------------------------------------------------------------

    async def record_game(self, rec: GameRecord) -> str:
        outcomes = seat_outcomes(rec)
        by_num = rec.seats_by_number
        keys = sorted({s.player_key for s in rec.seats})
        first_seat = {o.player_key: by_num[o.seat] for o in reversed(outcomes)}

        async def body(conn: Conn) -> str:
            inserted = await conn.fetchval(
                "INSERT INTO games (game_id, guild_id, channel_id, table_id, series_id,"
                " game_number, rules_json, finishing_order_json, durak_seat,"
                " losing_seats_json, started_at, ended_at, seed_commitment, seed,"
                " card_order_json, actions_json, recorded_at)"
                " VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15,"
                " $16, now()) ON CONFLICT (game_id) DO NOTHING RETURNING 1",
                rec.game_id, rec.guild_id, rec.channel_id, rec.table_id, rec.series_id,
                rec.game_number, dumps(rec.rules), dumps(rec.finishing_order), rec.durak_seat,
                dumps(rec.losing_seats), rec.started_at, rec.ended_at, rec.seed_commitment,
                rec.seed, dumps(rec.card_order), dumps(rec.actions),
            )  # fmt: skip
            if inserted is None:
                return rec.game_id  # already recorded (perhaps by another process): no-op
            who = [
                (k, first_seat[k].kind, first_seat[k].user_id, first_seat[k].ai_level,
                 first_seat[k].display_name)
                for k in keys
            ]  # fmt: skip
            await conn.executemany(
                "INSERT INTO guild_stats (guild_id, player_key, kind, user_id, ai_level,"
                " display_name) VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT DO NOTHING",
                [(rec.guild_id, *w) for w in who],
            )
            rows = await conn.fetch(
                "SELECT player_key, mu, sigma FROM guild_stats WHERE guild_id = $1"
                " AND player_key = ANY($2::text[]) ORDER BY player_key FOR UPDATE",
                rec.guild_id,
                keys,
            )
            prior = {r["player_key"]: Rating(r["mu"], r["sigma"]) for r in rows}
            new = rate_game(rec, {k: prior.get(k, DEFAULT_RATING) for k in keys})
            await conn.executemany(
                "INSERT INTO global_stats (player_key, kind, user_id, ai_level, display_name)"
                " VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING",
                who,
            )
            await conn.execute(
                "SELECT 1 FROM global_stats WHERE player_key = ANY($1::text[])"
                " ORDER BY player_key FOR UPDATE",
                keys,
            )
            seat_rows = []
            guild_rows = []
            global_rows = []
            for o in outcomes:
                s = by_num[o.seat]
                r = new[o.player_key]
                seat_rows.append(
                    (rec.game_id, o.seat, rec.guild_id, rec.ended_at, s.kind, s.user_id,
                     s.ai_level, o.player_key, s.display_name, s.team, o.place, o.result,
                     r.mu, r.sigma)
                )  # fmt: skip
                tally = (o.win, o.loss, o.draw)
                guild_rows.append(
                    (rec.guild_id, o.player_key, s.display_name, *tally, r.mu, r.sigma, r.ordinal)
                )
                global_rows.append((o.player_key, s.display_name, *tally))
            await conn.executemany(
                "INSERT INTO game_seats (game_id, seat, guild_id, ended_at, kind, user_id,"
                " ai_level, player_key, display_name, team, place, result, mu_after,"
                " sigma_after) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12,"
                " $13, $14)",
                seat_rows,
            )
            await conn.executemany(_GUILD_UPDATE, guild_rows)
            await conn.executemany(_GLOBAL_UPDATE, global_rows)
            return rec.game_id

        return await self._transaction(body, write=True)

    async def finish_series(
        self, guild_id: int, series_id: str, winners: list[int], losers: list[int]
    ) -> bool:
        if set(winners) & set(losers):
            raise InvalidQuery(f"series {series_id!r}: a user cannot both win and lose")
        if len(set(winners)) != len(winners) or len(set(losers)) != len(losers):
            raise InvalidQuery(f"series {series_id!r}: a user is listed twice")
        # Same lock order as record_game (player_key, guild rows first): no deadlock.
        changes = sorted(
            [(f"user:{u}", u, "series_won") for u in winners]
            + [(f"user:{u}", u, "series_lost") for u in losers]
        )

        async def body(conn: Conn) -> bool:
            new = await conn.fetchval(
                "INSERT INTO series_results (series_id, guild_id, winners_json, losers_json,"
                " finished_at) VALUES ($1, $2, $3, $4, now())"
                " ON CONFLICT (series_id) DO NOTHING RETURNING 1",
                series_id, guild_id, dumps(winners), dumps(losers),
            )  # fmt: skip
            if new is None:
                return False  # already counted
            for key, user_id, column in changes:
                found = await conn.fetchval(
                    f"UPDATE guild_stats SET {column} = {column} + 1"
                    " WHERE guild_id = $1 AND player_key = $2 RETURNING 1",
                    guild_id,
                    key,
                )
                if found is None:
                    raise UnknownPlayer(guild_id, user_id)  # rolls the series back
            for key, _user_id, column in changes:
                await conn.execute(
                    f"UPDATE global_stats SET {column} = {column} + 1 WHERE player_key = $1", key
                )
            return True

        return await self._transaction(body, write=True)

    async def get_game(self, game_id: str) -> GameRecord:
        async def body(conn: Conn) -> GameRecord:
            row = await conn.fetchrow("SELECT * FROM games WHERE game_id = $1", game_id)
            if row is None:
                raise GameNotFound(game_id)
            seat_rows = await conn.fetch(
                f"SELECT {SEAT_COLUMNS} FROM game_seats WHERE game_id = $1 ORDER BY seat",
                game_id,
            )
            return game_from_row(row, group_seats(seat_rows)[game_id])

        return await self._transaction(body, write=False)

    # -- saved tables -------------------------------------------------------------

    async def save_table(self, t: SavedTable) -> None:
        async def body(conn: Conn) -> None:
            # One statement; ON CONFLICT locks the row and re-checks the version against
            # the newest committed one, so racing processes cannot lose an update.
            saved = await conn.fetchval(
                f"INSERT INTO saved_tables ({SAVED_TABLE_COLUMNS}) VALUES ($1, $2, $3, $4, $5,"
                f" $6, $7, $8, $9, $10, clock_timestamp()){SAVED_TABLE_UPSERT} RETURNING 1",
                t.table_id, t.guild_id, t.channel_id, t.thread_id, t.lobby_message_id,
                t.table_message_id, t.state_json, dumps(t.meta), t.status, t.version,
            )  # fmt: skip
            if saved is None:
                stored = await conn.fetchval(
                    "SELECT version FROM saved_tables WHERE table_id = $1", t.table_id
                )
                raise StaleTableVersion(t.table_id, t.version, -1 if stored is None else stored)

        await self._transaction(body, write=True)

    async def load_tables(
        self, statuses: Sequence[TableStatus] = (TableStatus.LOBBY, TableStatus.RUNNING)
    ) -> list[SavedTable]:
        check_statuses(statuses)
        if not statuses:
            return []
        where = "status = ANY($1::text[])"
        params: list[object] = [list(statuses)]
        if self.shards is not None:
            where += " AND ((guild_id >> 22) % $2) = ANY($3::bigint[])"
            params += [self.shards.shard_count, list(self.shards.shard_ids)]

        async def body(conn: Conn) -> list[SavedTable]:
            rows = await conn.fetch(
                f"SELECT * FROM saved_tables WHERE {where} ORDER BY updated_at, table_id",
                *params,
            )
            return [_table_from_row(r) for r in rows]

        return await self._transaction(body, write=False)

    async def delete_table(self, table_id: str) -> bool:
        async def body(conn: Conn) -> bool:
            gone = await conn.fetchval(
                "DELETE FROM saved_tables WHERE table_id = $1 RETURNING 1", table_id
            )
            return gone is not None

        return await self._transaction(body, write=True)

    # -- guild and user settings --------------------------------------------------

    async def _settings(self, table: SettingsTable, owner_id: int) -> dict[str, str]:
        owner = SETTINGS_OWNER[table]

        async def body(conn: Conn) -> dict[str, str]:
            rows = await conn.fetch(f"SELECT key, value FROM {table} WHERE {owner} = $1", owner_id)
            return {str(row["key"]): str(row["value"]) for row in rows}

        return await self._transaction(body, write=False)

    async def _set_setting(self, table: SettingsTable, owner_id: int, key: str, value: str) -> None:
        owner = SETTINGS_OWNER[table]

        async def body(conn: Conn) -> None:
            await conn.execute(
                f"INSERT INTO {table} ({owner}, key, value) VALUES ($1, $2, $3)"
                f" ON CONFLICT ({owner}, key) DO UPDATE SET value = excluded.value",
                owner_id,
                key,
                value,
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
        where = "guild_id = $1 AND games > 0"
        params: list[object] = [guild_id]
        if not include_ai:
            where += " AND kind = 'human'"
        if sort == "win_rate":
            where += " AND games >= $2"
            params.append(min_games)
        offset = (page - 1) * page_size
        n = len(params)

        async def body(conn: Conn) -> LeaderboardPage:
            count_sql = f"SELECT COUNT(*) FROM guild_stats WHERE {where}"
            total = int(await conn.fetchval(count_sql, *params))
            rows = await conn.fetch(
                "SELECT kind, user_id, ai_level, display_name, games, wins, losses, draws,"
                f" rating, best_streak FROM guild_stats WHERE {where}"
                f" ORDER BY {_LEADERBOARD_ORDER[sort]} LIMIT ${n + 1} OFFSET ${n + 2}",
                *params,
                page_size,
                offset,
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
                for i, r in enumerate(rows)
            ]
            pages = math.ceil(total / page_size)
            return LeaderboardPage(entries=entries, page=page, pages=pages, total=total)

        return await self._transaction(body, write=False)

    async def user_stats(self, user_id: int, guild_id: int | None) -> PlayerStats:
        key = f"user:{user_id}"

        async def body(conn: Conn) -> PlayerStats:
            if guild_id is None:
                r = await conn.fetchrow(
                    "SELECT *, NULL::float8 AS mu, NULL::float8 AS sigma, NULL::float8 AS rating"
                    " FROM global_stats WHERE player_key = $1",
                    key,
                )
            else:
                r = await conn.fetchrow(
                    "SELECT * FROM guild_stats WHERE guild_id = $1 AND player_key = $2",
                    guild_id,
                    key,
                )
            return stats_from_row(r, user_id, guild_id)

        return await self._transaction(body, write=False)

    async def recent_games(
        self, user_id: int, guild_id: int | None, limit: int = 10
    ) -> list[GameSummary]:
        check_limit(limit)
        guild_filter = "" if guild_id is None else " AND s.guild_id = $3"
        params: list[object] = [user_id, limit]
        if guild_id is not None:
            params.append(guild_id)

        async def body(conn: Conn) -> list[GameSummary]:
            rows = await conn.fetch(
                f"SELECT {SUMMARY_COLUMNS}, s.seat AS user_seat, s.result AS user_result"
                " FROM game_seats s JOIN games g ON g.game_id = s.game_id"
                f" WHERE s.user_id = $1{guild_filter}"
                " ORDER BY s.ended_at DESC, s.game_id DESC LIMIT $2",
                *params,
            )
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
            rows = await conn.fetch(
                f"SELECT {SUMMARY_COLUMNS} FROM games g"
                " WHERE g.guild_id = $1 AND g.channel_id = $2"
                " ORDER BY g.ended_at DESC, g.game_id DESC LIMIT $3",
                guild_id,
                channel_id,
                limit,
            )
            seats = await _seats_of(conn, [r["game_id"] for r in rows])
            return [summary_from_row(r, seats[r["game_id"]]) for r in rows]

        return await self._transaction(body, write=False)

    async def head_to_head(self, guild_id: int, user_a: int, user_b: int) -> HeadToHead:
        if user_a == user_b:
            raise InvalidQuery("head_to_head needs two different users")

        async def body(conn: Conn) -> HeadToHead:
            row = await conn.fetchrow(
                "SELECT COUNT(*), COUNT(*) FILTER (WHERE a.place < b.place),"
                " COUNT(*) FILTER (WHERE a.place > b.place),"
                " COUNT(*) FILTER (WHERE a.place = b.place),"
                " COUNT(*) FILTER (WHERE g.durak_seat = a.seat),"
                " COUNT(*) FILTER (WHERE g.durak_seat = b.seat),"
                " COUNT(*) FILTER (WHERE g.durak_seat IS NULL)"
                " FROM game_seats a"
                " JOIN game_seats b ON b.game_id = a.game_id AND b.user_id = $1"
                " JOIN games g ON g.game_id = a.game_id"
                " WHERE a.user_id = $2 AND a.guild_id = $3",
                user_b,
                user_a,
                guild_id,
            )
            n = [int(v) for v in row] if row else [0] * 7
            return HeadToHead(
                guild_id=guild_id, user_a=user_a, user_b=user_b, games=n[0], a_ahead=n[1],
                b_ahead=n[2], tied=n[3], a_durak=n[4], b_durak=n[5], draws=n[6],
            )  # fmt: skip

        return await self._transaction(body, write=False)


async def _seats_of(conn: Conn, game_ids: list[str]) -> dict[str, list[SeatRecord]]:
    if not game_ids:
        return {}
    rows = await conn.fetch(
        f"SELECT {SEAT_COLUMNS} FROM game_seats WHERE game_id = ANY($1::text[])"
        " ORDER BY game_id, seat",
        game_ids,
    )
    return group_seats(rows)


async def _retry(op: Callable[[], Awaitable[T]], budget_seconds: float) -> T:
    """Re-run ``op`` after a transient failure, with jittered backoff, up to the budget."""
    deadline = time.monotonic() + budget_seconds
    delay = 0.005
    while True:
        try:
            return await op()
        except _TRANSIENT as exc:
            if time.monotonic() >= deadline:
                raise StorageBusy(
                    f"database unavailable or contended for {budget_seconds:g}s: {exc}"
                ) from exc
        await asyncio.sleep(delay * (0.5 + random.random()))
        delay = min(delay * 2, 0.5)
