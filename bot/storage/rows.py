"""Conversions between database rows and storage models, shared by both backends (SQLite rows
and asyncpg records are both indexed by column name)."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable
from datetime import UTC, datetime
from typing import Any

import orjson

from .models import (
    GameRecord,
    GameSummary,
    LeaderboardEntry,
    PlayerStats,
    SavedTable,
    SeatRecord,
    TournamentLink,
)


def dumps(value: object) -> str:
    """Compact JSON text (orjson: every saved action writes a table's metadata)."""
    return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()


def parse_ts(value: str | datetime) -> datetime:
    # SQLite stores ISO text; PostgreSQL (TIMESTAMPTZ) hands back an aware datetime.
    if isinstance(value, datetime):
        return value.astimezone(UTC)
    return datetime.fromisoformat(value)


SEAT_COLUMNS = "game_id, seat, kind, user_id, ai_level, display_name, team"

#: A saved table's columns, in the order of :func:`table_values`.
SAVED_TABLE_COLUMNS = (
    "table_id, guild_id, channel_id, thread_id, lobby_message_id, table_message_id,"
    " state_json, meta_json, status, version, updated_at"
)


def table_values(t: SavedTable, updated_at: object) -> tuple[object, ...]:
    """The row of ``t`` (``SAVED_TABLE_COLUMNS``); ``updated_at`` as the dialect binds times."""
    return (
        t.table_id, t.guild_id, t.channel_id, t.thread_id, t.lobby_message_id,
        t.table_message_id, t.state_json, dumps(t.meta), t.status, t.version, updated_at,
    )  # fmt: skip


def _columns(row: Any, names: tuple[str, ...]) -> dict[str, Any]:
    """The named columns of ``row``, as the keyword arguments of a model with those fields."""
    return {name: row[name] for name in names}


def seat_from_row(row: sqlite3.Row) -> SeatRecord:
    return SeatRecord(
        **_columns(row, ("seat", "kind", "user_id", "ai_level", "display_name", "team"))
    )


def group_seats(rows: Iterable[sqlite3.Row]) -> dict[str, list[SeatRecord]]:
    out: dict[str, list[SeatRecord]] = {}
    for row in rows:
        out.setdefault(row["game_id"], []).append(seat_from_row(row))
    return out


#: ``games g`` with its tournament link (``l``), if it has one.
LINKED_GAMES = "games g LEFT JOIN tournament_games l ON l.game_id = g.game_id"
#: The link's columns, read through ``LINKED_GAMES`` (``link_from_row``).
LINK_COLUMNS = "l.tournament_id, l.round_number, l.table_number"
SUMMARY_COLUMNS = (
    "g.game_id, g.guild_id, g.channel_id, g.table_id, g.series_id, g.game_number,"
    " g.started_at, g.ended_at, g.finishing_order_json, g.durak_seat, g.losing_seats_json,"
    " g.assisted, " + LINK_COLUMNS
)


def link_from_row(row: Any) -> TournamentLink | None:
    """A game row's tournament link (``LINK_COLUMNS``); None for an ordinary game."""
    if row["tournament_id"] is None:
        return None
    return TournamentLink(
        tournament_id=row["tournament_id"], round=row["round_number"], table=row["table_number"]
    )


_GAME_COLUMNS = ("game_id", "guild_id", "channel_id", "table_id", "series_id", "game_number",
                 "durak_seat")  # fmt: skip


def _game_fields(row: Any) -> dict[str, Any]:
    """The columns a summary and a full record share (``SUMMARY_COLUMNS``), decoded."""
    return {
        **_columns(row, _GAME_COLUMNS),
        "started_at": parse_ts(row["started_at"]),
        "ended_at": parse_ts(row["ended_at"]),
        "finishing_order": json.loads(row["finishing_order_json"]),
        "losing_seats": json.loads(row["losing_seats_json"]),
        "tournament": link_from_row(row),
        "assisted": bool(row["assisted"]),
    }


def summary_from_row(row: sqlite3.Row, seats: list[SeatRecord]) -> GameSummary:
    return GameSummary(**_game_fields(row), seats=seats)


_TABLE_COLUMNS = ("table_id", "guild_id", "channel_id", "thread_id", "lobby_message_id",
                  "table_message_id", "state_json", "status", "version")  # fmt: skip


def table_from_row(row: sqlite3.Row) -> SavedTable:
    return SavedTable(**_columns(row, _TABLE_COLUMNS), meta=json.loads(row["meta_json"]))


def stats_from_row(row: Any, user_id: int, guild_id: int | None) -> PlayerStats:
    """A ``guild_stats``/``global_stats`` row; no row (or no game) gives zero stats."""
    if row is None or row["games"] == 0:
        return PlayerStats(user_id=user_id, guild_id=guild_id, display_name=None)
    return PlayerStats(user_id=user_id, guild_id=guild_id, **_columns(row, _STATS_COLUMNS))


_STATS_COLUMNS = ("display_name", "games", "wins", "losses", "draws", "series_won",
                  "series_lost", "current_streak", "best_streak", "rating", "mu",
                  "sigma")  # fmt: skip
#: A leaderboard line's columns (``entry_from_row``).
ENTRY_COLUMNS = ("kind", "user_id", "ai_level", "display_name", "games", "wins", "losses",
                 "draws", "rating", "best_streak")  # fmt: skip


def entry_from_row(row: Any, rank: int) -> LeaderboardEntry:
    return LeaderboardEntry(
        rank=rank, win_rate=row["wins"] / row["games"], **_columns(row, ENTRY_COLUMNS)
    )


def game_from_row(row: Any, seats: list[SeatRecord]) -> GameRecord:
    """A ``games`` row and its seats as the recorded game (JSON columns decoded)."""
    return GameRecord(
        **_game_fields(row),
        rules=json.loads(row["rules_json"]),
        seats=seats,
        seed_commitment=row["seed_commitment"],
        seed=row["seed"],
        card_order=json.loads(row["card_order_json"]),
        actions=json.loads(row["actions_json"]),
    )
