"""The turn timer, idle seats and abandoned tables, run by the ticker every second.

A running table whose awaited human does not act in time plays the least harmful legal action
for them (:mod:`.timeout_moves`); after ``EXPIRIES_BEFORE_AI`` expiries in a row an AI plays
the seat until "I'm back". A table with no human action for ``ABANDON_AFTER_MINUTES`` closes.
"""

from __future__ import annotations

import asyncio
import logging

from bot.domain import TableStatus

from .core import TableCore
from .play import apply_action
from .table import Table
from .timeout_moves import default_action, timed_seats

log = logging.getLogger(__name__)

#: Consecutive timer expiries after which an AI plays the seat until "I'm back".
EXPIRIES_BEFORE_AI = 2


def expiries_before_ai(table: Table) -> int:
    """At a tournament table the first expiry hands the seat to the AI: a player who does not
    come must not hold the round up (docs/tournaments.md, "No-shows")."""
    return 1 if table.match is not None else EXPIRIES_BEFORE_AI


class Timers:
    def __init__(self, core: TableCore) -> None:
        self.core = core
        self._tick_lock = asyncio.Lock()

    @property
    def abandon_after_seconds(self) -> float:
        return self.core.settings.abandon_after_minutes * 60.0

    async def tick(self) -> None:
        """Expire due turn timers and close abandoned tables (run by the ticker; tests call
        it after moving the clock)."""
        async with self._tick_lock:
            now = self.core.clock()
            idle_limit = self.abandon_after_seconds
            for table in self.core.registry:
                if (
                    table.active
                    and idle_limit > 0
                    and table.match is None  # a tournament's no-show is played by the AI
                    and not table.only_ai_left
                    and now - table.last_human_action >= idle_limit
                ):
                    async with table.lock:
                        if table.active:
                            log.info(
                                "table %s: no human action for %.0f s, closing it",
                                table.table_id,
                                now - table.last_human_action,
                            )
                            await self.core.close_table(table)
                    continue
                if table.deadline is not None and now >= table.deadline:
                    await self._expire(table)

    async def _expire(self, table: Table) -> None:
        """The turn timer ran out: the least harmful legal action for every awaited human
        (take; pass; the lowest non-trump card for a forced lead). After
        ``EXPIRIES_BEFORE_AI`` consecutive expiries an AI plays the seat until "I'm back"."""
        async with table.lock:
            if table.deadline is None or self.core.clock() < table.deadline:
                return  # someone acted meanwhile
            table.deadline = None
            done: set[int] = set()
            changed = False
            while table.state is not None and table.status == TableStatus.RUNNING:
                seats = [s for s in timed_seats(table) if s not in done]
                if not seats:
                    break
                seat = seats[0]
                done.add(seat)
                action = default_action(table.state, seat)
                assert action is not None
                apply_action(table, seat, action, timed_out=True)
                changed = True
                table.expiries[seat] = table.expiries.get(seat, 0) + 1
                if table.expiries[seat] >= expiries_before_ai(table):
                    log.info("table %s: seat %s idle, an AI plays it", table.table_id, seat)
                    table.away.add(seat)
                if table.state.finished:
                    await self.core.finish_game(table)
            if changed:
                await self.core.changed(table, actor=None)
            else:
                self.core.arm_timer(table)
