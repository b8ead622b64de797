"""Game reviews (``/durak review``, the "Review" button): each of a seat's decisions reviewed
by Hard's search in a worker process of their own, with progress, cached per game and seat.

A review's decisions go one at a time to :data:`REVIEW_PROCESSES` worker processes of their
own (:class:`~bot.tables.ai_workers.AiWorkers`), never to the AI seats' workers: a review
queues behind other reviews, never in front of a table's AI move. Several reviews share the
workers decision by decision, so each advances. With ``AI_PROCESSES=0`` (tests) decisions run
in a worker thread instead.

The cache is in memory, bounded (:data:`CACHE_SIZE` reviews, least recently asked dropped): a
review is a deterministic function of the game's record (its seed comes from the game id), so
a restarted bot recomputes exactly what it showed; nothing is stored.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import zlib
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Hashable, Sequence
from typing import Any

from bot.storage import GameRecord
from bot.tables.ai_workers import AiWorkers, WorkerDied
from bot.tables.records import game_log
from durak_core import Event, SeatView
from durak_core.coach.hint import HINT_BUDGET, HintTask
from durak_core.coach.review import DecisionReview, DecisionTask, ReviewBudget
from durak_core.coach.review_game import Decision, GameReview, decisions
from durak_core.verify import GameLog

log = logging.getLogger(__name__)

#: Worker processes for reviews (beside the AI seats' ``AI_PROCESSES``).
REVIEW_PROCESSES = 1
#: Reviews kept in memory (a few hundred bytes per decision each).
CACHE_SIZE = 256
#: Hints kept, by hand (table, seat, version): clicking Hint again costs nothing.
HINT_CACHE_SIZE = 64
#: Solver nodes per deal of the budget when the AI's budget counts iterations (tests).
NODES_PER_DEAL = 300

#: ``progress(done, total)``: awaited after each reviewed decision.
Progress = Callable[[int, int], Awaitable[None]]
Key = tuple[str, int]


def review_seed(game_id: str) -> int:
    """The review's random seed: a function of the game, so a review is reproducible."""
    return zlib.crc32(game_id.encode())


class Reviews:
    """``processes`` > 0: reviews run in :data:`REVIEW_PROCESSES` worker processes; 0: in a
    worker thread. ``budget``: the work per decision."""

    def __init__(
        self,
        processes: int,
        budget: ReviewBudget | None = None,
        hint_budget: ReviewBudget = HINT_BUDGET,
    ) -> None:
        self.processes = processes
        self.budget = budget or ReviewBudget()
        self.hint_budget = hint_budget
        self._workers: AiWorkers | None = None
        self._cache: OrderedDict[Key, GameReview] = OrderedDict()
        self._running: dict[Key, asyncio.Task[GameReview]] = {}
        self._listeners: dict[Key, list[Progress]] = {}
        self._hints: OrderedDict[Hashable, asyncio.Task[DecisionReview]] = OrderedDict()

    @property
    def running(self) -> int:
        """Reviews under way."""
        return len(self._running)

    def cached(self, game_id: str, seat: int) -> GameReview | None:
        found = self._cache.get((game_id, seat))
        if found is not None:
            self._cache.move_to_end((game_id, seat))
        return found

    async def review(
        self,
        record: GameRecord,
        earlier: Sequence[GameRecord],
        seat: int,
        progress: Progress | None = None,
    ) -> GameReview:
        """The review of ``seat``'s decisions in ``record`` (``earlier``: the series' games
        before it, for the dealer, R22). A review of the same game and seat already under way
        is joined, not started twice. Raises
        :class:`~durak_core.coach.review_game.BadRecord` when the record does not replay."""
        key = (record.game_id, seat)
        found = self.cached(*key)
        if found is not None:
            return found
        if progress is not None:
            self._listeners.setdefault(key, []).append(progress)
        task = self._running.get(key)
        if task is None:
            logs = [game_log(r) for r in earlier]
            task = asyncio.create_task(
                self._compute(key, game_log(record), logs), name=f"durak-review-{key[0]}-{seat}"
            )
            self._running[key] = task
        try:
            return await asyncio.shield(task)
        finally:
            if progress is not None and progress in self._listeners.get(key, []):
                self._listeners[key].remove(progress)

    async def _compute(self, key: Key, game: GameLog, earlier: list[GameLog]) -> GameReview:
        game_id, seat = key
        try:
            found = await asyncio.to_thread(decisions, game, earlier, seat)
            seed = review_seed(game_id)
            out: list[DecisionReview] = []
            for d in found:
                out.append(await self._one(d, seed))
                for listener in list(self._listeners.get(key, ())):
                    await listener(len(out), len(found))
            review = GameReview(seat, tuple(out))
            self._cache[key] = review
            while len(self._cache) > CACHE_SIZE:
                self._cache.popitem(last=False)
            return review
        finally:
            self._running.pop(key, None)
            self._listeners.pop(key, None)

    async def hint(
        self, hand: Hashable, view: SeatView, history: Sequence[Event], seed: int
    ) -> DecisionReview:
        """A practice table's hint for ``view.seat`` (:mod:`durak_core.coach.hint`), from its view
        and visible history only, in the reviews' worker: never in front of an AI seat's move.
        ``hand`` names the position (table, seat, version): asked again, the hint under way or
        made is shared, so repeated clicks queue nothing. Raises ``ValueError`` when the seat
        has no choice."""
        task = self._hints.get(hand)
        if task is None or (task.done() and (task.cancelled() or task.exception())):
            work = self._run(HintTask(self.hint_budget, seed), view, history)
            task = asyncio.create_task(work, name=f"durak-hint-{hand}")
            self._hints[hand] = task
            while len(self._hints) > HINT_CACHE_SIZE:
                self._hints.popitem(last=False)
        self._hints.move_to_end(hand)
        return await asyncio.shield(task)

    async def _one(self, d: Decision, seed: int) -> DecisionReview:
        return await self._run(d.task(self.budget, seed), d.view, d.history)

    async def _run(
        self, task: DecisionTask | HintTask, view: SeatView, history: Sequence[Event]
    ) -> DecisionReview:
        if self.processes <= 0:
            return await asyncio.to_thread(task.run, view, history)
        if self._workers is None:
            self._workers = AiWorkers(REVIEW_PROCESSES)
        try:
            return await self._workers.review(task, view, history)
        except WorkerDied:  # killed, out of memory: this decision here, a new worker next
            log.warning("review worker process died; starting a new one")
            return await asyncio.to_thread(task.run, view, history)

    async def close(self) -> None:
        tasks: list[asyncio.Task[Any]] = [*self._running.values(), *self._hints.values()]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        if self._workers is not None:
            await self._workers.close()
            self._workers = None


def reviews_for(processes: int, iterations: int | None) -> Reviews:
    """The bot's reviews and hints: ``processes`` as its AI seats' (``AI_PROCESSES``), the
    budgets from its AI iteration cap (``AI_BUDGET_ITERATIONS``, tests), else the defaults."""
    return Reviews(processes, budget_for(iterations), budget_for(iterations, HINT_BUDGET))


def budget_for(iterations: int | None, default: ReviewBudget | None = None) -> ReviewBudget:
    """The review budget (or a hint's: ``default``): the default, or with an AI iteration cap
    (tests: quick and deterministic) that many deals per decision."""
    if iterations is None:
        return default or ReviewBudget()
    return ReviewBudget(deals=iterations, solver_nodes=iterations * NODES_PER_DEAL)
