"""Chat players for the load benchmarks (``bot_load``, ``tournament``): tables opened with
slash commands, and humans who think, then click one of their hand's legal buttons through
fake interactions, or play at the Activity's table (:mod:`benchmarks.activity_load`).
"""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Awaitable
from dataclasses import dataclass, field

from benchmarks.activity_load import ActivityLoad, Viewer
from tests.bot.robust_harness import ACTION_ID, ChannelTable, table_message
from tests.fake_discord import FakeDiscord, FakeMessage


@dataclass
class Tbl(ChannelTable):
    #: ``--browsers``: who plays or watches from the Activity (a spectator is not in humans).
    browsers: list[int] = field(default_factory=list)


def latest_hand(fake: FakeDiscord, user: int) -> FakeMessage | None:
    for m in reversed(fake.ephemeral_messages(user)):
        if any(b.custom_id and b.custom_id.startswith("dk:") for b in m.buttons):
            return m
        if "**" in m.content:
            return m
    return None


class ChatPlayers:
    """The humans of the chat tables, each timed interaction's latency (``latencies``, s)."""

    def __init__(
        self,
        fake: FakeDiscord,
        rng: random.Random,
        think: tuple[float, float],
        activity: ActivityLoad | None = None,
    ) -> None:
        self.fake, self.rng, self.think, self.activity = fake, rng, think, activity
        self.latencies: list[float] = []
        #: Who plays at the Activity's table instead of from a hand (``open_viewers``).
        self.viewers: dict[int, Viewer] = {}
        self.clicks = 0
        self.games_finished = 0

    async def timed(self, ask: Awaitable[object]) -> None:
        t0 = time.perf_counter()
        await ask
        self.latencies.append(time.perf_counter() - t0)

    async def open_table(self, tb: Tbl, seats: int = 4) -> None:
        """``/durak new`` with AI seats for everyone else, the other humans join, ``start``."""
        fake, host = self.fake, tb.humans[0]
        ai = seats - len(tb.humans)
        ask = fake.slash(
            host, tb.channel, "durak", "new", options={"ai_seats": ai, "seats": seats}, timeout=30
        )
        await self.timed(ask)
        for other in tb.humans[1:]:
            await self.timed(fake.slash(other, tb.channel, "durak", "join", timeout=30))
        await self.timed(fake.slash(host, tb.channel, "durak", "start", timeout=30))
        await tb.posted(fake, 60)

    async def open_tables(self, tables: list[Tbl], at_once: int = 20) -> None:
        for k in range(0, len(tables), at_once):
            await asyncio.gather(*(self.open_table(tb) for tb in tables[k : k + at_once]))

    async def open_viewers(self, tables: list[Tbl]) -> None:
        """Sign the tables' ``browsers`` in to the Activity, a few tables at a time: the
        instance checks share Discord's global limit with the messages the bot still posts."""
        activity = self.activity
        assert activity is not None

        async def one(tb: Tbl) -> None:
            instance = self.fake.activity.open_instance(tb.channel, tb.browsers)
            for user in tb.browsers:
                self.viewers[user] = await activity.open(tb.channel, tb.table_id, instance, user)

        with_browsers = [tb for tb in tables if tb.browsers]
        for k in range(0, len(with_browsers), 5):
            await asyncio.gather(*(one(tb) for tb in with_browsers[k : k + 5]))

    async def human(self, tb: Tbl, user: int, end: float, burst: bool = False) -> None:
        """Until ``end`` (monotonic): think, then act; a finished game gets a rematch."""
        fake, think = self.fake, self.think
        r = random.Random(self.rng.random())
        viewer = self.viewers.get(user)  # plays at the Activity's table, not from a hand
        if not burst:
            await asyncio.sleep(r.uniform(*think))
        if viewer is None:
            hand_button = f"dkt:{tb.table_id}:hand"
            await self.timed(fake.click(user, tb.message_id, hand_button, timeout=30))
        while time.monotonic() < end:
            await asyncio.sleep(r.uniform(*think))  # a human's thinking time
            msg = fake.message(tb.message_id)
            if any(b.custom_id and b.custom_id.endswith(":rematch") for b in msg.buttons):
                self.games_finished += 1
                await self.timed(fake.click(user, msg, f"dkt:{tb.table_id}:rematch", timeout=30))
                newer = table_message(fake, tb.channel)
                if newer is not None:
                    tb.message_id = newer.id
                continue
            if viewer is not None:
                assert self.activity is not None
                await self.activity.play(tb.channel, viewer, r.choice)
                continue
            hand = latest_hand(fake, user)
            ids = [
                b.custom_id
                for b in (hand.buttons if hand else [])
                if b.custom_id and not b.disabled and ACTION_ID.match(b.custom_id)
            ]
            if hand is None or not ids:
                continue
            self.clicks += 1
            await self.timed(fake.click(user, hand, r.choice(ids), timeout=30))
