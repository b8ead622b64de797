"""One notifier for the table service that tells several: the chat side first, then every
listener (the Activity's browsers; tests that watch every change)."""

from __future__ import annotations

import logging
from abc import ABC, abstractmethod
from collections.abc import Callable
from typing import Protocol

from bot.tables.table import Table

log = logging.getLogger(__name__)


class Notifier(Protocol):
    """``bot.tables.core.Notifier``, restated so this module needs only the table."""

    def table_changed(self, table: Table, *, actor: int | None) -> None: ...

    def game_started(self, table: Table) -> None: ...

    def table_closed(self, table: Table) -> None: ...


class EveryChange(ABC):
    """A listener that does one thing whatever happened to a table: each notifier call is
    ``changed`` (the Activity's hub broadcasts the table; a test's history records it)."""

    @abstractmethod
    def changed(self, table: Table) -> None: ...

    def table_changed(self, table: Table, *, actor: int | None) -> None:
        self.changed(table)

    def game_started(self, table: Table) -> None:
        self.changed(table)

    def table_closed(self, table: Table) -> None:
        self.changed(table)


class TableListeners:
    """A notifier that forwards to ``primary`` and to each of
    ``listeners``. Called under the table lock: listeners only schedule work. A failing
    listener is logged and never fails the action that changed the table."""

    def __init__(self, primary: Notifier, *listeners: Notifier) -> None:
        self.primary = primary
        self.listeners: list[Notifier] = list(listeners)

    def table_changed(self, table: Table, *, actor: int | None) -> None:
        self._tell(lambda n: n.table_changed(table, actor=actor))

    def game_started(self, table: Table) -> None:
        self._tell(lambda n: n.game_started(table))

    def table_closed(self, table: Table) -> None:
        self._tell(lambda n: n.table_closed(table))

    def _tell(self, call: Callable[[Notifier], None]) -> None:
        call(self.primary)
        for listener in self.listeners:
            try:
                call(listener)
            except Exception:
                log.exception("table listener %r failed", listener)
