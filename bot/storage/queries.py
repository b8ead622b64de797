"""The storage's queries, written once for SQLite and PostgreSQL (see ``dialect.py``).

:class:`SqlStorage` implements every method of the ``Storage`` Protocol over a
:class:`~bot.storage.connection.Connection`; a backend supplies how a transaction is run
(``_transaction``: one locked connection for SQLite, a pool for PostgreSQL, each retried while
the database is contended) and its own ``save_table``, the path taken after every action.

``record_game`` is correct under concurrency on both: the game row is inserted first with
``ON CONFLICT DO NOTHING`` (a second recorder of the same id sees the conflict, so a game is
stored once), then the players' aggregate rows are created if missing and, where rows can be
locked (PostgreSQL), locked ``FOR UPDATE`` in ``player_key`` order, guild rows before global
rows, before the ratings are read: concurrent games of one player serialise on that row and
no rating update is lost, and the fixed order keeps writers from deadlocking. On SQLite a
write transaction holds the file's lock from its start.
"""

from __future__ import annotations

import math
from abc import abstractmethod
from collections.abc import Awaitable, Callable, Iterable, Sequence
from datetime import UTC, datetime
from functools import lru_cache
from types import TracebackType
from typing import Any, Self, TypeVar

from .connection import Connection, Row
from .errors import GameNotFound, InvalidQuery, UnknownPlayer
from .interface import (
    SETTINGS_OWNER,
    LeaderboardQuery,
    SettingsTable,
    check_limit,
    check_statuses,
)
from .links import INSERT_LINK, check_link
from .models import (
    GameRecord,
    GameSummary,
    LeaderboardPage,
    PlayerStats,
    SavedTable,
    SeatRecord,
    TableStatus,
)
from .outcome import (
    DEFAULT_RATING,
    Rating,
    RecordedGame,
    SeatOutcome,
    rate_game,
    rating_changes,
    seat_outcomes,
)
from .preferences import SettingsStore
from .puzzle_queries import PuzzleQueries
from .rows import (
    ENTRY_COLUMNS,
    LINK_COLUMNS,
    LINKED_GAMES,
    SAVED_TABLE_COLUMNS,
    SEAT_COLUMNS,
    SUMMARY_COLUMNS,
    dumps,
    entry_from_row,
    game_from_row,
    group_seats,
    stats_from_row,
    summary_from_row,
    table_from_row,
)
from .sharding import ShardScope, fetch_owned

T = TypeVar("T")

_INSERT_GAME = (
    "INSERT INTO games (game_id, guild_id, channel_id, table_id, series_id, game_number,"
    " rules_json, finishing_order_json, durak_seat, losing_seats_json, started_at, ended_at,"
    " seed_commitment, seed, card_order_json, actions_json, recorded_at, assisted)"
    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
    " ON CONFLICT (game_id) DO NOTHING"
)
_INSERT_SEAT = (
    "INSERT INTO game_seats (game_id, seat, guild_id, ended_at, kind, user_id, ai_level,"
    " player_key, display_name, team, place, result, mu_after, sigma_after)"
    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
)
# A player's aggregate row, created empty the first time it is needed.
_NEW_GUILD_ROW = (
    "INSERT INTO guild_stats (guild_id, player_key, kind, user_id, ai_level, display_name)"
    " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING"
)
_NEW_GLOBAL_ROW = (
    "INSERT INTO global_stats (player_key, kind, user_id, ai_level, display_name)"
    " VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING"
)
# One game's result added to an aggregate row; parameters (name, win, loss, draw, win, win).
_TALLY = (
    "display_name = ?, games = games + 1, wins = wins + ?, losses = losses + ?,"
    " draws = draws + ?,"
    " current_streak = CASE WHEN ? > 0 THEN current_streak + 1 ELSE 0 END,"
    " best_streak = CASE WHEN ? > 0 AND current_streak + 1 > best_streak"
    " THEN current_streak + 1 ELSE best_streak END"
)
_ADD_TO_GUILD_ROW = (
    f"UPDATE guild_stats SET {_TALLY}, mu = ?, sigma = ?, rating = ?"
    " WHERE guild_id = ? AND player_key = ?"
)
_ADD_TO_GLOBAL_ROW = f"UPDATE global_stats SET {_TALLY} WHERE player_key = ?"

_LEADERBOARD_ORDER: dict[str, str] = {
    "wins": "wins DESC, games ASC, rating DESC, player_key",
    "win_rate": "CAST(wins AS DOUBLE PRECISION) / games DESC, games DESC, player_key",
    "rating": "rating DESC, games DESC, player_key",
}


def marks(n: int) -> str:
    """``?, ?, …`` for an ``IN (…)`` list of ``n`` values."""
    return ", ".join("?" * n)


@lru_cache(maxsize=64)
def save_tables_sql(n: int) -> str:
    """Save ``n`` tables (distinct ids; ``table_values`` of each, in order) in one statement,
    with the lost-update guard: an older version never overwrites a newer one, an equal
    version does (message ids can change without an engine action)."""
    row = f"({marks(11)})"
    return (
        f"INSERT INTO saved_tables ({SAVED_TABLE_COLUMNS}) VALUES {', '.join([row] * n)}"
        " ON CONFLICT (table_id) DO UPDATE SET guild_id = excluded.guild_id,"
        " channel_id = excluded.channel_id, thread_id = excluded.thread_id,"
        " lobby_message_id = excluded.lobby_message_id,"
        " table_message_id = excluded.table_message_id,"
        " state_json = excluded.state_json, meta_json = excluded.meta_json,"
        " status = excluded.status, version = excluded.version,"
        " updated_at = excluded.updated_at"
        " WHERE excluded.version >= saved_tables.version"
    )


def stored_versions_sql(n: int) -> str:
    return f"SELECT table_id, version FROM saved_tables WHERE table_id IN ({marks(n)})"


def refused_saves(tables: Sequence[SavedTable], found: Iterable[Row]) -> dict[str, int]:
    """The tables a save refused (a newer version is stored; ``found`` are the stored
    ``(table_id, version)`` rows), each with the stored version (-1: none)."""
    stored = {str(row[0]): int(row[1]) for row in found}
    return {
        t.table_id: stored.get(t.table_id, -1)
        for t in tables
        if stored.get(t.table_id, -1) != t.version
    }


class SqlStorage(SettingsStore, PuzzleQueries):
    """Every storage method but ``save_table``, over a backend's transactions (the daily
    puzzles' in ``puzzle_queries.py``)."""

    #: With a scope, ``load_tables`` returns only the tables of this process's guilds.
    shards: ShardScope | None

    def save_table_at_once(self, t: SavedTable) -> bool:
        return False  # a backend that writes without waiting says so

    @abstractmethod
    async def close(self) -> None: ...

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.close()

    @abstractmethod
    async def _transaction(
        self, body: Callable[[Connection], Awaitable[T]], *, write: bool
    ) -> T: ...

    async def transaction(self, body: Callable[[Connection], Awaitable[T]], *, write: bool) -> T:
        return await self._transaction(body, write=write)

    # -- games --------------------------------------------------------------------

    async def record_game(self, rec: GameRecord) -> RecordedGame:
        outcomes = seat_outcomes(rec)
        by_num = rec.seats_by_number
        keys = sorted({s.player_key for s in rec.seats})
        first_seat = {o.player_key: by_num[o.seat] for o in reversed(outcomes)}
        who = [
            (k, first_seat[k].kind, first_seat[k].user_id, first_seat[k].ai_level,
             first_seat[k].display_name)
            for k in keys
        ]  # fmt: skip

        async def body(conn: Connection) -> RecordedGame:
            t = conn.dialect.time
            if rec.tournament is not None:
                await check_link(conn, rec)
            inserted = await conn.execute(
                _INSERT_GAME,
                rec.game_id, rec.guild_id, rec.channel_id, rec.table_id, rec.series_id,
                rec.game_number, dumps(rec.rules), dumps(rec.finishing_order), rec.durak_seat,
                dumps(rec.losing_seats), t(rec.started_at), t(rec.ended_at),
                rec.seed_commitment, rec.seed, dumps(rec.card_order), dumps(rec.actions),
                t(datetime.now(UTC)), int(rec.assisted),
            )  # fmt: skip
            if not inserted:  # already recorded (perhaps by another process): no-op
                return RecordedGame(rec.game_id)
            if rec.assisted:  # a practice game: its seats, and no rating or tally changes
                await _record_assisted_seats(conn, rec, outcomes)
                return RecordedGame(rec.game_id)
            prior = await _lock_ratings(conn, rec, keys, who)
            new = rate_game(rec, {k: prior.get(k, DEFAULT_RATING) for k in keys})
            ended = t(rec.ended_at)
            seat_rows, guild_rows, global_rows = _tally_rows(rec, outcomes, new, ended)
            await conn.executemany(_INSERT_SEAT, seat_rows)
            await conn.executemany(_ADD_TO_GUILD_ROW, guild_rows)
            await conn.executemany(_ADD_TO_GLOBAL_ROW, global_rows)
            if (link := rec.tournament) is not None:
                await conn.execute(
                    INSERT_LINK, rec.game_id, link.tournament_id, link.round, link.table
                )
            return RecordedGame(rec.game_id, rating_changes(rec, prior, new))

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

        async def body(conn: Connection) -> bool:
            new = await conn.execute(
                "INSERT INTO series_results (series_id, guild_id, winners_json, losers_json,"
                " finished_at) VALUES (?, ?, ?, ?, ?) ON CONFLICT (series_id) DO NOTHING",
                series_id, guild_id, dumps(winners), dumps(losers),
                conn.dialect.time(datetime.now(UTC)),
            )  # fmt: skip
            if not new:
                return False  # already counted
            for key, user_id, column in changes:
                found = await conn.execute(
                    f"UPDATE guild_stats SET {column} = {column} + 1"
                    " WHERE guild_id = ? AND player_key = ?",
                    guild_id,
                    key,
                )
                if not found:
                    raise UnknownPlayer(guild_id, user_id)  # rolls the series back
            for key, _user_id, column in changes:
                await conn.execute(
                    f"UPDATE global_stats SET {column} = {column} + 1 WHERE player_key = ?", key
                )
            return True

        return await self._transaction(body, write=True)

    async def get_game(self, game_id: str) -> GameRecord:
        async def body(conn: Connection) -> GameRecord:
            row = await conn.fetchrow(
                f"SELECT g.*, {LINK_COLUMNS} FROM {LINKED_GAMES} WHERE g.game_id = ?", game_id
            )
            if row is None:
                raise GameNotFound(game_id)
            seats = await conn.fetch(
                f"SELECT {SEAT_COLUMNS} FROM game_seats WHERE game_id = ? ORDER BY seat",
                game_id,
            )
            return game_from_row(row, group_seats(seats)[game_id])

        return await self._transaction(body, write=False)

    # -- saved tables -------------------------------------------------------------

    async def load_tables(
        self, statuses: Sequence[TableStatus] = (TableStatus.LOBBY, TableStatus.RUNNING)
    ) -> list[SavedTable]:
        check_statuses(statuses)
        if not statuses:
            return []
        where = f"status IN ({marks(len(statuses))})"

        async def body(conn: Connection) -> list[SavedTable]:
            order = "updated_at, table_id"
            rows = await fetch_owned(conn, self.shards, "saved_tables", where, statuses, order)
            return [table_from_row(r) for r in rows]

        return await self._transaction(body, write=False)

    async def delete_table(self, table_id: str) -> bool:
        async def body(conn: Connection) -> bool:
            return await conn.execute("DELETE FROM saved_tables WHERE table_id = ?", table_id) > 0

        return await self._transaction(body, write=True)

    # -- guild and user settings --------------------------------------------------

    async def _settings(self, table: SettingsTable, owner_id: int) -> dict[str, str]:
        owner = SETTINGS_OWNER[table]

        async def body(conn: Connection) -> dict[str, str]:
            rows = await conn.fetch(f"SELECT key, value FROM {table} WHERE {owner} = ?", owner_id)
            return {str(row["key"]): str(row["value"]) for row in rows}

        return await self._transaction(body, write=False)

    async def _set_setting(self, table: SettingsTable, owner_id: int, key: str, value: str) -> None:
        owner = SETTINGS_OWNER[table]

        async def body(conn: Connection) -> None:
            await conn.execute(
                f"INSERT INTO {table} ({owner}, key, value) VALUES (?, ?, ?)"
                f" ON CONFLICT ({owner}, key) DO UPDATE SET value = excluded.value",
                owner_id,
                key,
                value,
            )

        await self._transaction(body, write=True)

    # -- queries ------------------------------------------------------------------

    async def leaderboard(self, query: LeaderboardQuery) -> LeaderboardPage:
        where = "guild_id = ? AND games > 0"
        params: list[object] = [query.guild_id]
        if not query.include_ai:
            where += " AND kind = 'human'"
        if query.sort == "win_rate":
            where += " AND games >= ?"
            params.append(query.min_games)
        page, page_size = query.page, query.page_size
        offset = (page - 1) * page_size

        async def body(conn: Connection) -> LeaderboardPage:
            count = await conn.fetchrow(f"SELECT COUNT(*) FROM guild_stats WHERE {where}", *params)
            total = int(count[0]) if count else 0
            rows = await conn.fetch(
                f"SELECT {', '.join(ENTRY_COLUMNS)} FROM guild_stats WHERE {where}"
                f" ORDER BY {_LEADERBOARD_ORDER[query.sort]} LIMIT ? OFFSET ?",
                *params,
                page_size,
                offset,
            )
            entries = [entry_from_row(r, offset + i + 1) for i, r in enumerate(rows)]
            pages = math.ceil(total / page_size)
            return LeaderboardPage(entries=entries, page=page, pages=pages, total=total)

        return await self._transaction(body, write=False)

    async def user_stats(self, user_id: int, guild_id: int | None) -> PlayerStats:
        key = f"user:{user_id}"

        async def body(conn: Connection) -> PlayerStats:
            if guild_id is None:
                r = await conn.fetchrow(
                    "SELECT *, NULL AS mu, NULL AS sigma, NULL AS rating"
                    " FROM global_stats WHERE player_key = ?",
                    key,
                )
            else:
                r = await conn.fetchrow(
                    "SELECT * FROM guild_stats WHERE guild_id = ? AND player_key = ?",
                    guild_id,
                    key,
                )
            stats = stats_from_row(r, user_id, guild_id)
            assisted = await _assisted_games(conn, user_id, guild_id)
            return stats.model_copy(update={"assisted_games": assisted}) if assisted else stats

        return await self._transaction(body, write=False)

    async def channel_history(
        self, guild_id: int, channel_id: int, limit: int = 10
    ) -> list[GameSummary]:
        check_limit(limit)

        async def body(conn: Connection) -> list[GameSummary]:
            rows = await conn.fetch(
                f"SELECT {SUMMARY_COLUMNS} FROM {LINKED_GAMES}"
                " WHERE g.guild_id = ? AND g.channel_id = ?"
                " ORDER BY g.ended_at DESC, g.game_id DESC LIMIT ?",
                guild_id,
                channel_id,
                limit,
            )
            seats = await _seats_of(conn, [r["game_id"] for r in rows])
            return [summary_from_row(r, seats[r["game_id"]]) for r in rows]

        return await self._transaction(body, write=False)


async def _seats_of(conn: Connection, game_ids: list[str]) -> dict[str, list[SeatRecord]]:
    if not game_ids:
        return {}
    rows = await conn.fetch(
        f"SELECT {SEAT_COLUMNS} FROM game_seats WHERE game_id IN ({marks(len(game_ids))})"
        " ORDER BY game_id, seat",
        *game_ids,
    )
    return group_seats(rows)


async def _record_assisted_seats(
    conn: Connection, rec: GameRecord, outcomes: Sequence[SeatOutcome]
) -> None:
    """An assisted game's seats, each with the rating it kept (a practice game rates nobody)."""
    keys = sorted({s.player_key for s in rec.seats})
    rows = await conn.fetch(
        "SELECT player_key, mu, sigma FROM guild_stats WHERE guild_id = ?"
        f" AND player_key IN ({marks(len(keys))})",
        rec.guild_id,
        *keys,
    )
    kept = {r["player_key"]: Rating(r["mu"], r["sigma"]) for r in rows}
    by_num = rec.seats_by_number
    ended = conn.dialect.time(rec.ended_at)
    seat_rows = []
    for o in outcomes:
        s = by_num[o.seat]
        r = kept.get(o.player_key, DEFAULT_RATING)
        seat_rows.append(
            (rec.game_id, o.seat, rec.guild_id, ended, s.kind, s.user_id, s.ai_level,
             o.player_key, s.display_name, s.team, o.place, o.result, r.mu, r.sigma)
        )  # fmt: skip
    await conn.executemany(_INSERT_SEAT, seat_rows)


async def _assisted_games(conn: Connection, user_id: int, guild_id: int | None) -> int:
    """How many assisted (practice) games the user played, in the guild or anywhere (by
    ``user_id``: its index keeps this a look-up; ``player_key`` has none)."""
    where = "" if guild_id is None else " AND s.guild_id = ?"
    row = await conn.fetchrow(
        "SELECT COUNT(*) FROM game_seats s JOIN games g ON g.game_id = s.game_id"
        f" WHERE s.user_id = ? AND g.assisted = 1{where}",
        *((user_id,) if guild_id is None else (user_id, guild_id)),
    )
    return 0 if row is None else int(row[0])


async def _lock_ratings(
    conn: Connection, rec: GameRecord, keys: list[str], who: list[tuple[Any, ...]]
) -> dict[str, Rating]:
    """The players' rows made where missing and locked in key order (no deadlock between two
    games' writes); their ratings before this game."""
    await conn.executemany(_NEW_GUILD_ROW, [(rec.guild_id, *w) for w in who])
    rows = await conn.fetch(
        "SELECT player_key, mu, sigma FROM guild_stats WHERE guild_id = ?"
        f" AND player_key IN ({marks(len(keys))})"
        f" ORDER BY player_key{conn.dialect.for_update}",
        rec.guild_id,
        *keys,
    )
    await conn.executemany(_NEW_GLOBAL_ROW, who)
    if conn.dialect.row_locks:
        await conn.fetch(
            f"SELECT 1 FROM global_stats WHERE player_key IN ({marks(len(keys))})"
            " ORDER BY player_key FOR UPDATE",
            *keys,
        )
    return {r["player_key"]: Rating(r["mu"], r["sigma"]) for r in rows}


def _tally_rows(
    rec: GameRecord, outcomes: Sequence[SeatOutcome], new: dict[str, Rating], ended: object
) -> tuple[list[tuple[Any, ...]], list[tuple[Any, ...]], list[tuple[Any, ...]]]:
    """The game's seat rows and what each player's guild and global tallies add (``ended``:
    the game's end as the dialect stores a time)."""
    by_num = rec.seats_by_number
    seat_rows: list[tuple[Any, ...]] = []
    guild_rows: list[tuple[Any, ...]] = []
    global_rows: list[tuple[Any, ...]] = []
    for o in outcomes:
        s = by_num[o.seat]
        r = new[o.player_key]
        seat_rows.append(
            (rec.game_id, o.seat, rec.guild_id, ended, s.kind, s.user_id, s.ai_level,
             o.player_key, s.display_name, s.team, o.place, o.result, r.mu, r.sigma)
        )  # fmt: skip
        tally = (s.display_name, o.win, o.loss, o.draw, o.win, o.win)
        guild_rows.append((*tally, r.mu, r.sigma, r.ordinal, rec.guild_id, o.player_key))
        global_rows.append((*tally, o.player_key))
    return seat_rows, guild_rows, global_rows
