"""The one path every change to a table takes: validate → apply → save → schedule AI → refresh.

Humans (buttons), AI seats and the turn timer all call :meth:`TableService.act`; lobby changes
go through the methods beside it. Each runs under the table's lock, so changes are applied one
at a time, in order. Nothing here knows Discord: refreshing messages is the notifier's job.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Protocol

from bot.settings import Settings
from bot.storage import Storage, StorageError
from durak_core import Action, RuleSet, Series, new_game
from durak_core.actions import ATTACK, PASS, TAKE
from durak_core.explain import why_illegal

from .persistence import from_saved, to_saved
from .records import game_record
from .registry import Registry
from .table import MIN_SEATS, AiLevel, Seat, Table

log = logging.getLogger(__name__)


class Notifier(Protocol):
    """What the Discord layer does when a table changes. Must not block: schedule, return."""

    def table_changed(self, table: Table, *, actor: int | None) -> None:
        """Refresh the public message and every hand except ``actor``'s (it answered itself)."""

    def game_started(self, table: Table) -> None:
        """Post a new public table message for the new game."""

    def table_closed(self, table: Table) -> None:
        """The table was cancelled: update its messages for the last time."""


@dataclass(frozen=True)
class Rejected(Exception):
    """A change the table refused; ``key`` names the catalogue text, ``params`` fill it."""

    key: str
    params: dict[str, object] = field(default_factory=dict)


class TableService:
    def __init__(
        self,
        storage: Storage,
        settings: Settings,
        notifier: Notifier | None = None,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.storage = storage
        self.settings = settings
        self.notifier = notifier
        self.clock = clock
        self.registry = Registry()
        self._timers: dict[str, asyncio.Task[None]] = {}
        from .ai_runner import AiRunner  # the runner calls back into this service

        self.ai = AiRunner(self, delay=settings.ai_delay_seconds)

    # -- lobby -------------------------------------------------------------------------------

    async def create(
        self,
        *,
        guild_id: int,
        channel_id: int,
        host_id: int,
        host_name: str,
        rules: RuleSet,
        max_seats: int,
        turn_timer: int | None,
        thread_id: int | None = None,
    ) -> Table:
        existing = self.registry.in_channel(channel_id)
        if existing is not None and existing.active:
            raise Rejected("err.table_exists", {"table": existing.table_id})
        if existing is not None:  # a finished table waiting for a rematch gives way
            self.registry.remove(existing)
            await self.storage.delete_table(existing.table_id)
        table = Table(
            table_id=self.registry.new_id(),
            guild_id=guild_id,
            channel_id=channel_id,
            host_id=host_id,
            rules=rules,
            max_seats=max_seats,
            turn_timer=self.settings.turn_timer_seconds if turn_timer is None else turn_timer,
            seats=[Seat(name=host_name, user_id=host_id)],
            thread_id=thread_id,
        )
        self.registry.add(table)
        await self._save(table)
        return table

    async def join(self, table: Table, user_id: int, name: str) -> None:
        async with table.lock:
            self._need_lobby(table)
            if table.seat_of(user_id) is not None:
                raise Rejected("err.already_seated")
            if table.is_full:
                raise Rejected("err.table_full", {"max": table.max_seats})
            table.seats.append(Seat(name=name, user_id=user_id))
            await self._changed(table, actor=user_id)

    async def leave(self, table: Table, user_id: int) -> None:
        async with table.lock:
            self._need_lobby(table)
            seat = table.seat_of(user_id)
            if seat is None:
                raise Rejected("err.not_seated")
            if user_id == table.host_id:
                raise Rejected("err.host_cannot_leave")
            del table.seats[seat]
            await self._changed(table, actor=user_id)

    async def add_ai(self, table: Table, user_id: int, level: AiLevel, name: str) -> None:
        async with table.lock:
            self._need_lobby(table)
            if table.seat_of(user_id) is None:
                raise Rejected("err.not_seated")
            if table.is_full:
                raise Rejected("err.table_full", {"max": table.max_seats})
            table.seats.append(Seat(name=name, ai_level=level))
            await self._changed(table, actor=user_id)

    async def remove_ai(self, table: Table, user_id: int) -> None:
        async with table.lock:
            self._need_lobby(table)
            if user_id != table.host_id:
                raise Rejected("err.not_host")
            for i in range(len(table.seats) - 1, -1, -1):
                if table.seats[i].is_ai:
                    del table.seats[i]
                    break
            else:
                raise Rejected("err.no_ai_seat")
            await self._changed(table, actor=user_id)

    async def start(self, table: Table, user_id: int) -> None:
        async with table.lock:
            self._need_lobby(table)
            if user_id != table.host_id:
                raise Rejected("err.not_host")
            if len(table.seats) < MIN_SEATS:
                raise Rejected("err.too_few", {"min": MIN_SEATS})
            try:
                table.rules.check_seats(len(table.seats))
            except Exception as exc:
                raise Rejected("err.rules_seats", {"reason": str(exc)}) from None
            table.series = Series(table.rules, len(table.seats))
            self._deal(table)
            await self._changed(table, actor=None, new_game=True)

    async def rematch(self, table: Table, user_id: int) -> None:
        async with table.lock:
            if table.status != "finished" or table.series is None:
                raise Rejected("err.no_rematch")
            if table.seat_of(user_id) is None:
                raise Rejected("err.not_seated")
            if table.series.finished:  # V17: a finished series starts over
                table.series_number += 1
                table.series = Series(table.rules, len(table.seats))
            self._deal(table)
            await self._changed(table, actor=None, new_game=True)

    async def cancel(self, table: Table, user_id: int, *, may_manage: bool) -> None:
        async with table.lock:
            if not table.active and table.status != "finished":
                raise Rejected("err.no_table")
            if user_id != table.host_id and not may_manage:
                raise Rejected("err.cancel_denied")
            table.status = "abandoned"
            table.deadline = None
            self._stop_timer(table)
            await self._save(table)
        self.registry.remove(table)
        if self.notifier is not None:
            self.notifier.table_closed(table)

    def _need_lobby(self, table: Table) -> None:
        if table.status != "lobby":
            raise Rejected("err.not_lobby")

    def _deal(self, table: Table) -> None:
        """R4 (a CSPRNG seed, committed on the table message), R22 (the previous Durak deals)."""
        assert table.series is not None
        table.seed = secrets.randbits(256)
        table.state = new_game(
            table.rules,
            len(table.seats),
            seed=table.seed,
            dealer=table.series.next_dealer(),
            first_game=table.series.first_game,
        )
        table.events = []
        table.timed_out = []
        table.ai_players = {}
        table.started_at = datetime.now(UTC)
        table.status = "running"

    # -- game actions ------------------------------------------------------------------------

    async def act(
        self,
        table: Table,
        seat: int,
        action: Action,
        *,
        version: int | None,
        user_id: int | None,
        timed_out: bool = False,
    ) -> None:
        """Apply ``action`` for ``seat`` if it is legal now. ``version``: the table version the
        actor saw (None: the caller checked under the lock already). ``user_id``: the human
        acting (None for AI seats and the timer), who must hold ``seat``."""
        async with table.lock:
            if table.status != "running" or table.state is None:
                raise Rejected("err.not_running")
            if not 0 <= seat < len(table.seats):
                raise Rejected("err.not_seated")
            if user_id is not None and table.seats[seat].user_id != user_id:
                raise Rejected("err.not_your_seat")
            if version is not None and version != table.version:
                raise Rejected("err.stale")
            state = table.state
            if not state.can(seat, action):
                rule, why = why_illegal(state, seat, action)
                raise Rejected("err.illegal", {"rule": rule, "why": why})
            state, events = state.apply(seat, action)
            table.state = state
            table.events.extend(events)
            if timed_out:
                table.timed_out.append(len(table.events) - len(events))
            if state.finished:
                await self._finish_game(table)
            await self._changed(table, actor=user_id)

    async def _finish_game(self, table: Table) -> None:
        state, series = table.state, table.series
        assert state is not None and series is not None and state.result is not None
        series.record(state.result, state.dealer)
        table.status = "finished"
        table.deadline = None
        try:
            await self.storage.record_game(game_record(table, state))
            if series.finished:
                await self._record_series(table, series)
        except StorageError:  # the game is over either way; do not lose the table over it
            log.exception("could not record game %s of table %s", series.games, table.table_id)

    async def _record_series(self, table: Table, series: Series) -> None:
        worst = max(series.losses)
        losers = [i for i, n in enumerate(series.losses) if n == worst]
        others = [i for i in range(len(table.seats)) if i not in losers]
        best = max((series.wins[i] for i in others), default=0)
        winners = [i for i in others if series.wins[i] == best]
        users = [s.user_id for s in table.seats]
        await self.storage.finish_series(
            table.guild_id,
            table.series_id,
            [u for i in winners if (u := users[i]) is not None],
            [u for i in losers if (u := users[i]) is not None],
        )

    async def _changed(self, table: Table, *, actor: int | None, new_game: bool = False) -> None:
        """Under the lock: bump the version, restart the timer, save; then notify and let the
        AI seats move. Notification only schedules work, so the lock is held briefly."""
        table.version += 1
        self._arm_timer(table)
        await self._save(table)
        if self.notifier is not None:
            if new_game:
                self.notifier.game_started(table)
            else:
                self.notifier.table_changed(table, actor=actor)
        self.ai.schedule(table)

    async def save_locked(self, table: Table) -> None:
        """Save outside an action (e.g. a message id the Discord layer just learned)."""
        async with table.lock:
            await self._save(table)

    async def _save(self, table: Table) -> None:
        try:
            await self.storage.save_table(to_saved(table))
        except StorageError:
            log.exception("could not save table %s", table.table_id)

    # -- the turn timer ----------------------------------------------------------------------

    def _arm_timer(self, table: Table) -> None:
        self._stop_timer(table)
        humans_awaited = [s for s in self._timed_seats(table)]
        if table.status != "running" or table.turn_timer <= 0 or not humans_awaited:
            table.deadline = None
            return
        table.deadline = self.clock() + table.turn_timer
        self._timers[table.table_id] = asyncio.create_task(
            self._expire(table, table.version, table.turn_timer),
            name=f"durak-timer-{table.table_id}",
        )

    def _stop_timer(self, table: Table) -> None:
        task = self._timers.pop(table.table_id, None)
        if task is not None and task is not asyncio.current_task():
            task.cancel()

    @staticmethod
    def _timed_seats(table: Table) -> list[int]:
        if table.state is None or table.status != "running":
            return []
        return [
            i for i, s in enumerate(table.seats) if not s.is_ai and table.state.legal_actions(i)
        ]

    async def _expire(self, table: Table, version: int, seconds: float) -> None:
        await asyncio.sleep(seconds)
        state = table.state
        if table.version != version or state is None:
            return
        for seat in self._timed_seats(table):
            action = default_action(state.legal_actions(seat), state.trump_suit)
            with contextlib.suppress(Rejected):  # someone acted at the last moment
                await self.act(table, seat, action, version=version, user_id=None, timed_out=True)
            return

    # -- restart -----------------------------------------------------------------------------

    async def restore(self) -> list[Table]:
        """Load the lobby and running tables a previous process saved, and resume them."""
        tables: list[Table] = []
        saved_tables = await self.storage.load_tables(("lobby", "running", "finished"))
        for saved in reversed(saved_tables):  # newest first: it wins its channel
            try:
                table = from_saved(saved)
            except Exception:
                log.exception("cannot restore table %s; skipping it", saved.table_id)
                continue
            if self.registry.in_channel(table.channel_id) is not None:
                continue  # an older table behind a newer one
            self.registry.add(table)
            tables.append(table)
            if table.status == "running":
                async with table.lock:
                    self._arm_timer(table)
                self.ai.schedule(table)
        return tables

    async def close(self) -> None:
        for task in list(self._timers.values()):
            task.cancel()
        self._timers.clear()
        await self.ai.close()


def default_action(legal: tuple[Action, ...], trump: int) -> Action:
    """What the turn timer plays for a player who let it run out: the cautious move
    (take, pass), else the lowest opening card, non-trumps first."""
    for kind in (TAKE, PASS):
        for action in legal:
            if action.kind == kind:
                return action
    attacks = [a for a in legal if a.kind == ATTACK]
    if attacks:
        return min(attacks, key=lambda a: (a.card.suit == trump, a.card.rank))  # type: ignore[attr-defined]
    return legal[0]
