"""A tournament game's link to the paired table it was played at: ``record_game`` checks it
and writes it in the game's transaction. Plain SQL over the tournament tables of the one
schema (``migrations.py``); the tournament's own queries are ``bot.tournaments.storage``'s."""

from __future__ import annotations

import json

from .connection import Connection
from .errors import InvalidQuery
from .models import GameRecord

INSERT_LINK = (
    "INSERT INTO tournament_games (game_id, tournament_id, round_number, table_number)"
    " VALUES (?, ?, ?, ?)"
)


async def check_link(conn: Connection, rec: GameRecord) -> None:
    """Refuse a tournament game that was not played at its paired table: the table must exist
    in the game's guild with as many seats, and each human seat must hold the player paired
    there (an AI may play any seat: an AI seat, or a player's taken over)."""
    link = rec.tournament
    assert link is not None
    row = await conn.fetchrow(
        "SELECT t.seats_json, r.guild_id FROM tournament_tables t"
        " JOIN tournaments r ON r.tournament_id = t.tournament_id"
        " WHERE t.tournament_id = ? AND t.round_number = ? AND t.table_number = ?",
        link.tournament_id, link.round, link.table,
    )  # fmt: skip
    where = f"game {rec.game_id!r}: tournament {link.tournament_id!r}"
    if row is None:
        raise InvalidQuery(f"{where} has no table {link.table} in round {link.round}")
    if row["guild_id"] != rec.guild_id:
        raise InvalidQuery(f"{where} is in another guild")
    paired: list[int | None] = json.loads(row["seats_json"])
    played = [s.user_id for s in sorted(rec.seats, key=lambda s: s.seat)]
    if len(played) != len(paired) or any(
        user is not None and user != want for user, want in zip(played, paired, strict=False)
    ):
        raise InvalidQuery(f"{where}: seats {played} are not the paired {paired}")
