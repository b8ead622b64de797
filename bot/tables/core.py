"""What the parts of a table's runtime share, and the one path after every change: bump the
version, restart the turn timer, save, notify the Discord layer, let the AI seats move.

Nothing here knows Discord: refreshing messages is the notifier's job.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol

from bot.domain import TableStatus
from bot.settings import Settings
from bot.storage import Storage
from durak_core import Series

from .records import game_record
from .registry import Registry
from .save_queue import SaveQueue
from .table import Table
from .ticker import Ticker
from .timeout_moves import timed_seats


class Notifier(Protocol):
    """What the Discord layer does when a table changes. Must not block: schedule, return."""

    def table_changed(self, table: Table, *, actor: int | None) -> None:
        """Refresh the public message and every hand except ``actor``'s (it answered itself)."""

    def game_started(self, table: Table) -> None:
        """Post a new public table message for the new game."""

    def table_closed(self, table: Table) -> None:
        """The table was cancelled: update its messages for the last time."""


class AiScheduler(Protocol):
    def schedule(self, table: Table) -> None:
        """Let the table's AI seats move (if any has a legal action)."""


class MatchWatcher(Protocol):
    """Told when a game of a tournament table is over (recorded, or queued to be). Must not
    block: schedule, return."""

    def game_finished(self, table: Table) -> None: ...


@dataclass(eq=False)
class TableCore:
    storage: Storage
    settings: Settings
    notifier: Notifier | None
    ticker: Ticker
    #: Unix seconds; deadlines and the abandonment timeout use it (tests inject a fake).
    clock: Callable[[], float] = time.time
    registry: Registry = field(default_factory=Registry, init=False, repr=False)
    saves: SaveQueue = field(init=False, repr=False)
    #: The tournaments' runner (set by the bot when it runs tournaments).
    matches: MatchWatcher | None = field(default=None, init=False, repr=False)
    #: The AI seats' runner; set by :class:`~bot.tables.service.TableService` (it acts through
    #: the play path, which is built on this core).
    ai: AiScheduler = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self.saves = SaveQueue(self.storage, self.settings.save_wait_seconds)

    def human_acted(self, table: Table) -> None:
        table.last_human_action = self.clock()

    def add_table(self, table: Table) -> Table:
        """A new table (its id from ``registry.new_id()``) registered and watched by the ticker,
        its idle clock starting now."""
        self.human_acted(table)
        self.registry.add(table)
        self.ticker.ensure()
        return table

    async def changed(self, table: Table, *, actor: int | None, new_game: bool = False) -> None:
        """Under the lock: bump the version, restart the timer, save; then notify and let the
        AI seats move. Notification only schedules work, so the lock is held briefly."""
        table.version += 1
        table.track_attacks()
        if new_game:
            table.present = set()
        elif actor is not None and (seat := table.seat_of(actor)) is not None:
            table.present.add(seat)
        self.arm_timer(table)
        await self.saves.save(table)
        if self.notifier is not None:
            if new_game:
                self.notifier.game_started(table)
            else:
                self.notifier.table_changed(table, actor=actor)
        self.ai.schedule(table)

    async def save_locked(self, table: Table) -> None:
        """Save outside an action (e.g. a message id the Discord layer just learned)."""
        async with table.lock:
            await self.saves.save(table)

    def arm_timer(self, table: Table) -> None:
        """Under the lock, after a change: a new deadline if a human is awaited, else none."""
        if table.status != TableStatus.RUNNING or table.turn_timer <= 0 or not timed_seats(table):
            table.deadline = None
            return
        table.deadline = self.clock() + table.turn_timer
        self.ticker.ensure()

    async def close_table(self, table: Table) -> None:
        """Under the lock: save the table as abandoned and close its messages."""
        table.status = TableStatus.ABANDONED
        table.deadline = None
        await self.saves.save(table)
        self.registry.remove(table)
        if self.notifier is not None:
            self.notifier.table_closed(table)

    async def finish_game(self, table: Table) -> None:
        """Under the lock, the game just ended: score the series, record the game (durably)."""
        state, series = table.state, table.series
        assert state is not None and series is not None and state.result is not None
        series.record(state.result, state.dealer)
        table.status = TableStatus.FINISHED
        table.deadline = None
        table.auto_pass.clear()  # "done for this bout" ends with the game's last bout
        table.ratings = None
        record = game_record(table, state)
        series_args = _series_args(table, series) if series.finished else None
        storage = self.storage
        games = series.games

        async def write() -> None:
            # Both calls are idempotent (game id, series id): a retry never counts twice.
            recorded = await storage.record_game(record)
            # Kept for the game's finished frames (the Activity's results screen), so no viewer
            # asks storage. Usually this runs while ``durable`` waits under the table's lock,
            # before the change is announced; a write retried after an outage sets it later,
            # and the next frame built shows it. A rematch dealt meanwhile is another game.
            if recorded.ratings and table.series is series and series.games == games:
                table.ratings = recorded.ratings
            if series_args is not None:
                await storage.finish_series(*series_args)

        await self.saves.durable(f"game {record.game_id}", write)
        if table.match is not None and self.matches is not None:
            self.matches.game_finished(table)


def _series_args(table: Table, series: Series) -> tuple[int, str, list[int], list[int]]:
    worst = max(series.losses)
    losers = [i for i, n in enumerate(series.losses) if n == worst]
    others = [i for i in range(len(table.seats)) if i not in losers]
    best = max((series.wins[i] for i in others), default=0)
    winners = [i for i in others if series.wins[i] == best]
    users = [table.counts_for(i) for i in range(len(table.seats))]
    return (
        table.guild_id,
        table.series_id,
        [u for i in winners if (u := users[i]) is not None],
        [u for i in losers if (u := users[i]) is not None],
    )
