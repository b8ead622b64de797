"""After a restart: the lobby, running and finished tables a previous process saved come back."""

from __future__ import annotations

import logging

from bot.domain import TableStatus

from .core import TableCore
from .persistence import from_saved
from .table import Table

log = logging.getLogger(__name__)


async def restore_tables(core: TableCore) -> list[Table]:
    """Load the saved tables, register them and resume the running ones (fresh deadlines,
    AI seats moving)."""
    tables: list[Table] = []
    saved_tables = await core.storage.load_tables(
        (TableStatus.LOBBY, TableStatus.RUNNING, TableStatus.FINISHED)
    )
    for saved in reversed(saved_tables):  # newest first: it wins its channel
        try:
            table = from_saved(saved)
        except Exception:
            log.exception("cannot restore table %s; skipping it", saved.table_id)
            continue
        if core.registry.in_channel(table.channel_id) is not None:
            continue  # an older table behind a newer one
        core.registry.add(table)
        tables.append(table)
        if not table.last_human_action:
            table.last_human_action = core.clock()
        if table.status == TableStatus.RUNNING:
            async with table.lock:
                core.arm_timer(table)  # a fresh deadline: downtime is not the player's
                table.track_attacks()  # clicks on hands of this version on are judged
            core.ai.schedule(table)
    core.ticker.ensure()
    return tables
