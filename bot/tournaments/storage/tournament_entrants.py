"""A tournament's entrants: sign-up, leaving, withdrawal after the start, check-in, the list.
Written once for SQLite and PostgreSQL; each write that depends on the tournament's state locks
its row first (:func:`~bot.tournaments.storage.tournament_queries.locked_tournament`)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any

from bot.storage import InvalidQuery
from bot.storage.connection import Connection, Row
from bot.storage.rows import dumps

from .errors import AlreadyJoined, LeaveClosed, SignupClosed, TournamentFull
from .tournament_models import EntrantRecord, TournamentStatus
from .tournament_queries import OnStorage, locked_tournament, stored_tournament
from .tournament_rows import ENTRANT_COLUMNS, entrant_from_row, settings_from_json

Status = TournamentStatus


class TournamentEntrants(OnStorage):
    """Sign-up, leaving, withdrawal, check-in and the list of a tournament's entrants."""

    # -- entrants -------------------------------------------------------------------

    async def add_entrant(self, tournament_id: str, user_id: int, rating: float) -> EntrantRecord:
        """Sign a player up, last in sign-up order, with the rating they seed by. Refused
        (``SignupRefused``, nothing written): not in sign-up (``SignupClosed``), joined already
        (``AlreadyJoined``), the player limit reached (``TournamentFull``)."""

        async def body(conn: Connection) -> EntrantRecord:
            row = await locked_tournament(conn, tournament_id)
            if row["status"] != Status.SIGNUP:
                raise SignupClosed(tournament_id, user_id, "sign-up is closed")
            order = await insert_entrant(conn, row, tournament_id, user_id, rating)
            return EntrantRecord(user_id=user_id, rating=rating, signup_order=order)

        return await self._transaction(body, write=True)

    async def remove_entrant(self, tournament_id: str, user_id: int) -> bool:
        """A player leaves during the sign-up; False if they had not joined. After the start:
        ``LeaveClosed`` (withdraw them instead)."""

        async def body(conn: Connection) -> bool:
            row = await locked_tournament(conn, tournament_id)
            if row["status"] != Status.SIGNUP:
                raise LeaveClosed(tournament_id, user_id, "leaving closes at the start")
            return bool(
                await conn.execute(
                    "DELETE FROM tournament_entrants WHERE tournament_id = ? AND user_id = ?",
                    tournament_id,
                    user_id,
                )
            )

        return await self._transaction(body, write=True)

    async def withdraw_entrant(self, tournament_id: str, user_id: int) -> bool:
        """Withdraw a player from a running tournament: no longer seated, results kept. False
        if they are not an entrant or were withdrawn already."""

        async def body(conn: Connection) -> bool:
            row = await locked_tournament(conn, tournament_id)
            if row["status"] != Status.RUNNING:
                raise InvalidQuery(
                    f"tournament {tournament_id!r} is {row['status']}: only a running one "
                    "withdraws players"
                )
            return bool(
                await conn.execute(
                    "UPDATE tournament_entrants SET withdrawn = 1"
                    " WHERE tournament_id = ? AND user_id = ? AND withdrawn = 0",
                    tournament_id,
                    user_id,
                )
            )

        return await self._transaction(body, write=True)

    async def check_in_entrant(self, tournament_id: str, user_id: int) -> bool:
        """An entrant confirms before the start (check-in): True if they are an entrant
        (checked in now or before), False if not. ``SignupClosed`` once it has started."""

        async def body(conn: Connection) -> bool:
            row = await locked_tournament(conn, tournament_id)
            if row["status"] != Status.SIGNUP:
                raise SignupClosed(tournament_id, user_id, "check-in closes at the start")
            await conn.execute(
                "UPDATE tournament_entrants SET checked_in = 1"
                " WHERE tournament_id = ? AND user_id = ?",
                tournament_id,
                user_id,
            )
            found = await conn.fetchrow(
                "SELECT checked_in FROM tournament_entrants"
                " WHERE tournament_id = ? AND user_id = ?",
                tournament_id,
                user_id,
            )
            return found is not None

        return await self._transaction(body, write=True)

    async def tournament_entrants(self, tournament_id: str) -> list[EntrantRecord]:
        """Every entrant, withdrawn ones too, in sign-up order; with the seeds by hand, the
        late entrants' first rounds and the requested byes the tournament's options keep."""

        async def body(conn: Connection) -> list[EntrantRecord]:
            t = await stored_tournament(conn, tournament_id)
            rows = await conn.fetch(
                f"SELECT {ENTRANT_COLUMNS}, checked_in FROM tournament_entrants"
                " WHERE tournament_id = ? ORDER BY signup_order",
                tournament_id,
            )
            return with_options([entrant_from_row(r) for r in rows], t.options)

        return await self._transaction(body, write=False)

    async def add_late_entrant(
        self, tournament_id: str, user_id: int, rating: float, first_round: int
    ) -> EntrantRecord:
        """A player joins a running tournament, to play from round ``first_round`` (issue #47:
        the runner checks the format and the round). Refused (``SignupRefused``, nothing
        written): not running, joined already, the player limit reached."""

        async def body(conn: Connection) -> EntrantRecord:
            row = await locked_tournament(conn, tournament_id)
            if row["status"] != Status.RUNNING:
                raise SignupClosed(tournament_id, user_id, "the tournament is not running")
            order = await insert_entrant(conn, row, tournament_id, user_id, rating)
            options = json.loads(row["options_json"])
            late = {**options.get(LATE, {}), str(user_id): first_round}
            await conn.execute(
                "UPDATE tournaments SET options_json = ? WHERE tournament_id = ?",
                dumps({**options, LATE: late}), tournament_id,
            )  # fmt: skip
            return EntrantRecord(
                user_id=user_id, rating=rating, signup_order=order, joined_round=first_round
            )

        return await self._transaction(body, write=True)


async def insert_entrant(
    conn: Connection, row: Row, tournament_id: str, user_id: int, rating: float
) -> int:
    """Add the entrant, last in sign-up order (its position returned). ``row``: the
    tournament's, locked. Refused (nothing written): joined already, the limit reached."""
    counts = await conn.fetchrow(
        "SELECT COUNT(*) AS entrants, COALESCE(MAX(signup_order), -1) + 1 AS next,"
        " SUM(CASE WHEN user_id = ? THEN 1 ELSE 0 END) AS mine"
        " FROM tournament_entrants WHERE tournament_id = ?",
        user_id,
        tournament_id,
    )
    assert counts is not None
    if counts["mine"]:
        raise AlreadyJoined(tournament_id, user_id, "joined already")
    limit = settings_from_json(row["settings_json"]).player_limit
    if counts["entrants"] >= limit:
        raise TournamentFull(tournament_id, user_id, f"full ({limit} players)")
    order = int(counts["next"])
    await conn.execute(
        f"INSERT INTO tournament_entrants ({ENTRANT_COLUMNS}, tournament_id, joined_at)"
        " VALUES (?, ?, ?, ?, ?, ?)",
        user_id, rating, order, 0, tournament_id, conn.dialect.time(datetime.now(UTC)),
    )  # fmt: skip
    return order


#: The tournament options that hold what the entrants' rows do not (issue #47): the seeds by
#: hand (user ids, seed 1 first), the late entrants' first rounds and the requested byes (by
#: user id as text: JSON's keys).
SEEDS, LATE, RESTS = "seeds", "late_entrants", "rests"


def with_options(entrants: list[EntrantRecord], options: Mapping[str, Any]) -> list[EntrantRecord]:
    seeds = {user: i + 1 for i, user in enumerate(options.get(SEEDS) or [])}
    late = options.get(LATE) or {}
    rests = options.get(RESTS) or {}
    return [
        e.model_copy(
            update={
                "seed": seeds.get(e.user_id, 0),
                "joined_round": int(late.get(str(e.user_id), 1)),
                "rests": tuple(sorted(int(r) for r in rests.get(str(e.user_id), ()))),
            }
        )
        for e in entrants
    ]
