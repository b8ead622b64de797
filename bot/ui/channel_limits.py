"""Pacing of the bot's message writes, so they stay within Discord's limits, and of the table
pictures it draws.

Discord limits message edits in a channel to about 5 per 5 s, and message creates to about 5 per
5 s in a separate bucket (deletes have their own, looser one: about 5 per second). Edits (the
table message) and posts (new messages and deletes: table messages, turn notifications) are
therefore paced in two lanes, so a notification never delays a table edit; deletes count in the
posts' lane, which is stricter than Discord needs.

Over all channels, a bot may make 50 requests a second (Discord's global rate limit, per bot
token); only interaction endpoints (answers to clicks and commands, and edits of ephemeral hands
through their tokens) are exempt. Every channel write therefore also takes a slot of the
process's :class:`RequestBudget` (``DISCORD_REQUESTS_PER_SECOND``): with many tables, each table
message is edited less often, hands stay live.
"""

from __future__ import annotations

import asyncio
import contextlib
import math
import random
import time
from collections import deque
from collections.abc import AsyncIterator, Callable
from typing import Literal

#: "edit": editing a message; "post": creating or deleting one.
Lane = Literal["edit", "post"]

# At most 5 writes per 6 edit intervals (interval 1 s → 5 per 6 s). The margin absorbs a busy
# loop sending one write late and the next on time, which bunches arrivals at Discord; tests
# use tiny intervals.
WRITES_PER_WINDOW, WINDOW_INTERVALS = 5, 6.0
#: How often a full window whose oldest write is still in flight is looked at again.
IN_FLIGHT_POLL = 0.05
#: Below this interval the limiter lets everything through (tests against a fake without
#: Discord's limits).
MIN_LIMITED_INTERVAL = 0.5


class RequestBudget:
    """Discord's global rate limit for the whole process: at most ``rate * per`` requests in
    any ``per`` seconds, counted like the per-channel windows — a request counts from the
    moment it is allowed until it has completed, and then at its completion time — so however
    late a busy loop sends some, Discord never counts more in a second than this budget did.
    Waiting requests are let through in the order they asked, by a timer (no polling however
    many wait). ``rate`` 0: no bound."""

    def __init__(self, rate: float, *, per: float = 1.0) -> None:
        self.rate = rate
        self.per = per
        self.limit = max(1, math.floor(rate * per))
        self._window: deque[list[float]] = deque()  # in flight: [inf]; done: [completion]
        self._waiters: deque[asyncio.Future[list[float]]] = deque()
        self._timer: asyncio.TimerHandle | None = None

    @contextlib.asynccontextmanager
    async def request(self) -> AsyncIterator[None]:
        """Wait for room, then make the request inside the block."""
        if self.rate <= 0:
            yield
            return
        stamp = await self._admit()
        try:
            yield
        finally:
            stamp[0] = time.monotonic()
            self._arm(stamp[0] + self.per)

    def _room(self) -> bool:
        cutoff = time.monotonic() - self.per
        if any(s[0] <= cutoff for s in self._window):
            self._window = deque(s for s in self._window if s[0] > cutoff)
        return len(self._window) < self.limit

    async def _admit(self) -> list[float]:
        if not self._waiters and self._room():
            stamp = [math.inf]
            self._window.append(stamp)
            return stamp
        waiter: asyncio.Future[list[float]] = asyncio.get_running_loop().create_future()
        self._waiters.append(waiter)
        try:
            return await waiter
        except asyncio.CancelledError:
            if waiter.done() and not waiter.cancelled():  # granted, then cancelled: give back
                waiter.result()[0] = -math.inf
                self._grant()
            else:
                self._waiters.remove(waiter)
            raise

    def _grant(self) -> None:
        """Let waiters through while there is room (each gets its place in the window)."""
        self._timer = None
        while self._waiters and self._room():
            waiter = self._waiters.popleft()
            if waiter.done():
                continue
            stamp = [math.inf]
            self._window.append(stamp)
            waiter.set_result(stamp)
        if self._waiters:  # full: look again when the oldest finished request leaves
            done = [s[0] for s in self._window if s[0] != math.inf]
            if done:
                self._arm(min(done) + self.per)

    def _arm(self, at: float) -> None:
        if not self._waiters:
            return
        if self._timer is not None and self._timer.when() <= at:
            return
        if self._timer is not None:
            self._timer.cancel()
        loop = asyncio.get_running_loop()
        self._timer = loop.call_at(loop.time() + max(0.0, at - time.monotonic()), self._grant)


class ChannelLimiter:
    """Sliding windows of message writes per (channel, lane), within the process's
    :class:`RequestBudget`.

    A write counts from the moment it is allowed until it has completed, and then at its
    completion time: a request that a busy event loop (or discord.py's own bucket wait) sends
    late is never bunched with the ones after it at Discord."""

    def __init__(self, interval: float, budget: RequestBudget | None = None) -> None:
        self.interval = interval
        self.budget = budget if budget is not None else RequestBudget(0)
        self._writes: dict[tuple[int, Lane], deque[list[float]]] = {}

    @contextlib.asynccontextmanager
    async def write(self, channel_id: int, lane: Lane = "edit") -> AsyncIterator[None]:
        """Wait until one more write of ``lane`` in this channel stays within the limits, then
        make it inside the block (render what it sends there: it may have waited)."""
        if self.interval < MIN_LIMITED_INTERVAL:
            async with self.budget.request():
                yield
            return
        window = WINDOW_INTERVALS * self.interval
        times = self._writes.setdefault((channel_id, lane), deque())
        while True:
            now = time.monotonic()
            while times and now - times[0][0] >= window:
                times.popleft()
            if len(times) < WRITES_PER_WINDOW:
                break
            oldest = times[0][0]
            # an oldest write still in flight: look again shortly
            await asyncio.sleep(window - (now - oldest) if oldest < now else IN_FLIGHT_POLL)
        stamp = [math.inf]  # in flight: it counts until it has completed
        times.append(stamp)
        try:
            async with self.budget.request():
                yield
        finally:
            stamp[0] = time.monotonic()


class DrawBudget:
    """A token bucket of table pictures for the whole process: at most ``rate`` new pictures
    a second (bursts up to one second's worth), so the pictures' CPU stays bounded however
    many tables run; past it pictures lag behind the text a little more. ``rate`` 0: no
    bound."""

    def __init__(self, rate: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.rate = rate
        self._clock = clock
        self._tokens = rate
        self._at = clock()

    def take(self) -> float:
        """0.0 if a picture may be drawn now (and count it), else the seconds until one may."""
        if self.rate <= 0:
            return 0.0
        now = self._clock()
        self._tokens = min(self.rate, self._tokens + (now - self._at) * self.rate)
        self._at = now
        if self._tokens >= 1:
            self._tokens -= 1
            return 0.0
        # Spread the tables that wait, so they do not all come back at the same moment.
        return (1 - self._tokens) / self.rate + random.random()
