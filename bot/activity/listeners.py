"""One notifier for the table service that tells several: the chat side first, then every
listener (the Activity's browsers; tests that watch every change)."""

from __future__ import annotations

import logging
from typing import Protocol

from bot.tables.table import Table

log = logging.getLogger(__name__)


class Notifier(Protocol):
    """``bot.tables.core.Notifier``, restated so this module needs only the table."""

    def table_changed(self, table: Table, *, actor: int | None) -> None: ...

    def game_started(self, table: Table) -> None: ...

    def table_closed(self, table: Table) -> None: ...


class TableListeners:
    """A notifier that forwards to ``primary`` and to each of
    ``listeners``. Called under the table lock: listeners only schedule work. A failing
    listener is logged and never fails the action that changed the table."""

    def __init__(self, primary: Notifier, *listeners: Notifier) -> None:
        self.primary = primary
        self.listeners: list[Notifier] = list(listeners)

    def table_changed(self, table: Table, *, actor: int | None) -> None:
        self.primary.table_changed(table, actor=actor)
        for listener in self.listeners:
            try:
                listener.table_changed(table, actor=actor)
            except Exception:
                log.exception("table listener %r failed", listener)

    def game_started(self, table: Table) -> None:
        self.primary.game_started(table)
        for listener in self.listeners:
            try:
                listener.game_started(table)
            except Exception:
                log.exception("table listener %r failed", listener)

    def table_closed(self, table: Table) -> None:
        self.primary.table_closed(table)
        for listener in self.listeners:
            try:
                listener.table_closed(table)
            except Exception:
                log.exception("table listener %r failed", listener)
