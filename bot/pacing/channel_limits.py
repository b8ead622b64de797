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
import logging
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
    """Requests a second for the whole process (Discord's global rate limit): each request
    reserves the next free slot, ``1 / rate`` s after the previous one, in the order asked
    (no polling, however many wait); an idle budget lets ``burst`` go at once. So in any second
    at most ``rate + burst - 1`` slots fall. ``rate`` 0: no bound.

    A loop too busy to wake each request at its slot would start several late ones at once,
    and a request may leave the process some time after it started (a busy loop, a picture
    drawn first): so a request also counts from its start until it has completed, and then
    until a second after its completion, and one starts only while fewer than ``rate`` count.
    Whatever the delays, Discord then never receives more than ``rate`` in any second: of the
    requests it receives within one second, when the last of them to start started, every other
    one was in flight or had completed (after Discord received it) within the second before.
    A request made without :meth:`finish` (``acquire``) counts as completed when it starts.

    Should Discord still answer a global 429 (its window sees our requests later, and bunched,
    or another process shares the token), :meth:`slow_down` holds every start for the wait it
    asked and lowers the rate by a quarter (down to a quarter of ``rate``) until
    ``SLOW_SECONDS`` pass without another one: discord.py releases all the requests it held at
    once, and without the pause they would be refused again."""

    #: How long the rate stays lowered after Discord's last global 429.
    SLOW_SECONDS = 60.0

    def __init__(
        self, rate: float, *, burst: float = 5.0, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.rate = rate  # the rate asked for; ``current_rate`` is the one in force
        self.burst = burst
        self._clock = clock
        self._next = -math.inf  # the slot the next request takes (before the burst allowance)
        self._in_flight = 0  # started, not finished (``start(tracked=True)``)
        self._done: deque[float] = deque()  # when the requests of the last second completed
        self._held_until = -math.inf  # no start before this (Discord's wait after a 429)
        self._slow = 1.0  # the share of ``rate`` in force
        self._slow_until = -math.inf

    @property
    def current_rate(self) -> float:
        if self._slow < 1.0 and self._clock() >= self._slow_until:
            self._slow = 1.0
        return self.rate * self._slow

    def slow_down(self, wait: float) -> None:
        """Discord refused a request for the global limit and asked to wait ``wait`` s."""
        if self.rate <= 0:
            return
        now = self._clock()
        # Every refusal cuts, also of requests that started before the last cut: discord.py
        # retries refused requests outside the budget, so a gentler back-off never catches up.
        self._slow = max(0.25, self._slow * 0.75)
        self._held_until = max(self._held_until, now + wait)
        self._next = max(self._next, self._held_until)
        self._slow_until = now + self.SLOW_SECONDS

    def reserve(self) -> float:
        """Take the next slot: the seconds to wait before starting the request (GCRA: the
        slot after the last one taken, less the burst allowance)."""
        if self.rate <= 0:
            return 0.0
        now = self._clock()
        rate = self.current_rate
        slot = max(self._next, now)
        self._next = slot + 1 / rate
        wait = slot - now - (self.burst - 1) / rate
        return wait if wait > 1e-9 else 0.0  # float sums of 1 / rate: no wait of 1e-15 s

    def start_wait(self, *, tracked: bool = False) -> float:
        """0.0 if a request may start now (and count it), else the seconds to wait before
        asking again. ``tracked``: the caller calls :meth:`finish` once the request completed."""
        if self.rate <= 0:
            return 0.0
        now = self._clock()
        if now < self._held_until:
            return self._held_until - now
        done = self._done
        while done and now - done[0] >= 1.0:
            done.popleft()
        if self._in_flight + len(done) >= self.current_rate:
            # the oldest completion leaves the window then; with all in flight, look again soon
            return 1.0 - (now - done[0]) if done else IN_FLIGHT_POLL
        if tracked:
            self._in_flight += 1
        else:
            done.append(now)
        return 0.0

    def finish(self) -> None:
        """A request started with ``tracked=True`` has completed (or failed)."""
        if self.rate <= 0:
            return
        self._in_flight -= 1
        self._done.append(self._clock())

    async def acquire(self) -> None:
        """Wait for the next slot and start an untracked request (no :meth:`finish`)."""
        await self.slot()
        await self.start()

    async def slot(self) -> None:
        """Wait for the next slot (the pace); :meth:`start` still comes before the request."""
        wait = self.reserve()
        if wait > 0:
            await asyncio.sleep(wait)

    async def start(self, *, tracked: bool = False) -> None:
        """Count a request's start, waiting while ``rate`` requests count (see the class)."""
        while (wait := self.start_wait(tracked=tracked)) > 0:
            await asyncio.sleep(wait)


class WriteSlot:
    """A write's place in the :class:`RequestBudget`: :meth:`start` right before its request,
    which counts until the write's block ends."""

    def __init__(self, budget: RequestBudget) -> None:
        self._budget = budget
        self._started = False

    async def start(self) -> None:
        if not self._started:
            await self._budget.start(tracked=True)
            self._started = True

    def finish(self) -> None:
        if self._started:
            self._started = False
            self._budget.finish()


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
    async def write(
        self, channel_id: int, lane: Lane = "edit", *, start_in_block: bool = False
    ) -> AsyncIterator[WriteSlot]:
        """Wait until one more write of ``lane`` in this channel stays within the limits, then
        make it inside the block (render what it sends there: it may have waited). The write
        counts in the process's budget until the block ends.

        ``start_in_block``: the block awaits something slow before its request (a picture
        drawn in a worker thread) and calls the slot's ``start()`` right before the request
        (which may wait for the budget), so that the write counts from then."""
        slot = WriteSlot(self.budget)
        stamp = await self._channel_turn(channel_id, lane)
        try:
            await self.budget.slot()
            if not start_in_block:
                await slot.start()
            yield slot
        finally:
            slot.finish()
            stamp[0] = time.monotonic()

    async def _channel_turn(self, channel_id: int, lane: Lane) -> list[float]:
        """Wait until the channel's window has room for one more write of ``lane``; returns
        the write's place in it, in flight (it counts until it has completed)."""
        stamp = [math.inf]
        if self.interval < MIN_LIMITED_INTERVAL:
            return stamp
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
        times.append(stamp)
        return stamp


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


class GlobalLimitWatch(logging.Handler):
    """Hears discord.py say that Discord refused a request for the token's global limit, and
    makes the :class:`RequestBudget` hold and slow down. discord.py has no hook for it (it
    waits and retries by itself) but logs a warning: that line is the one signal, and reading
    it costs nothing per request (aiohttp's request tracing cost ~2 % of the bot under load)."""

    LOGGER = "discord.http"
    #: The start of discord.py's warning (``discord/http.py``), its argument the wait.
    PREFIX = "Global rate limit has been hit"

    def __init__(self, budget: RequestBudget) -> None:
        super().__init__(logging.WARNING)
        self.budget = budget

    @classmethod
    def install(cls, budget: RequestBudget) -> GlobalLimitWatch:
        watch = cls(budget)
        logger = logging.getLogger(cls.LOGGER)
        if logger.getEffectiveLevel() > logging.WARNING:  # a quieter LOG_LEVEL must not mute it
            logger.setLevel(logging.WARNING)
        logger.addHandler(watch)
        return watch

    def remove(self) -> None:
        logging.getLogger(self.LOGGER).removeHandler(self)

    def emit(self, record: logging.LogRecord) -> None:
        if not (isinstance(record.msg, str) and record.msg.startswith(self.PREFIX)):
            return
        args = record.args if isinstance(record.args, tuple) else ()
        try:
            wait = float(args[0])  # type: ignore[arg-type]
        except (IndexError, TypeError, ValueError):
            wait = 1.0
        self.budget.slow_down(wait)
