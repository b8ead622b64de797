"""A database made by the release before the shared schema (the migrations at commit 86e84cf,
frozen in ``legacy_*_v5.sql``) opens in place with today's code on both backends: it is
upgraded to the latest version (v6, tournaments) without touching a table of v1–v5, every row
is read back as it was written, new writes (tournaments too) add to the old rows, and the
upgraded schema is the one today's code makes from nothing, whose v1–v5 part is the frozen
one."""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Callable
from datetime import datetime
from pathlib import Path

import asyncpg
import pytest

from bot.storage import (
    GameRecord,
    LeaderboardQuery,
    PostgresStorage,
    SavedTable,
    SqliteStorage,
    StaleTableVersion,
    Storage,
    TableStatus,
    TournamentLink,
)
from bot.storage import migrations as mig
from bot.tournaments.logic import Format, Pairing, PlayedGame, SeatedTable, TournamentSettings
from bot.tournaments.storage import NewTournament, TournamentStatus, TournamentStore
from tests.bot.storage.pg_server import drop_schema, fresh_schema

MakeGame = Callable[..., GameRecord]
HERE = Path(__file__).parent
T = "2026-10-01T12:00:00.250000+00:00"
# The data a release at schema v5 wrote: literal SQL that both databases accept (the
# times are ISO text in SQLite and TIMESTAMPTZ literals in PostgreSQL).
OLD_ROWS = (
    "INSERT INTO schema_migrations (version, name, applied_at) VALUES"
    f" (1, 'games, seats and win/loss aggregates', '{T}'),"
    f" (2, 'openskill ratings per guild', '{T}'),"
    f" (3, 'saved tables for resuming after a restart', '{T}'),"
    f" (4, 'per-guild bot settings (e.g. card pictures on/off)', '{T}'),"
    f" (5, 'per-user bot settings (e.g. turn notifications)', '{T}')",
    "INSERT INTO games (game_id, guild_id, channel_id, table_id, series_id, game_number,"
    " rules_json, finishing_order_json, durak_seat, losing_seats_json, started_at, ended_at,"
    " seed_commitment, seed, card_order_json, actions_json, recorded_at) VALUES"
    f" ('old-1', 1, 100, 'table-100', 'series-0', 3, '{{\"preset\":\"classic\"}}', '[0]', 1,"
    f" '[1]', '{T}', '{T}', 'ab', 'cd', '[\"6H\",\"AS\"]', '[\"0 attack 6H\",\"1 take\"]', '{T}')",
    "INSERT INTO game_seats (game_id, seat, guild_id, ended_at, kind, user_id, ai_level,"
    " player_key, display_name, team, place, result, mu_after, sigma_after) VALUES"
    f" ('old-1', 0, 1, '{T}', 'human', 1, NULL, 'user:1', 'alice', NULL, 1, 'win', 27.5, 8.0),"
    f" ('old-1', 1, 1, '{T}', 'human', {2**62}, NULL, 'user:{2**62}', 'bob', NULL, 2, 'loss',"
    " 22.5, 8.0)",
    "INSERT INTO guild_stats (guild_id, player_key, kind, user_id, ai_level, display_name,"
    " games, wins, losses, draws, series_won, series_lost, current_streak, best_streak, mu,"
    " sigma, rating) VALUES"
    " (1, 'user:1', 'human', 1, NULL, 'alice', 4, 3, 1, 0, 1, 0, 2, 3, 27.5, 8.0, 3.5),"
    f" (1, 'user:{2**62}', 'human', {2**62}, NULL, 'bob', 4, 1, 3, 0, 0, 1, 0, 1, 22.5, 8.0,"
    " -1.5)",
    "INSERT INTO global_stats (player_key, kind, user_id, ai_level, display_name, games, wins,"
    " losses, draws, series_won, series_lost, current_streak, best_streak) VALUES"
    " ('user:1', 'human', 1, NULL, 'alice', 6, 4, 2, 0, 1, 0, 2, 3),"
    f" ('user:{2**62}', 'human', {2**62}, NULL, 'bob', 4, 1, 3, 0, 0, 1, 0, 1)",
    "INSERT INTO series_results (series_id, guild_id, winners_json, losers_json, finished_at)"
    f" VALUES ('series-0', 1, '[1]', '[{2**62}]', '{T}')",
    "INSERT INTO saved_tables (table_id, guild_id, channel_id, thread_id, lobby_message_id,"
    " table_message_id, state_json, meta_json, status, version, updated_at) VALUES"
    f" ('t1', 1, 100, NULL, 55, {2**62}, '{{\"v\": 7}}', '{{\"score\": [1, 0]}}', 'running', 7,"
    f" '{T}')",
    "INSERT INTO guild_settings (guild_id, key, value) VALUES (1, 'images', 'off')",
    f"INSERT INTO user_settings (user_id, key, value) VALUES ({2**62}, 'notify', 'dm')",
)
BOB = 2**62  # a snowflake-sized id
#: The versions after the upgrade; v6 (tournaments), v7 (their check-in), v8 (result
#: overrides) and v9 (the daily puzzles) are added in place.
VERSIONS = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]


def _before_v6(name: str) -> bool:
    # Every table, index and constraint of v6 and later is named after the tournaments (v6,
    # v7, v8) or the daily puzzles (v9) it holds.
    return not name.startswith(("tournament", "puzzle"))


#: v10's one change to a table of v1: the games' ``assisted`` column, at the end.
_V10_COLUMN = ", assisted INTEGER NOT NULL DEFAULT 0)"


def _v1_to_v5(schema: list[tuple[str, str, str]]) -> list[tuple[str, str, str]]:
    """The schema's statements of v1–v5, as those versions wrote them (v10's column aside)."""
    return [
        (kind, name, sql.replace(_V10_COLUMN, ")") if name == "games" else sql)
        for kind, name, sql in schema
        if _before_v6(name)
    ]


async def _check_old_data_and_new_writes(s: Storage, make_game: MakeGame) -> None:
    """Everything the old release wrote reads back as written; new writes add to it."""
    ts = TournamentStore(s)
    game = await s.get_game("old-1")
    assert (game.rules, game.card_order, game.actions) == (
        {"preset": "classic"}, ["6H", "AS"], ["0 attack 6H", "1 take"],
    )  # fmt: skip
    assert (game.finishing_order, game.durak_seat, game.game_number) == ([0], 1, 3)
    assert [(x.user_id, x.display_name) for x in game.seats] == [(1, "alice"), (BOB, "bob")]
    assert game.ended_at == datetime.fromisoformat(T)
    assert not game.assisted  # v10: a game of an earlier release was rated
    assert [g.game_id for g in await s.channel_history(1, 100)] == ["old-1"]
    alice = await s.user_stats(1, 1)
    assert (alice.games, alice.wins, alice.series_won, alice.best_streak) == (4, 3, 1, 3)
    assert (alice.mu, alice.sigma, alice.rating) == (27.5, 8.0, 3.5)
    assert (await s.user_stats(1, None)).games == 6
    assert (await s.user_stats(BOB, 1)).losses == 3
    board = await s.leaderboard(LeaderboardQuery(1, "rating", min_games=0))
    assert [e.user_id for e in board.entries] == [1, BOB]
    [table] = await s.load_tables()
    assert (table.table_id, table.version, table.meta) == ("t1", 7, {"score": [1, 0]})
    assert (table.table_message_id, table.state_json) == (BOB, '{"v": 7}')
    assert await s.guild_settings(1) == {"images": "off"}
    assert await s.user_settings(BOB) == {"notify": "dm"}
    assert await s.finish_series(1, "series-0", [1], [BOB]) is False  # already counted

    await s.record_game(make_game([1, BOB], [0], 1))
    alice = await s.user_stats(1, 1)
    # The new game counts on top of the old row, rated from the stored rating.
    assert (alice.games, alice.wins, alice.current_streak, alice.best_streak) == (5, 4, 3, 3)
    assert alice.mu is not None and alice.mu > 27.5
    assert (await s.user_stats(1, None)).games == 7
    with pytest.raises(StaleTableVersion):
        stale = SavedTable(
            table_id="t1",
            guild_id=1,
            channel_id=100,
            state_json="{}",
            status=TableStatus.RUNNING,
            version=6,
        )
        await s.save_table(stale)
    assert await s.finish_series(1, "series-1", [1], [BOB]) is True
    assert (await s.user_stats(BOB, None)).series_lost == 2

    # v6: a tournament of the old players, its game linked to its table and counted.
    settings = TournamentSettings("Old friends", Format.SWISS, table_size=2, rounds=1)
    new = NewTournament(
        tournament_id="cup", guild_id=1, channel_id=100, organiser_id=1, settings=settings
    )
    await ts.create_tournament(new)
    await ts.add_entrant("cup", 1, 3.5)
    await ts.add_entrant("cup", BOB, -1.5)
    await ts.set_tournament_status("cup", TournamentStatus.RUNNING)
    await ts.save_round("cup", Pairing(1, (SeatedTable(1, (1, BOB)),)))
    link = TournamentLink(tournament_id="cup", round=1, table=1)
    game = make_game([1, BOB], [0], 1)
    await s.record_game(GameRecord.model_validate({**game.model_dump(), "tournament": link}))
    assert await ts.tournament_games("cup") == [PlayedGame(1, 1, (1, BOB), (0,), 1)]
    assert (await s.get_game(game.game_id)).tournament == link
    assert (await s.user_stats(1, 1)).games == 6
    assert [t.tournament_id for t in await ts.guild_tournaments(1)] == ["cup"]

    # v10: an assisted (practice) game is kept and marked, and changes no rating or tally.
    before = await s.user_stats(1, 1)
    practice = make_game([1, BOB], [0], 1)
    await s.record_game(GameRecord.model_validate({**practice.model_dump(), "assisted": True}))
    assert (await s.get_game(practice.game_id)).assisted
    assert await s.user_stats(1, 1) == before.model_copy(update={"assisted_games": 1})


# -- SQLite -----------------------------------------------------------------------


def _sqlite_schema(path: Path) -> list[tuple[str, str, str]]:
    """Each table's and index's CREATE statement (as SQLite keeps it), whitespace aside."""
    with sqlite3.connect(path) as conn:
        rows = conn.execute(
            "SELECT type, name, sql FROM sqlite_master WHERE sql IS NOT NULL ORDER BY name"
        ).fetchall()
    return [(kind, name, " ".join(sql.split())) for kind, name, sql in rows]


def _build_legacy_sqlite(path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with sqlite3.connect(path, isolation_level=None) as conn:
        conn.executescript((HERE / "legacy_sqlite_v5.sql").read_text())
        for stmt in OLD_ROWS:
            conn.execute(stmt)


def _sqlite_versions(path: Path) -> list[int]:
    with sqlite3.connect(path) as conn:
        return [r[0] for r in conn.execute("SELECT version FROM schema_migrations ORDER BY 1")]


async def test_sqlite_database_of_the_previous_release_opens_in_place(
    db_path: Path, make_game: MakeGame
) -> None:
    _build_legacy_sqlite(db_path)
    legacy = _sqlite_schema(db_path)
    async with await SqliteStorage.open(db_path) as s:
        await _check_old_data_and_new_writes(s, make_game)
    upgraded = _sqlite_schema(db_path)
    assert _v1_to_v5(upgraded) == legacy  # v1–v5 untouched
    assert len(upgraded) > len(legacy)
    fresh = db_path.with_name("fresh.sqlite3")
    async with await SqliteStorage.open(fresh):
        pass
    assert upgraded == _sqlite_schema(fresh)  # as if made by today's code
    assert _sqlite_versions(db_path) == VERSIONS


async def test_sqlite_fresh_schema_is_the_previous_releases(tmp_path: Path) -> None:
    legacy, fresh = tmp_path / "legacy.sqlite3", tmp_path / "fresh.sqlite3"
    _build_legacy_sqlite(legacy)
    async with await SqliteStorage.open(fresh):
        pass
    # The same statements, word for word, up to v5.
    assert _v1_to_v5(_sqlite_schema(fresh)) == _sqlite_schema(legacy)
    assert _sqlite_versions(fresh) == list(range(1, mig.LATEST_VERSION + 1)) == VERSIONS


# -- PostgreSQL -------------------------------------------------------------------


async def _pg(url: str, *statements: str) -> list[asyncpg.Record]:
    """Run ``statements`` on a connection of their own; the rows of the last."""
    conn = await asyncpg.connect(url)
    try:
        rows: list[asyncpg.Record] = []
        for stmt in statements:
            rows = list(await conn.fetch(stmt))
        return rows
    finally:
        await conn.close()


async def _build_legacy_pg(url: str) -> None:
    lines = (HERE / "legacy_postgres_v5.sql").read_text().splitlines()
    await _pg(url, *(line for line in lines if line and not line.startswith("--")), *OLD_ROWS)


async def _pg_schema(url: str) -> list[tuple[str, ...]]:
    """Columns (type, nullability, default, collation), indexes and constraints."""
    [(schema,)] = await _pg(url, "SELECT current_schema()")
    rows = await _pg(
        url,
        "SELECT table_name, ordinal_position, column_name, data_type, is_nullable,"
        f" column_default, collation_name FROM information_schema.columns"
        f" WHERE table_schema = '{schema}' ORDER BY 1, 2",
    )
    rows += await _pg(
        url, f"SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = '{schema}' ORDER BY 1"
    )
    rows += await _pg(
        url,
        "SELECT conrelid::regclass::text, conname, pg_get_constraintdef(oid) FROM pg_constraint"
        f" WHERE connamespace = '{schema}'::regnamespace ORDER BY 1, 2",
    )
    return [tuple(re.sub(rf"\b{schema}\.", "", str(v)) for v in r) for r in rows]


def _pg_v1_to_v5(schema: list[tuple[str, ...]]) -> list[tuple[str, ...]]:
    """The schema's rows of v1–v5 (v10's ``games.assisted`` column aside)."""
    return [r for r in schema if _before_v6(r[0]) and r[:3:2] != ("games", "assisted")]


async def _pg_versions(url: str) -> list[int]:
    return [r[0] for r in await _pg(url, "SELECT version FROM schema_migrations ORDER BY 1")]


@pytest.mark.slow
async def test_postgres_database_of_the_previous_release_opens_in_place(
    pg_url: str, pg_base_url: str, make_game: MakeGame
) -> None:
    await _build_legacy_pg(pg_url)
    legacy = await _pg_schema(pg_url)
    async with await PostgresStorage.open(pg_url) as s:
        await _check_old_data_and_new_writes(s, make_game)
    upgraded = await _pg_schema(pg_url)
    assert _pg_v1_to_v5(upgraded) == legacy  # v1–v5 untouched
    assert len(upgraded) > len(legacy)
    fresh, name = await fresh_schema(pg_base_url)
    try:
        async with await PostgresStorage.open(fresh):
            pass
        assert upgraded == await _pg_schema(fresh)  # as if made by today's code
    finally:
        await drop_schema(pg_base_url, name)
    assert await _pg_versions(pg_url) == VERSIONS


async def test_postgres_fresh_schema_is_the_previous_releases(
    pg_url: str, pg_base_url: str
) -> None:
    await _build_legacy_pg(pg_url)
    fresh, name = await fresh_schema(pg_base_url)
    try:
        async with await PostgresStorage.open(fresh):
            pass
        legacy = await _pg_schema(pg_url)
        assert len(legacy) > 80  # every column, index and constraint
        assert _pg_v1_to_v5(await _pg_schema(fresh)) == legacy
        assert await _pg_versions(fresh) == VERSIONS
    finally:
        await drop_schema(pg_base_url, name)
