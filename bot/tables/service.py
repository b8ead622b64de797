"""The tables' runtime, assembled: every change to a table takes one path,
validate → apply → save → schedule AI → refresh (:meth:`TableCore.changed`).

Humans (buttons), AI seats and the turn timer act through :attr:`TableService.play`; lobby
changes go through :attr:`TableService.lobby`. Each runs under the table's lock, so changes
are applied one at a time, in order. Saving with outage retries: :mod:`.save_queue`; timers
and abandonment: :mod:`.timers`; restart: :mod:`.restore`.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Final

from bot.settings import Settings
from bot.storage import Storage

from .ai_runner import AiRunner
from .core import Notifier, TableCore
from .lobby import Lobby
from .play import Play
from .registry import Registry
from .restore import restore_tables
from .save_queue import SaveQueue
from .table import Table
from .ticker import Ticker
from .timers import Timers


class TableService:
    def __init__(
        self,
        storage: Storage,
        settings: Settings,
        notifier: Notifier | None = None,
        clock: Callable[[], float] = time.time,
        *,
        tick_seconds: float = 1.0,
    ) -> None:
        self.ticker = Ticker(tick_seconds)
        self.core = TableCore(storage, settings, notifier, self.ticker, clock)
        self.lobby = Lobby(self.core)
        self.play = Play(self.core)
        self.timers = Timers(self.core)
        # The runner acts through the play path and the timers use what starts the ticker:
        # both are wired once every part exists.
        self.ai = AiRunner(
            self.play, delay=settings.ai_delay_seconds, processes=settings.ai_processes
        )
        self.core.ai = self.ai
        self.ticker.tick = self.timers.tick
        # The core's parts that callers reach through the service (set once, like the core's).
        self.storage: Final[Storage] = storage
        self.settings: Final[Settings] = settings
        self.registry: Final[Registry] = self.core.registry
        self.saves: Final[SaveQueue] = self.core.saves

    @property
    def pending_writes(self) -> int:
        """Tables and games waiting to be written (0 when everything is saved)."""
        return self.core.saves.pending

    async def save_locked(self, table: Table) -> None:
        await self.core.save_locked(table)

    async def tick(self) -> None:
        await self.timers.tick()

    async def restore(self) -> list[Table]:
        """Load the lobby and running tables a previous process saved, and resume them."""
        return await restore_tables(self.core)

    async def close(self) -> None:
        self.ticker.cancel()
        await self.ai.close()
        await self.core.saves.close()  # last chance before the process ends
