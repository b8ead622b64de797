"""Game reviews running during the bot's load test (``python -m benchmarks.bot_load --reviews
N``): issue #34's "bot p99 ≤ 100 ms at 200 tables while 10 reviews run".

Before the bot starts, :func:`store_games` records N finished two-seat games in its database,
each with a human seat of its own user (Easy's play in that seat, so there are mistakes to
find) against a Normal AI. When the timed phase begins each of those users asks
``/durak review game:<id>``, all at once; :class:`Reviewers` waits for every review's message to
become the review and keeps how long each took. The bot's interaction times are measured as
always: the reviews must not slow the tables down.
"""

from __future__ import annotations

import asyncio
import time
from datetime import UTC, datetime
from pathlib import Path

from bot.storage import GameRecord, SeatRecord
from bot.storage.factory import open_storage, sqlite_url
from durak_core import RuleSet, new_game, seed_commitment
from durak_core.ai import Level, make_player
from durak_core.events import Event, visible_to
from tests.fake_discord import FakeDiscord

#: A review not done after this long counts as failed.
REVIEW_TIMEOUT = 600.0


def stored_game(n: int, guild: int, channel: int, user: int) -> GameRecord:
    """The record of game ``n``: ``user`` plays seat 0 by Easy's rules against a Normal AI."""
    seed = 7_000 + n
    s = new_game(RuleSet(), 2, seed=seed)
    players = [make_player(Level.EASY, seed), make_player(Level.NORMAL, seed + 1)]
    seen: list[list[Event]] = [[], []]
    while not s.finished:
        seat = next(t for t in range(2) if s.legal_actions(t))
        s, events = s.apply(seat, players[seat].choose(s.view(seat), seen[seat]))
        for t in (0, 1):
            seen[t].extend(visible_to(events, t))
    result = s.result
    assert result is not None
    table_id = f"{0xA0000000 + n:08x}"
    now = datetime.now(UTC)
    return GameRecord(
        game_id=f"{table_id}.1.1",
        guild_id=guild,
        channel_id=channel,
        table_id=table_id,
        series_id=f"{table_id}.1",
        game_number=1,
        rules=RuleSet().options(),
        seats=[
            SeatRecord(seat=0, kind="human", user_id=user, display_name=f"r{n}"),
            SeatRecord(seat=1, kind="ai", ai_level="normal", display_name="AI"),
        ],
        finishing_order=list(result.finishing_order),
        durak_seat=result.durak,
        losing_seats=list(result.losers),
        started_at=now,
        ended_at=now,
        seed_commitment=seed_commitment(seed),
        seed=format(seed, "064x"),
        card_order=[str(c) for c in s.order_cards()],
        actions=[f"{seat} {action}" for seat, action in s.log],
    )


async def store_games(db: Path, guild: int, channel: int, users: list[int]) -> list[str]:
    """Record one finished game per user (seat 0 theirs); the games' ids."""
    storage = await open_storage(sqlite_url(db))
    try:
        ids = []
        for n, user in enumerate(users):
            ids.append((await storage.record_game(stored_game(n, guild, channel, user))).game_id)
        return ids
    finally:
        await storage.close()


class Reviewers:
    """The users who ask for their reviews, and how long each review took (seconds)."""

    def __init__(self, fake: FakeDiscord, channel: int, users: list[int], ids: list[str]) -> None:
        self.fake = fake
        self.channel = channel
        self.users = users
        self.ids = ids
        self.seconds: list[float] = []
        self.failed = 0

    async def one(self, user: int, game: str) -> None:
        start = time.monotonic()
        asked = await self.fake.slash(
            user, self.channel, "durak", "review", options={"game": game}, timeout=30
        )
        message = asked.message
        if message is None:
            self.failed += 1
            return
        # A plain poll, twice a second: the fake's change signal fires for every request of
        # the 200 tables, and waking on each would load the harness, not the bot.
        while not self.fake.message(message.id).current.get("embeds"):
            if time.monotonic() - start > REVIEW_TIMEOUT:
                self.failed += 1
                return
            await asyncio.sleep(0.5)
        self.seconds.append(time.monotonic() - start)

    async def run(self) -> None:
        await asyncio.gather(*(self.one(u, g) for u, g in zip(self.users, self.ids, strict=True)))

    def figures(self) -> dict[str, object]:
        done = sorted(self.seconds)
        return {
            "reviews": len(self.users),
            "reviews_done": len(done),
            "reviews_failed": self.failed,
            "review_seconds": [round(x, 1) for x in done],
        }
