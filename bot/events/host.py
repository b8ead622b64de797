"""What the tournament runner asks of the Discord layer, as a protocol (the runner is below it)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from bot.storage import PairedTable, TournamentRecord


class EventHost(Protocol):
    async def open_thread(self, t: TournamentRecord, round: int, table: int) -> int | None:
        """A new public thread under the tournament's channel for one table (paced within
        Discord's limits); None if Discord refused it."""
        ...

    async def welcome(
        self, t: TournamentRecord, thread_id: int, round: int, table: PairedTable
    ) -> None:
        """Ping the table's players, once, in its thread."""
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
