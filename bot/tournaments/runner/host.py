"""What the tournament runner asks of the Discord layer, as a protocol (the runner is below it)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from bot.tournaments.logic import Override, TournamentError
from bot.tournaments.storage import PairedTable, TournamentRecord


class ThreadsRefused(Exception):
    """The tournament's tables cannot open until someone changes the server: its channel is
    no text channel (``missing`` is "text_channel"), or Discord refused the bot a permission
    (``missing`` names it: "create_public_threads", ...). Retrying as is cannot help."""

    def __init__(self, missing: str) -> None:
        super().__init__(missing)
        self.missing = missing


@dataclass(frozen=True)
class Recorded:
    """A result the organiser recorded for a table, as the host tells it."""

    override: Override
    #: The table's place among the round's tables, as its thread is named.
    label: int
    #: The organiser's user id.
    by: int
    #: The table's thread if its table was closed for it; None if it had already closed.
    thread_id: int | None
    #: Whether it replaced a result recorded before.
    replaced: bool


class EventHost(Protocol):
    async def open_thread(self, t: TournamentRecord, round: int, table: int) -> int | None:
        """A new public thread under the tournament's channel for one table, named by
        ``table``, its place among the round's tables (paced within Discord's limits); None
        if Discord failed for now (worth trying again). Raises
        :class:`ThreadsRefused` when only the organiser can make it possible."""
        ...

    def blocked(self, t: TournamentRecord, missing: str | None) -> None:
        """The tournament's tables cannot open (``missing``, as in :class:`ThreadsRefused`),
        or can again (None): tell the organiser in the channel and on the standings message.
        Must not block: schedule, return."""
        ...

    async def welcome(
        self, t: TournamentRecord, thread_id: int, round: int, table: PairedTable
    ) -> None:
        """Ping the table's players, once, in its thread."""
        ...

    def tables_cancelled(
        self, t: TournamentRecord, notices: Sequence[tuple[int, int | None]]
    ) -> None:
        """Tell each table's thread (and its table message, when known: ``notices`` holds
        (thread, message) pairs) that the tournament was cancelled and the table closed; once
        every one is told, clear the tournament's ``closing_notices``. Must not block:
        schedule, return."""
        ...

    def withdrew(self, t: TournamentRecord, thread_id: int, user_id: int, *, closed: bool) -> None:
        """Tell a table's thread that a player withdrew: the table closed (a walkover) or an
        AI plays their seat to the end of the match. Must not block: schedule, return."""
        ...

    def overridden(self, t: TournamentRecord, recorded: Recorded) -> None:
        """The organiser recorded (or replaced) a table's result: say so in the tournament's
        channel (its log: what, for whom, by whom, when) and, if its table was closed, in that
        table's thread. Must not block: schedule, return."""
        ...

    def undone(self, t: TournamentRecord, round: int, label: int, by: int) -> None:
        """The organiser took back a table's recorded result: say so in the tournament's
        channel (what, by whom, when). Must not block: schedule, return."""
        ...

    def break_started(
        self, t: TournamentRecord, round: int, until: int, threads: Sequence[int]
    ) -> None:
        """The break before round ``round`` started: say in the channel and in ``threads``
        when that round is paired (``until``, Unix seconds: Discord counts it down). Must not
        block: schedule, return."""
        ...

    def check_in_opened(self, t: TournamentRecord) -> None:
        """The check-in window opened: remind each entrant not checked in yet (as their
        notification setting allows) and show the check-in button. Must not block."""
        ...

    def check_in_closing(self, t: TournamentRecord) -> None:
        """An hour before the deadline: remind again those not checked in yet. Must not
        block."""
        ...

    def deadline_failed(self, t: TournamentRecord, error: TournamentError) -> None:
        """The deadline came and the tournament could not start (it is cancelled): tell the
        channel why, pinging the organiser and the entrants. Must not block."""
        ...

    async def present(self, guild_id: int, users: Sequence[int]) -> set[int]:
        """Those of ``users`` who are still members of the server."""
        ...

    async def names(self, guild_id: int, users: Sequence[int]) -> dict[int, str]:
        """The display names of ``users`` (a fallback name for one Discord does not know)."""
        ...

    def changed(self, tournament_id: str) -> None:
        """The tournament changed (entrants, status, a result): refresh its public messages.
        Must not block: schedule, return."""
        ...
