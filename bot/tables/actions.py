"""The one path every change to a table takes: validate → apply → save → schedule AI → refresh.

Humans (buttons), AI seats and the turn timer all call :meth:`TableService.act`; lobby changes
go through the methods beside it. Each runs under the table's lock, so changes are applied one
at a time, in order. Nothing here knows Discord: refreshing messages is the notifier's job.

Resilience (docs/robustness.md): a change is saved before the caller acknowledges it; if the
database is locked or full, the game goes on in memory and a background task saves the latest
state (and records finished games, idempotently) as soon as the database answers again. One
ticker, driven by the injectable ``clock``, runs the turn timers and the abandonment timeout.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections.abc import Callable, Coroutine
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Protocol

from bot.settings import Settings
from bot.storage import SavedTable, Storage
from durak_core import Action, Card, GameState, PublicView, RuleSet, SeatView, Series, new_game
from durak_core.actions import ATTACK, PASS, PASS_ACTION, TAKE
from durak_core.explain import why_illegal

from .persistence import from_saved, to_saved
from .records import game_record
from .registry import Registry
from .table import MIN_SEATS, STAND_IN_LEVEL, AiLevel, Note, Seat, Table

log = logging.getLogger(__name__)

#: Consecutive timer expiries after which an AI plays the seat until "I'm back".
EXPIRIES_BEFORE_AI = 2
RETRY_MIN_SECONDS, RETRY_MAX_SECONDS = 0.2, 5.0


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
        *,
        tick_seconds: float = 1.0,
    ) -> None:
        self.storage = storage
        self.settings = settings
        self.notifier = notifier
        #: Unix seconds; deadlines and the abandonment timeout use it (tests inject a fake).
        self.clock = clock
        self.tick_seconds = tick_seconds
        self.registry = Registry()
        self._ticker: asyncio.Task[None] | None = None
        self._tick_lock = asyncio.Lock()
        # Saving: the write in flight per table, tables whose latest state is not saved yet,
        # finished games not recorded yet, and the task that retries both.
        self._saving: dict[str, asyncio.Task[bool]] = {}
        self._unsaved: dict[str, Table] = {}
        self._unrecorded: list[tuple[str, Callable[[], Coroutine[Any, Any, None]]]] = []
        #: game records being written right now (counted by ``pending_writes``)
        self._recording: set[asyncio.Task[None]] = set()
        self._retry_task: asyncio.Task[None] | None = None
        self._outage = False
        from .ai_runner import AiRunner  # the runner calls back into this service

        self.ai = AiRunner(self, delay=settings.ai_delay_seconds, processes=settings.ai_processes)

    @property
    def abandon_after_seconds(self) -> float:
        return self.settings.abandon_after_minutes * 60.0

    def _human_acted(self, table: Table) -> None:
        table.last_human_action = self.clock()

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
        self._human_acted(table)
        self.registry.add(table)
        self._ensure_ticker()
        await self._save(table)
        return table

    async def join(self, table: Table, user_id: int, name: str) -> None:
        async with table.lock:
            self._need_lobby(table)
            if table.seat_of(user_id) is not None:
                raise Rejected("err.already_seated")
            if table.is_full:
                raise Rejected("err.table_full", {"n": table.max_seats})
            table.seats.append(Seat(name=name, user_id=user_id))
            self._human_acted(table)
            await self._changed(table, actor=user_id)

    async def leave(self, table: Table, user_id: int) -> None:
        async with table.lock:
            seat = table.seat_of(user_id)
            if table.status == "running" and seat is not None:
                await self._leave_game(table, seat, user_id)
                return
            self._need_lobby(table)
            if seat is None:
                raise Rejected("err.not_seated")
            if user_id == table.host_id:
                raise Rejected("err.host_cannot_leave")
            del table.seats[seat]
            await self._changed(table, actor=user_id)

    async def _leave_game(self, table: Table, seat: int, user_id: int) -> None:
        """Leaving mid-game: an AI of the stand-in level plays the seat (the table and its log
        say so at once) until the owner comes back with "I'm back" / `/durak back`; the result
        stays the owner's (the seat keeps its user id in the game record)."""
        if seat in table.left:
            raise Rejected("err.already_left")
        table.left.add(seat)
        table.away.discard(seat)
        table.expiries.pop(seat, None)
        table.auto_pass.pop(seat, None)
        self._note(table, "left", seat)
        if table.only_ai_left:  # nobody watches any more: fresh, fast players
            table.ai_players.clear()
        await self._changed(table, actor=user_id)

    async def back(self, table: Table, user_id: int) -> None:
        """ "I'm back": the owner of a seat an AI plays (idle, or left mid-game) takes it over
        again."""
        async with table.lock:
            seat = table.seat_of(user_id)
            if seat is None:
                raise Rejected("err.not_seated")
            if table.status != "running":
                raise Rejected("err.not_running")
            if not table.stand_in(seat):
                raise Rejected("err.not_away")
            if seat in table.left:
                table.left.discard(seat)
                self._note(table, "back", seat)
            self._return_seat(table, seat)
            self._human_acted(table)
            await self._changed(table, actor=None)

    @staticmethod
    def _return_seat(table: Table, seat: int) -> None:
        table.away.discard(seat)
        table.expiries.pop(seat, None)
        table.ai_players.pop(seat, None)

    @staticmethod
    def _note(table: Table, key: str, seat: int, card: Card | None = None) -> None:
        table.notes.append(Note(len(table.events), key, seat, card))

    @staticmethod
    def _may_seat_ai(table: Table, user_id: int) -> None:
        if table.seat_of(user_id) is None:
            raise Rejected("err.not_seated")
        if user_id != table.host_id and not table.anyone_adds_ai:
            raise Rejected("err.ai_host_only")

    async def add_ai(self, table: Table, user_id: int, level: AiLevel, name: str) -> None:
        async with table.lock:
            self._need_lobby(table)
            self._may_seat_ai(table, user_id)
            if table.is_full:
                raise Rejected("err.table_full", {"n": table.max_seats})
            table.seats.append(Seat(name=name, ai_level=level))
            await self._changed(table, actor=user_id)

    async def set_anyone_adds_ai(self, table: Table, user_id: int, on: bool) -> None:
        """The lobby option: every seated player may add and remove AI seats, or the host only."""
        async with table.lock:
            self._need_lobby(table)
            if user_id != table.host_id:
                raise Rejected("err.not_host")
            table.anyone_adds_ai = on
            await self._changed(table, actor=user_id)

    async def remove_ai(self, table: Table, user_id: int) -> None:
        async with table.lock:
            self._need_lobby(table)
            self._may_seat_ai(table, user_id)
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
                raise Rejected("err.too_few", {"n": MIN_SEATS})
            try:
                table.rules.check_seats(len(table.seats))
            except Exception as exc:
                raise Rejected("err.rules_seats", {"reason": str(exc)}) from None
            table.series = Series(table.rules, len(table.seats))
            self._deal(table)
            self._human_acted(table)
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
            self._human_acted(table)
            await self._changed(table, actor=None, new_game=True)

    async def cancel(self, table: Table, user_id: int, *, may_manage: bool) -> None:
        async with table.lock:
            if not table.active and table.status != "finished":
                raise Rejected("err.no_table")
            if user_id != table.host_id and not may_manage:
                raise Rejected("err.cancel_denied")
            await self._close_table(table)

    async def _close_table(self, table: Table) -> None:
        """Under the lock: save the table as abandoned and close its messages."""
        table.status = "abandoned"
        table.deadline = None
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
        table.auto_pass = {}
        # Seats left in the previous game now belong to an AI for good; idle seats return.
        for seat in table.left:
            old = table.seats[seat]
            table.seats[seat] = Seat(name=old.name, ai_level=STAND_IN_LEVEL, replaced=True)
        table.left, table.away, table.expiries = set(), set(), {}
        table.started_at = datetime.now(UTC)
        table.status = "running"
        table.notes = opening_notes(table.public_view(), table.series.first_game)

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
            if action.kind == ATTACK:  # a throw-in takes back "done for this bout"
                table.auto_pass.pop(seat, None)
            self._apply(table, seat, action, timed_out=timed_out)
            if user_id is not None:  # the owner is here: no longer idle
                self._human_acted(table)
                if seat in table.away:
                    self._return_seat(table, seat)
                table.expiries.pop(seat, None)
            if table.state.finished:
                await self._finish_game(table)
            await self._changed(table, actor=user_id)

    @staticmethod
    def _apply(table: Table, seat: int, action: Action, *, timed_out: bool) -> None:
        """Under the lock, ``action`` checked legal: the new state and its events."""
        assert table.state is not None
        state, events = table.state.apply(seat, action)
        table.state = state
        table.events.extend(events)
        if timed_out:
            table.timed_out.append(len(table.events) - len(events))
        TableService._auto_passes(table)

    @staticmethod
    def _auto_passes(table: Table) -> None:
        """Pass for every seat that is "done for this bout" as soon as passing is legal (R15:
        after each new card the defender beats). A setting of an earlier bout lapses."""
        state = table.state
        assert state is not None
        again = True
        while again and table.auto_pass and not state.finished:
            again = False
            for seat, bout in list(table.auto_pass.items()):
                if bout != state.bout:
                    del table.auto_pass[seat]
                elif state.can(seat, PASS_ACTION):
                    state, events = state.apply(seat, PASS_ACTION)
                    table.state = state
                    table.events.extend(events)
                    again = True
                    break

    async def set_auto_pass(
        self, table: Table, seat: int, on: bool, *, version: int | None, user_id: int
    ) -> None:
        """ "Done for this bout" (``on``) or taking it back: only an attacker of the running
        bout (R9) sets it; the table then passes for it whenever passing is legal."""
        async with table.lock:
            if table.status != "running" or table.state is None:
                raise Rejected("err.not_running")
            if table.seats[seat].user_id != user_id:
                raise Rejected("err.not_your_seat")
            if version is not None and version != table.version:
                raise Rejected("err.stale")
            if on:
                if not may_auto_pass(table.state.view(seat)):
                    raise Rejected("err.no_auto_pass")
                table.auto_pass[seat] = table.state.bout
                self._auto_passes(table)
            elif table.auto_pass.pop(seat, None) is None:
                raise Rejected("err.stale")
            self._human_acted(table)
            if table.state.finished:
                await self._finish_game(table)
            await self._changed(table, actor=user_id)

    async def _finish_game(self, table: Table) -> None:
        state, series = table.state, table.series
        assert state is not None and series is not None and state.result is not None
        series.record(state.result, state.dealer)
        table.status = "finished"
        table.deadline = None
        record = game_record(table, state)
        series_args = self._series_args(table, series) if series.finished else None

        async def write() -> None:
            # Both calls are idempotent (game id, series id): a retry never counts twice.
            await self.storage.record_game(record)
            if series_args is not None:
                await self.storage.finish_series(*series_args)

        await self._durable(f"game {record.game_id}", write)

    @staticmethod
    def _series_args(table: Table, series: Series) -> tuple[int, str, list[int], list[int]]:
        worst = max(series.losses)
        losers = [i for i, n in enumerate(series.losses) if n == worst]
        others = [i for i in range(len(table.seats)) if i not in losers]
        best = max((series.wins[i] for i in others), default=0)
        winners = [i for i in others if series.wins[i] == best]
        users = [s.user_id for s in table.seats]
        return (
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
        """Under the lock: write the table now and wait for it (briefly), so a caller that
        acknowledges afterwards acknowledges a saved change. If the database fails or is
        slow, the game goes on in memory and the background saver writes the latest state."""
        tid = table.table_id
        in_flight = self._saving.get(tid)
        if in_flight is not None and not in_flight.done():
            self._mark_unsaved(table)  # written after the write in flight, newest state
            return
        self._unsaved.pop(tid, None)
        task = asyncio.create_task(self._write(table, to_saved(table)), name=f"durak-save-{tid}")
        self._saving[tid] = task
        done, _ = await asyncio.wait({task}, timeout=self.settings.save_wait_seconds)
        if not done:
            log.warning(
                "saving table %s takes over %.1fs (database locked or slow): the game goes on "
                "in memory and is saved when the database answers",
                tid,
                self.settings.save_wait_seconds,
            )
            self._mark_unsaved(table)

    async def _write(self, table: Table, saved: SavedTable) -> bool:
        try:
            await self.storage.save_table(saved)
        except Exception as exc:  # StorageBusy, disk full (sqlite3 errors), connection loss
            self._report_outage(f"table {table.table_id}", exc)
            self._mark_unsaved(table)
            return False
        finally:
            if self._saving.get(table.table_id) is asyncio.current_task():
                del self._saving[table.table_id]
        return True

    def _mark_unsaved(self, table: Table) -> None:
        self._unsaved[table.table_id] = table
        self._start_retry()

    async def _durable(self, what: str, write: Callable[[], Coroutine[Any, Any, None]]) -> None:
        """Run a write that must happen once (recording a finished game); on failure or a slow
        database, keep it queued and retry it in the background until it succeeds."""
        task = asyncio.create_task(write(), name=f"durak-record-{what}")
        self._recording.add(task)
        task.add_done_callback(self._recording.discard)
        done, _ = await asyncio.wait({task}, timeout=self.settings.save_wait_seconds)
        if done and task.exception() is None:
            return
        if done:
            self._report_outage(what, task.exception())
        else:  # still running: let it finish, then retry (idempotent) to be sure
            task.add_done_callback(lambda t: t.cancelled() or t.exception())
        self._unrecorded.append((what, write))
        self._start_retry()

    def _report_outage(self, what: str, exc: BaseException | None) -> None:
        if not self._outage:
            log.error(
                "database unavailable (%s: %s) while saving %s: games go on in memory; "
                "retrying in the background",
                type(exc).__name__,
                exc,
                what,
            )
        self._outage = True

    def _start_retry(self) -> None:
        if self._retry_task is None or self._retry_task.done():
            self._retry_task = asyncio.create_task(self._retry_loop(), name="durak-save-retry")

    async def _retry_loop(self) -> None:
        delay = RETRY_MIN_SECONDS
        while self._unsaved or self._unrecorded:
            await asyncio.sleep(delay)
            ok = await self.flush()
            delay = RETRY_MIN_SECONDS if ok else min(delay * 2, RETRY_MAX_SECONDS)

    async def flush(self) -> bool:
        """Try to write everything not yet saved or recorded; True if nothing is left."""
        while self._unrecorded:
            what, write = self._unrecorded[0]
            try:
                await write()
            except Exception as exc:
                self._report_outage(what, exc)
                return False
            self._unrecorded.pop(0)
        for tid, table in list(self._unsaved.items()):
            in_flight = self._saving.get(tid)
            if in_flight is not None and not in_flight.done():
                await asyncio.wait({in_flight})
            async with table.lock:
                if self._unsaved.get(tid) is not table:
                    continue
                del self._unsaved[tid]
                saved = to_saved(table)
            task = asyncio.create_task(self._write(table, saved), name=f"durak-save-{tid}")
            self._saving[tid] = task
            if not await task:
                return False
        if self._outage and not self._unsaved and not self._unrecorded:
            log.warning("database available again: every table and game is saved")
            self._outage = False
        return not self._unsaved and not self._unrecorded

    @property
    def pending_writes(self) -> int:
        """Tables and games waiting to be written (0 when everything is saved)."""
        in_flight = sum(1 for t in self._saving.values() if not t.done())
        return len(self._unsaved) + len(self._unrecorded) + in_flight + len(self._recording)

    # -- the turn timer, idle seats and abandoned tables --------------------------------------

    def _arm_timer(self, table: Table) -> None:
        """Under the lock, after a change: a new deadline if a human is awaited, else none."""
        if table.status != "running" or table.turn_timer <= 0 or not self._timed_seats(table):
            table.deadline = None
            return
        table.deadline = self.clock() + table.turn_timer
        self._ensure_ticker()

    @staticmethod
    def _timed_seats(table: Table) -> list[int]:
        """Awaited human-played seats for which the timer has something to do."""
        state = table.state
        if state is None or table.status != "running" or state.finished:
            return []
        public = table.public_view()
        return [
            seat
            for seat in public.awaiting
            if not table.ai_controlled(seat) and default_action(state, seat, public) is not None
        ]

    def _ensure_ticker(self) -> None:
        if self._ticker is None or self._ticker.done():
            self._ticker = asyncio.create_task(self._tick_loop(), name="durak-ticker")

    async def _tick_loop(self) -> None:
        while True:
            await asyncio.sleep(self.tick_seconds)
            try:
                await self.tick()
            except Exception:  # one bad table must not stop every timer
                log.exception("timer tick failed")

    async def tick(self) -> None:
        """Expire due turn timers and close abandoned tables (run by the ticker; tests call
        it after moving the clock)."""
        async with self._tick_lock:
            now = self.clock()
            idle_limit = self.abandon_after_seconds
            for table in self.registry:
                if (
                    table.active
                    and idle_limit > 0
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
                            await self._close_table(table)
                    continue
                if table.deadline is not None and now >= table.deadline:
                    await self._expire(table)

    async def _expire(self, table: Table) -> None:
        """The turn timer ran out: the least harmful legal action for every awaited human
        (take; pass; the lowest non-trump card for a forced lead). After
        ``EXPIRIES_BEFORE_AI`` consecutive expiries an AI plays the seat until "I'm back"."""
        async with table.lock:
            if table.deadline is None or self.clock() < table.deadline:
                return  # someone acted meanwhile
            table.deadline = None
            done: set[int] = set()
            changed = False
            while table.state is not None and table.status == "running":
                seats = [s for s in self._timed_seats(table) if s not in done]
                if not seats:
                    break
                seat = seats[0]
                done.add(seat)
                action = default_action(table.state, seat)
                assert action is not None
                self._apply(table, seat, action, timed_out=True)
                changed = True
                table.expiries[seat] = table.expiries.get(seat, 0) + 1
                if table.expiries[seat] >= EXPIRIES_BEFORE_AI:
                    log.info("table %s: seat %s idle, an AI plays it", table.table_id, seat)
                    table.away.add(seat)
                if table.state.finished:
                    await self._finish_game(table)
            if changed:
                await self._changed(table, actor=None)
            else:
                self._arm_timer(table)

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
            if not table.last_human_action:
                table.last_human_action = self.clock()
            if table.status == "running":
                async with table.lock:
                    self._arm_timer(table)  # a fresh deadline: downtime is not the player's
                self.ai.schedule(table)
        self._ensure_ticker()
        return tables

    async def close(self) -> None:
        for task in (self._ticker, self._retry_task):
            if task is not None:
                task.cancel()
        await self.ai.close()
        if self._unsaved or self._unrecorded:  # last chance before the process ends
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self.flush(), self.settings.save_wait_seconds * 3)


def default_action(state: GameState, seat: int, public: PublicView | None = None) -> Action | None:
    """What the turn timer plays for ``seat``: the least harmful legal action. The defender
    takes; an attacker is done; a main attacker who must lead plays its lowest non-trump card
    (the lowest trump only when it holds nothing else). None when the seat has nothing to
    answer (e.g. an attacker who could throw in while the defender is still to move)."""
    legal = state.legal_actions(seat)
    for kind in (TAKE, PASS):
        for action in legal:
            if action.kind == kind:
                return action
    if (public if public is not None else state.public_view()).table:
        return None  # throw-ins are optional: never play a card for someone
    attacks = [a for a in legal if a.kind == ATTACK]
    if not attacks:
        return None
    trump = state.trump  # a Suit, or None without trump
    return min(
        attacks,
        key=lambda a: (trump is not None and a.card.suit == trump, a.card.rank),  # type: ignore[attr-defined]
    )


def may_auto_pass(view: SeatView) -> bool:
    """Whether the seat may set "done for this bout": it attacks in the running bout (R9) and
    a card is on the table (before the opening card the main attacker must lead, R10)."""
    return (
        not view.finished
        and bool(view.table)
        and view.seat != view.defender
        and view.seat in view.attackers
        and view.seat in view.active
    )


def opening_notes(view: PublicView, first_game: bool) -> list[Note]:
    """The public lines that open a game's log: who holds the trump card after a whole-deck
    deal (R6), and who leads and why — the lowest trump, shown to all (R8); nobody holding a
    trump (the seat left of the dealer, R8); a later game under the fool (V10)."""
    notes: list[Note] = []
    trump = view.trump_card
    if view.talon_size == 0 and not view.trump_in_talon:
        holder = next(s for s, known in enumerate(view.known) if trump in known)
        notes.append(Note(0, "r6", holder, trump))
    starter = view.attacker
    shown = [c for c in view.known[starter] if view.trump is not None and c.suit == view.trump]
    if shown:
        notes.append(Note(0, "r8", starter, min(shown, key=lambda c: (c.rank, c.index))))
    elif not first_game and view.rules.under_the_fool:
        notes.append(Note(0, "v10", starter))
    else:  # no trump in this game (V11, V13, a joker turned), or nobody holds one
        notes.append(Note(0, "r8_none" if view.trump is not None else "no_trump", starter))
    return notes
