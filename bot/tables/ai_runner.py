"""AI seats act through the same path as humans, after a short delay, thinking off the loop.

Idle and departed humans' seats are played by a Normal AI the same way. When only AI seats are
left in a game nobody watches, so the runner plays without the delay and with a small budget.

One task per table at most: it waits ``delay``, snapshots the view of the first AI seat that has
a legal action (R25: the view and that seat's visible events, nothing else), lets the player
choose in a worker process (``AI_PROCESSES``; 0 = a worker thread; a forced move and a
decision without search, Easy's and Normal's rules of thumb, are made on the spot), and
submits the action with the version it saw. If anyone acted in the meantime the action is
stale and the loop simply looks again. In a process (:mod:`.ai_workers`) the player, the view
and the events travel pickled (players keep no state between decisions, so nothing needs to
come back but the action); a search in another process cannot hold the bot's interpreter lock,
so clicks are answered meanwhile.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections.abc import Sequence
from typing import Protocol

from bot.settings import Settings
from durak_core import Action, Event, SeatView, visible_to
from durak_core.ai import Budget, DeterministicPlayer, Player

from .ai_workers import AiWorkers, WorkerDied
from .long_games import LONG_GAME_BOUTS, finishing_move, is_looping
from .refusals import Refusal, Rejected
from .table import STAND_IN_LEVEL, Table

log = logging.getLogger(__name__)

#: Thinking time per decision once only AIs are left (they finish the game quickly).
FAST_BUDGET_SECONDS = 0.05


def choose(player: Player, view: SeatView, history: Sequence[Event]) -> Action:
    """One decision (runs in a worker process or thread)."""
    return player.choose(view, history)


class ActionPath(Protocol):
    """Where the runner submits its seats' actions: the same path as humans' clicks."""

    @property
    def settings(self) -> Settings: ...

    async def act(
        self, table: Table, seat: int, action: Action, *, version: int | None, user_id: int | None
    ) -> None: ...


class AiRunner:
    def __init__(self, service: ActionPath, *, delay: float, processes: int = 0) -> None:
        self.service = service
        self.delay = delay
        self.processes = processes
        self._workers: AiWorkers | None = None
        self._tasks: dict[str, asyncio.Task[None]] = {}
        #: Tables whose game was found looping (said once in the log).
        self._looping: set[str] = set()

    async def _decide(self, player: Player, view: SeatView, history: Sequence[Event]) -> Action:
        if len(view.legal_actions) == 1:  # forced (about a fifth of all moves): nothing to think
            return view.legal_actions[0]
        if isinstance(player, DeterministicPlayer) and player.quick(view):
            return choose(player, view, history)  # microseconds: less than a trip to a worker
        if self.processes <= 0:
            return await asyncio.to_thread(choose, player, view, history)
        if self._workers is None:
            self._workers = AiWorkers(self.processes)
        try:
            return await self._workers.decide(player, view, history)
        except WorkerDied:  # killed, out of memory: decide here; the next one starts afresh
            log.warning("AI worker process died; starting a new one")
            return await asyncio.to_thread(choose, player, view, history)

    def schedule(self, table: Table) -> None:
        task = self._tasks.get(table.table_id)
        if task is not None and not task.done():
            return  # the running loop re-checks the table after every action
        if not table.ai_seats_to_act():
            return
        self._tasks[table.table_id] = asyncio.create_task(
            self._run(table), name=f"durak-ai-{table.table_id}"
        )

    def _budget(self, fast: bool) -> Budget:
        s = self.service.settings
        seconds = min(s.ai_budget_seconds, FAST_BUDGET_SECONDS) if fast else s.ai_budget_seconds
        return Budget(seconds=seconds, iterations=s.ai_budget_iterations)

    def _player(self, table: Table, seat: int) -> Player:
        player = table.ai_players.get(seat)
        if player is None:
            from durak_core.ai import make_player

            # Idle or departed humans are played by a Normal AI (the choice).
            level = table.seats[seat].ai_level or STAND_IN_LEVEL
            budget = self._budget(table.only_ai_left)
            # What the table shows every player: each AI seat's level (Hard plays a seat shown
            # as Easy by Easy's published rules); anyone else is a human.
            shown = [x.ai_level or "human" for x in table.seats]
            player = make_player(level, seed=secrets.randbits(64), budget=budget, seats=shown)
            table.ai_players[seat] = player
        return player

    async def _run(self, table: Table) -> None:
        while True:
            await asyncio.sleep(0 if table.only_ai_left else self.delay)
            async with table.lock:
                seats = table.ai_seats_to_act()
                if not seats or table.state is None:
                    return
                seat, version = seats[0], table.version
                view = table.seat_view(seat)
                history = visible_to(table.events, seat)
                player = self._player(table, seat)
                looping = is_looping(table.state.bout)
            try:
                if looping:
                    if table.table_id not in self._looping:
                        self._looping.add(table.table_id)
                        log.warning(
                            "table %s: the game is past %d bouts; its AI seats play to finish",
                            table.table_id,
                            LONG_GAME_BOUTS,
                        )
                    action = finishing_move(view, table.table_id, version)
                else:
                    action = await self._decide(player, view, history)
            except Exception:
                log.exception(
                    "AI %s failed at table %s; playing a legal fallback", seat, table.table_id
                )
                action = view.legal_actions[0]
            try:
                await self.service.act(table, seat, action, version=version, user_id=None)
            except Rejected as rej:
                if rej.kind is not Refusal.STALE:
                    log.warning(
                        "AI seat %s of table %s chose %s: %s",
                        seat,
                        table.table_id,
                        action,
                        rej.params,
                    )

    async def close(self) -> None:
        tasks = list(self._tasks.values())
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self._tasks.clear()
        if self._workers is not None:
            await self._workers.close()
            self._workers = None
