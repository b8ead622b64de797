"""The organiser's result of a tournament table (``bot.tournaments.Override``): stored on the
paired table, with who recorded it and when; the standings and the bracket read it instead of
the table's games (``StoredRound.overrides``). Written once for SQLite and PostgreSQL."""

from __future__ import annotations

from datetime import UTC, datetime

from bot.storage import InvalidQuery
from bot.storage.connection import Connection, Row
from bot.storage.rows import dumps
from bot.tournaments.logic import Override, OverrideKind

from .tournament_models import RoundStatus, TournamentStatus
from .tournament_queries import OnStorage, locked_tournament
from .tournament_rows import seats_from_json


class TournamentOverrides(OnStorage):
    """The organiser's result of a table."""

    async def override_tournament_table(
        self, tournament_id: str, o: Override, by: int, *, replace: bool = False
    ) -> bool:
        """Record the organiser's result ``o`` of a table of the round being played (``by``:
        who recorded it); False if the table has one already and ``replace`` is not set (the
        first stands). With ``replace``, the table's recorded result is replaced, also in a
        finished round (the runner allows it until the next round is paired).
        ``InvalidQuery`` (nothing written): the tournament is not running, the round is not the
        one being played, no such table, or the player does not sit at it."""
        round_number, table_number, player = o.round, o.table, o.player
        kind = OverrideKind(o.kind)

        async def body(conn: Connection) -> bool:
            where = f"tournament {tournament_id!r} round {round_number} table {table_number}"
            await running(conn, tournament_id, where)
            table = await conn.fetchrow(
                "SELECT t.seats_json, t.override_json, r.status FROM tournament_tables t"
                " JOIN tournament_rounds r ON r.tournament_id = t.tournament_id"
                " AND r.round_number = t.round_number"
                " WHERE t.tournament_id = ? AND t.round_number = ? AND t.table_number = ?",
                tournament_id, round_number, table_number,
            )  # fmt: skip
            if table is None:
                raise InvalidQuery(f"{where} was not paired")
            replacing = replace and table["override_json"] is not None
            if table["status"] != RoundStatus.RUNNING and not replacing:
                raise InvalidQuery(f"{where}: the round is over")
            if player not in seats_from_json(table["seats_json"]):
                raise InvalidQuery(f"{where}: {player} does not sit there")
            if table["override_json"] is not None and not replacing:
                return False
            await conn.execute(
                "UPDATE tournament_tables SET override_json = ?, override_by = ?,"
                " override_at = ? WHERE tournament_id = ? AND round_number = ?"
                " AND table_number = ?",
                dumps({"kind": str(kind), "player": player}), by,
                conn.dialect.time(datetime.now(UTC)), tournament_id, round_number, table_number,
            )  # fmt: skip
            return True

        return await self._transaction(body, write=True)

    async def undo_tournament_override(
        self, tournament_id: str, round_number: int, table_number: int, *, reopen: bool
    ) -> bool:
        """Take back the organiser's result of a table of the last round: its match counts
        by its games again, and its round is being played again (``reopen``: its bot table is
        gone, so the runner opens a new one for the rest of the match). False if the table
        has no recorded result. ``InvalidQuery``: not running, not the last round."""

        async def body(conn: Connection) -> bool:
            where = f"tournament {tournament_id!r} round {round_number} table {table_number}"
            row = await running(conn, tournament_id, where)
            if row["current_round"] != round_number:
                raise InvalidQuery(f"{where}: round {row['current_round']} is paired")
            reset = ", bot_table_id = NULL" if reopen else ""
            changed = await conn.execute(
                f"UPDATE tournament_tables SET override_json = NULL, override_by = NULL,"
                f" override_at = NULL{reset} WHERE tournament_id = ? AND round_number = ?"
                " AND table_number = ? AND override_json IS NOT NULL",
                tournament_id, round_number, table_number,
            )  # fmt: skip
            if changed:
                await conn.execute(
                    "UPDATE tournament_rounds SET status = ?, finished_at = NULL"
                    " WHERE tournament_id = ? AND round_number = ?",
                    RoundStatus.RUNNING, tournament_id, round_number,
                )  # fmt: skip
            return bool(changed)

        return await self._transaction(body, write=True)


async def running(conn: Connection, tournament_id: str, where: str) -> Row:
    """The tournament's row, locked; ``InvalidQuery`` unless it is running (``where``: what
    the write was about, for the message)."""
    row = await locked_tournament(conn, tournament_id)
    if row["status"] != TournamentStatus.RUNNING:
        raise InvalidQuery(f"{where}: the tournament is {row['status']}, not running")
    return row
