"""Worker processes for AI decisions, driven from the event loop with no thread in between.

Each worker is ``python -m bot.tables.ai_workers``: it reads requests from its stdin and writes
answers to its stdout, one length-prefixed pickle each (``(player, view, events)`` in, each
event pickled on its own, the action out). A game review's decision travels the same way, a
:class:`~durak_core.coach.review.DecisionTask` in the player's place and its review out. The
bot talks to it through asyncio pipes. A ``ProcessPoolExecutor`` did the same through two
helper threads per pool and a wake-up pipe; under load every decision then made the event loop
hand the interpreter lock to those threads and wait to get it back (a third of a millisecond
per decision, more when the loop was busy).

A worker ends when its stdin closes: when the bot stops, and also when the bot is killed
outright (SIGKILL, out of memory), since the kernel closes the bot's end of the pipe.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import os
import pickle
import struct
import sys
from collections.abc import Sequence
from typing import BinaryIO

from durak_core import Action, Event, SeatView
from durak_core.ai import Player
from durak_core.coach.hint import HintTask
from durak_core.coach.review import DecisionReview, DecisionTask

_HEADER = struct.Struct(">I")


class WorkerDied(RuntimeError):
    """The worker process ended before answering (killed, out of memory, crashed)."""


class _Worker:
    def __init__(self, proc: asyncio.subprocess.Process) -> None:
        self.proc = proc

    @property
    def alive(self) -> bool:
        return self.proc.returncode is None

    async def call(self, request: bytes) -> tuple[bool, object]:
        """Send one request, read its answer: (True, action) or (False, the error)."""
        stdin, stdout = self.proc.stdin, self.proc.stdout
        assert stdin is not None and stdout is not None
        try:
            stdin.write(_HEADER.pack(len(request)) + request)
            await stdin.drain()
            (size,) = _HEADER.unpack(await stdout.readexactly(_HEADER.size))
            body = await stdout.readexactly(size)
        except (asyncio.IncompleteReadError, ConnectionError) as exc:
            raise WorkerDied(f"AI worker {self.proc.pid} ended") from exc
        answer: tuple[bool, object] = pickle.loads(body)
        return answer

    async def close(self) -> None:
        if self.proc.stdin is not None:
            self.proc.stdin.close()
        try:
            await asyncio.wait_for(self.proc.wait(), 5)
        except TimeoutError:
            with contextlib.suppress(ProcessLookupError):
                self.proc.kill()
            await self.proc.wait()


class AiWorkers:
    """Up to ``processes`` workers, started on first use; one decision at a time each."""

    def __init__(self, processes: int) -> None:
        self.processes = processes
        self._slots = asyncio.Semaphore(processes)
        self._idle: list[_Worker] = []
        self._all: list[_Worker] = []

    @property
    def pids(self) -> list[int]:
        """The live workers' process ids."""
        return [w.proc.pid for w in self._all if w.alive]

    async def decide(self, player: Player, view: SeatView, history: Sequence[Event]) -> Action:
        """``player.choose(view, history)`` in a worker. Raises :class:`WorkerDied` if the
        worker ended meanwhile (a fresh one is started for the next decision)."""
        value = await self._run(player, view, history)
        assert isinstance(value, Action)
        return value

    async def review(
        self, task: DecisionTask | HintTask, view: SeatView, history: Sequence[Event]
    ) -> DecisionReview:
        """``task.run(view, history)`` (one decision of a game review, or a practice table's
        hint) in a worker."""
        value = await self._run(task, view, history)
        assert isinstance(value, DecisionReview)
        return value

    async def _run(self, task: object, view: SeatView, history: Sequence[Event]) -> object:
        events = [_pickled(event) for event in history]
        request = pickle.dumps((task, view, events), pickle.HIGHEST_PROTOCOL)
        async with self._slots:  # so at most ``processes`` workers, each idle or busy
            worker = await self._get()
            try:
                ok, value = await worker.call(request)
            except WorkerDied:
                self._all.remove(worker)
                raise
            except BaseException:
                # Cancelled or failed mid-conversation: the pipe may hold half a message.
                self._all.remove(worker)
                await worker.close()
                raise
            self._idle.append(worker)
        if not ok:
            raise RuntimeError(f"AI worker: {value}")
        return value

    async def _get(self) -> _Worker:
        while self._idle:
            worker = self._idle.pop()
            if worker.alive:
                return worker
            self._all.remove(worker)
        proc = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            __name__,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
        )
        worker = _Worker(proc)
        self._all.append(worker)
        return worker

    async def close(self) -> None:
        workers, self._all, self._idle = self._all, [], []
        for worker in workers:
            await worker.close()


# A game's history travels again with each decision, one event at a time: each is pickled once
# in the bot (most of the cost of a request was pickling the whole history every time) and
# unpickled once in a worker.
@functools.lru_cache(maxsize=1 << 16)
def _pickled(event: Event) -> bytes:
    return pickle.dumps(event, pickle.HIGHEST_PROTOCOL)


@functools.lru_cache(maxsize=1 << 16)
def _unpickled(data: bytes) -> Event:
    event: Event = pickle.loads(data)
    return event


def serve(requests: BinaryIO, answers: BinaryIO) -> None:
    """The worker's loop: answer each request until ``requests`` ends."""
    while header := requests.read(_HEADER.size):
        (size,) = _HEADER.unpack(header)
        body = requests.read(size)
        try:
            task, view, events = pickle.loads(body)
            history = [_unpickled(event) for event in events]
            if isinstance(task, DecisionTask | HintTask):
                answer: tuple[bool, object] = (True, task.run(view, history))
            else:
                answer = (True, task.choose(view, history))
        except Exception as exc:  # reported to the bot, which plays a legal fallback
            answer = (False, f"{type(exc).__name__}: {exc}")
        body = pickle.dumps(answer, pickle.HIGHEST_PROTOCOL)
        answers.write(_HEADER.pack(len(body)) + body)
        answers.flush()


def main() -> None:
    # The protocol owns the real stdout; anything printed by accident goes to stderr.
    answers = os.fdopen(os.dup(sys.stdout.fileno()), "wb")
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())
    with contextlib.suppress(KeyboardInterrupt, BrokenPipeError):
        serve(sys.stdin.buffer, answers)


if __name__ == "__main__":
    main()
