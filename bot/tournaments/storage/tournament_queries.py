"""The tournament's queries, written once for SQLite and PostgreSQL like ``bot.storage``'s and
run in a storage's transactions (``Storage.transaction``, through :class:`OnStorage`).

A tournament's writes that depend on its state (a sign-up, a status change, a round) first read
its row ``FOR UPDATE`` where rows can be locked (PostgreSQL; SQLite's write transaction holds
the file's lock): two sign-ups at the player limit, or two processes pairing the same round,
then run one after the other, and the second sees the first's result.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, Mapping, Sequence
from datetime import UTC, datetime
from typing import Literal, TypeVar

from bot.storage import InvalidQuery, Storage
from bot.storage.connection import Connection, Row, fetch_rows
from bot.storage.interface import check_limit
from bot.storage.rows import dumps, parse_ts
from bot.storage.sharding import ShardScope, fetch_owned
from bot.tournaments.logic import Pairing, PlayedGame, TournamentSettings

from .errors import SignupClosed, TournamentNotFound
from .tournament_models import (
    NewTournament,
    RoundStatus,
    StoredRound,
    TournamentRecord,
    TournamentStatus,
)
from .tournament_rows import (
    TOURNAMENT_COLUMNS,
    paired_table_from_row,
    played_game,
    settings_json,
    tournament_from_row,
)

T = TypeVar("T")
Status = TournamentStatus

#: The status changes a tournament may make, and the time column each one sets.
_MOVES: dict[tuple[Status, Status], str] = {
    (Status.SIGNUP, Status.RUNNING): "started_at",
    (Status.SIGNUP, Status.CANCELLED): "finished_at",
    (Status.RUNNING, Status.FINISHED): "finished_at",
    (Status.RUNNING, Status.CANCELLED): "finished_at",
}
_MESSAGE_COLUMNS = {"signup": "signup_message_id", "standings": "standings_message_id"}
_TABLE_KEY = "tournament_id = ? AND round_number = ? AND table_number = ?"


class OnStorage:
    """The tournament's queries over one storage: its transactions and its shards."""

    def __init__(self, storage: Storage) -> None:
        self.storage = storage

    @property
    def shards(self) -> ShardScope | None:
        return self.storage.shards

    async def _transaction(self, body: Callable[[Connection], Awaitable[T]], *, write: bool) -> T:
        return await self.storage.transaction(body, write=write)


class TournamentQueries(OnStorage):
    """Tournaments, rounds, their tables and the games played at them."""

    # -- the tournament -------------------------------------------------------------

    async def create_tournament(self, t: NewTournament) -> TournamentRecord:
        """Store a new tournament in sign-up; the same id again changes nothing and returns
        the stored one (a retried create after a restart)."""

        async def body(conn: Connection) -> TournamentRecord:
            time = conn.dialect.time
            deadline = None if t.signup_deadline is None else time(t.signup_deadline)
            await conn.execute(
                f"INSERT INTO tournaments ({TOURNAMENT_COLUMNS})"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (tournament_id) DO NOTHING",
                t.tournament_id, t.guild_id, t.channel_id, t.organiser_id, t.settings.name,
                settings_json(t.settings), dumps(t.options), Status.SIGNUP, 0, deadline,
                time(datetime.now(UTC)),
            )  # fmt: skip
            return await stored_tournament(conn, t.tournament_id)

        return await self._transaction(body, write=True)

    async def get_tournament(self, tournament_id: str) -> TournamentRecord:
        async def body(conn: Connection) -> TournamentRecord:
            return await stored_tournament(conn, tournament_id)

        return await self._transaction(body, write=False)

    async def guild_tournaments(self, guild_id: int, limit: int = 10) -> list[TournamentRecord]:
        """A guild's tournaments, newest first (``/durak-tournament history``)."""
        check_limit(limit)
        rows = await fetch_rows(
            self._transaction,
            "SELECT * FROM tournaments WHERE guild_id = ?"
            " ORDER BY created_at DESC, tournament_id DESC LIMIT ?",
            guild_id,
            limit,
        )
        return [tournament_from_row(r) for r in rows]

    async def active_tournaments(self) -> list[TournamentRecord]:
        """The tournaments in sign-up or running, oldest first, for a restarted bot to resume
        (only its shards' guilds, as ``load_tables``)."""
        active = [Status.SIGNUP, Status.RUNNING]

        async def body(conn: Connection) -> list[TournamentRecord]:
            order = "created_at, tournament_id"
            where = "status IN (?, ?)"
            rows = await fetch_owned(conn, self.shards, "tournaments", where, active, order)
            return [tournament_from_row(r) for r in rows]

        return await self._transaction(body, write=False)

    async def edit_tournament(
        self,
        tournament_id: str,
        settings: TournamentSettings,
        options: Mapping[str, object],
        signup_deadline: datetime | None,
    ) -> TournamentRecord:
        """The organiser's edit before the start: new settings, option changes (the others
        kept) and deadline. ``SignupClosed`` once the sign-up is over."""

        async def body(conn: Connection) -> TournamentRecord:
            row = await locked_tournament(conn, tournament_id)
            if Status(row["status"]) is not Status.SIGNUP:
                raise SignupClosed(tournament_id, 0, "the tournament has started")
            merged = {**json.loads(row["options_json"]), **options}
            deadline = None if signup_deadline is None else conn.dialect.time(signup_deadline)
            await conn.execute(
                "UPDATE tournaments SET name = ?, settings_json = ?, options_json = ?,"
                " signup_deadline = ? WHERE tournament_id = ?",
                settings.name, settings_json(settings), dumps(merged), deadline, tournament_id,
            )  # fmt: skip
            return await stored_tournament(conn, tournament_id)

        return await self._transaction(body, write=True)

    async def set_tournament_options(
        self, tournament_id: str, changes: Mapping[str, object]
    ) -> TournamentRecord:
        """Change some of the tournament's options (``NewTournament.options``: the tables'
        options and the organiser's switches, such as ``paused``), the others kept."""

        async def body(conn: Connection) -> TournamentRecord:
            row = await locked_tournament(conn, tournament_id)
            options = {**json.loads(row["options_json"]), **changes}
            await conn.execute(
                "UPDATE tournaments SET options_json = ? WHERE tournament_id = ?",
                dumps(options), tournament_id,
            )  # fmt: skip
            return await stored_tournament(conn, tournament_id)

        return await self._transaction(body, write=True)

    async def set_tournament_status(
        self, tournament_id: str, status: TournamentStatus
    ) -> TournamentRecord:
        """Start (sign-up → running), finish (running → finished) or cancel a tournament,
        stamping the time; the status it already has is a no-op. Any other change:
        ``InvalidQuery``."""
        if status not in set(Status):
            raise InvalidQuery(f"unknown tournament status {status!r}")

        async def body(conn: Connection) -> TournamentRecord:
            row = await locked_tournament(conn, tournament_id)
            now = Status(row["status"])
            if now != status:
                column = _MOVES.get((now, Status(status)))
                if column is None:
                    raise InvalidQuery(
                        f"tournament {tournament_id!r} cannot go from {now} to {status}"
                    )
                await conn.execute(
                    f"UPDATE tournaments SET status = ?, {column} = ? WHERE tournament_id = ?",
                    status, conn.dialect.time(datetime.now(UTC)), tournament_id,
                )  # fmt: skip
            return await stored_tournament(conn, tournament_id)

        return await self._transaction(body, write=True)

    async def set_tournament_message(
        self, tournament_id: str, kind: Literal["signup", "standings"], message_id: int | None
    ) -> None:
        """Remember the sign-up or the standings message, to edit it again after a restart."""
        column = _MESSAGE_COLUMNS.get(kind)
        if column is None:
            raise InvalidQuery(f"unknown tournament message {kind!r}")

        async def body(conn: Connection) -> None:
            found = await conn.execute(
                f"UPDATE tournaments SET {column} = ? WHERE tournament_id = ?",
                message_id,
                tournament_id,
            )
            if not found:
                raise TournamentNotFound(tournament_id)

        await self._transaction(body, write=True)

    # -- rounds and tables ----------------------------------------------------------

    async def save_round(self, tournament_id: str, pairing: Pairing) -> bool:
        """Store the next round's pairing (tables and byes) and make it the current round.
        The same pairing again: no-op, False. ``InvalidQuery`` (nothing written): the
        tournament is not running, the round is not the next one or the previous one is
        still open, a seated player is not an active entrant, or another pairing is stored
        for this round."""

        async def body(conn: Connection) -> bool:
            row = await locked_tournament(conn, tournament_id)
            current = row["current_round"]
            where = f"tournament {tournament_id!r} round {pairing.round}"
            if pairing.round <= current:
                if (await _rounds(conn, tournament_id, pairing.round))[0].pairing == pairing:
                    return False
                raise InvalidQuery(f"{where}: another pairing is stored")
            if row["status"] != Status.RUNNING:
                raise InvalidQuery(f"{where}: the tournament is {row['status']}, not running")
            if pairing.round != current + 1:
                raise InvalidQuery(f"{where}: the next round is {current + 1}")
            previous = await _rounds(conn, tournament_id, current) if current else []
            if previous and previous[0].status != RoundStatus.FINISHED:
                raise InvalidQuery(f"{where}: round {current} is still being played")
            active = {
                r["user_id"]
                for r in await conn.fetch(
                    "SELECT user_id FROM tournament_entrants"
                    " WHERE tournament_id = ? AND withdrawn = 0",
                    tournament_id,
                )
            }
            strangers = sorted(set(pairing.players) - active)
            if strangers or len(set(pairing.players)) != len(pairing.players):
                raise InvalidQuery(f"{where}: seats {strangers or 'a player twice'}")
            now = conn.dialect.time(datetime.now(UTC))
            await conn.execute(
                "INSERT INTO tournament_rounds (tournament_id, round_number, status, byes_json,"
                " started_at) VALUES (?, ?, ?, ?, ?)",
                tournament_id, pairing.round, RoundStatus.RUNNING, dumps(pairing.byes), now,
            )  # fmt: skip
            await conn.executemany(
                "INSERT INTO tournament_tables (tournament_id, round_number, table_number,"
                " seats_json) VALUES (?, ?, ?, ?)",
                [(tournament_id, pairing.round, t.number, dumps(t.seats))
                 for t in pairing.tables],
            )  # fmt: skip
            await conn.execute(
                "UPDATE tournaments SET current_round = ? WHERE tournament_id = ?",
                pairing.round,
                tournament_id,
            )
            return True

        return await self._transaction(body, write=True)

    async def finish_round(self, tournament_id: str, number: int) -> bool:
        """Mark a round finished (every table played out); False if it was already."""

        async def body(conn: Connection) -> bool:
            changed = await conn.execute(
                "UPDATE tournament_rounds SET status = ?, finished_at = ?"
                " WHERE tournament_id = ? AND round_number = ? AND status = ?",
                RoundStatus.FINISHED, conn.dialect.time(datetime.now(UTC)), tournament_id,
                number, RoundStatus.RUNNING,
            )  # fmt: skip
            if not changed:
                await _rounds(conn, tournament_id, number)  # raises for an unknown round
            return bool(changed)

        return await self._transaction(body, write=True)

    async def open_tournament_table(
        self, tournament_id: str, round_number: int, table_number: int, bot_table_id: str
    ) -> bool:
        """Remember the bot table that plays a paired table; False if this one is already
        remembered. ``InvalidQuery``: no such table, or it is played by another bot table."""

        async def body(conn: Connection) -> bool:
            key = (tournament_id, round_number, table_number)
            if await conn.execute(
                f"UPDATE tournament_tables SET bot_table_id = ? WHERE {_TABLE_KEY}"
                " AND bot_table_id IS NULL",
                bot_table_id,
                *key,
            ):
                return True
            row = await conn.fetchrow(
                f"SELECT bot_table_id FROM tournament_tables WHERE {_TABLE_KEY}", *key
            )
            where = f"tournament {tournament_id!r} round {round_number} table {table_number}"
            if row is None:
                raise InvalidQuery(f"{where} was not paired")
            if row["bot_table_id"] != bot_table_id:
                raise InvalidQuery(f"{where} is played by table {row['bot_table_id']!r}")
            return False

        return await self._transaction(body, write=True)

    async def tournament_rounds(self, tournament_id: str) -> list[StoredRound]:
        """Every round stored, first first, with its tables and byes."""

        async def body(conn: Connection) -> list[StoredRound]:
            await stored_tournament(conn, tournament_id)
            return await _rounds(conn, tournament_id)

        return await self._transaction(body, write=False)

    async def tournament_games(self, tournament_id: str) -> list[PlayedGame]:
        """The games recorded at the tournament's tables, by round and table, each table's in
        the order played: enough to recompute the standings
        (``bot.tournaments.rounds_from_games`` and ``standings``)."""

        async def body(conn: Connection) -> list[PlayedGame]:
            await stored_tournament(conn, tournament_id)
            rows = await conn.fetch(
                "SELECT l.round_number, l.table_number, t.seats_json, g.finishing_order_json,"
                " g.durak_seat FROM tournament_games l"
                " JOIN games g ON g.game_id = l.game_id"
                " JOIN tournament_tables t ON t.tournament_id = l.tournament_id"
                " AND t.round_number = l.round_number AND t.table_number = l.table_number"
                " WHERE l.tournament_id = ?"
                " ORDER BY l.round_number, l.table_number, g.ended_at, g.game_id",
                tournament_id,
            )
            return [played_game(r) for r in rows]

        return await self._transaction(body, write=False)

    async def tournament_game_ids(self, tournament_id: str) -> list[tuple[str, str]]:
        """Each recorded game's id and seed commitment, in ``tournament_games``' order (the
        export: anyone can ``/durak verify`` a game by its id)."""

        async def body(conn: Connection) -> list[tuple[str, str]]:
            await stored_tournament(conn, tournament_id)
            rows = await conn.fetch(
                "SELECT g.game_id, g.seed_commitment FROM tournament_games l"
                " JOIN games g ON g.game_id = l.game_id"
                " WHERE l.tournament_id = ?"
                " ORDER BY l.round_number, l.table_number, g.ended_at, g.game_id",
                tournament_id,
            )
            return [(str(r["game_id"]), str(r["seed_commitment"])) for r in rows]

        return await self._transaction(body, write=False)


async def stored_tournament(conn: Connection, tournament_id: str) -> TournamentRecord:
    row = await conn.fetchrow("SELECT * FROM tournaments WHERE tournament_id = ?", tournament_id)
    if row is None:
        raise TournamentNotFound(tournament_id)
    return tournament_from_row(row)


async def locked_tournament(conn: Connection, tournament_id: str) -> Row:
    """The tournament's row, locked for this transaction where rows can be locked."""
    row = await conn.fetchrow(
        f"SELECT * FROM tournaments WHERE tournament_id = ?{conn.dialect.for_update}",
        tournament_id,
    )
    if row is None:
        raise TournamentNotFound(tournament_id)
    return row


async def _rounds(
    conn: Connection, tournament_id: str, number: int | None = None
) -> list[StoredRound]:
    """The stored rounds (only round ``number``, which must exist, when given)."""
    only = "" if number is None else " AND round_number = ?"
    args: Sequence[object] = (tournament_id,) if number is None else (tournament_id, number)
    rounds = await conn.fetch(
        f"SELECT * FROM tournament_rounds WHERE tournament_id = ?{only} ORDER BY round_number",
        *args,
    )
    if number is not None and not rounds:
        raise InvalidQuery(f"tournament {tournament_id!r} has no round {number}")
    tables = await conn.fetch(
        f"SELECT * FROM tournament_tables WHERE tournament_id = ?{only}"
        " ORDER BY round_number, table_number",
        *args,
    )
    by_round: dict[int, list[Row]] = {}
    for t in tables:
        by_round.setdefault(t["round_number"], []).append(t)
    return [
        StoredRound(
            number=r["round_number"],
            status=r["status"],
            tables=tuple(paired_table_from_row(t) for t in by_round.get(r["round_number"], [])),
            byes=tuple(json.loads(r["byes_json"])),
            started_at=parse_ts(r["started_at"]),
            finished_at=None if r["finished_at"] is None else parse_ts(r["finished_at"]),
        )
        for r in rounds
    ]
