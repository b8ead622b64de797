"""Two bot processes (shards 0 and 1 of 2) against one fake Discord serving two guilds and one
PostgreSQL: each hosts a game in its guild, both record into the database, and the leaderboards
read through either process are identical."""

from __future__ import annotations

import asyncio
import json
import random
import re
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.storage import LeaderboardQuery, PostgresStorage
from tests.bot.quick_settings import bot_env
from tests.bot.storage.pg_server import pg_schema_or_skip
from tests.fake_discord import FakeDiscord, FakeMessage
from tests.fake_discord.gateway import shard_of

ROOT = Path(__file__).resolve().parents[3]
RUNNER = Path(__file__).with_name("shard_runner.py")
pytestmark = pytest.mark.slow  # two bot processes play a game each

HAND_BUTTON = re.compile(r"^dkt:[0-9a-f]{8}:hand$")
ACTION = re.compile(r"^dk:[0-9a-f]{8}:\d:\d+:")


@pytest.fixture
async def pg_url() -> AsyncIterator[str]:
    async with pg_schema_or_skip() as url:
        yield url


async def _bot_process(
    fake: FakeDiscord, url: str, shard: int, guild: int
) -> asyncio.subprocess.Process:
    env = bot_env(fake, DURAK_SCALE_GUILD=guild, database_url=url, shard_count=2, shard_ids=shard)
    proc = await asyncio.create_subprocess_exec(
        sys.executable, str(RUNNER), cwd=ROOT, env=env,
        stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
    )  # fmt: skip
    assert proc.stdout is not None
    line = await asyncio.wait_for(proc.stdout.readline(), 30)
    assert line.strip() == b"ready", line
    return proc


async def _query(proc: asyncio.subprocess.Process, *args: int) -> dict[str, object]:
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write(("query " + " ".join(map(str, args)) + "\n").encode())
    await proc.stdin.drain()
    return dict(json.loads(await asyncio.wait_for(proc.stdout.readline(), 30)))


async def _games_in(db: PostgresStorage, guild: int) -> int:
    board = await db.leaderboard(LeaderboardQuery(guild, "wins", min_games=0))
    return sum(e.games for e in board.entries)


async def _play(
    fake: FakeDiscord, db: PostgresStorage, user: int, channel: int, guild: int, rng: random.Random
) -> None:
    """Host a game (user + an easy AI) and click legal buttons until it is recorded."""
    new = await fake.slash(
        user, channel, "durak", "new", options={"ai_seats": 1, "ai_level": "easy"}
    )
    assert not new.ephemeral
    await fake.slash(user, channel, "durak", "start")

    def table_message() -> bool:
        return any(_hand_button(m) for m in fake.store.messages.values() if m.guild_id == guild)

    await fake.wait_for(table_message, 10, what="the table message")
    table = max(
        (m for m in fake.store.messages.values() if m.guild_id == guild and _hand_button(m)),
        key=lambda m: m.id,
    )
    hand_id = _hand_button(table)
    assert hand_id is not None
    opened = await fake.click(user, table, hand_id)
    assert opened.ephemeral
    for _ in range(800):
        if await _games_in(db, guild) > 0:
            return
        hands = [m for m in fake.ephemeral_messages(user) if m.guild_id == guild and _actions(m)]
        hand = hands[-1] if hands else None
        actions = _actions(hand) if hand else []
        if hand is None or not actions:
            await asyncio.sleep(0.05)
            continue
        await fake.click(user, hand, rng.choice(actions))
    raise AssertionError(f"the game in guild {guild} was not recorded")


def _actions(message: FakeMessage) -> list[str]:
    return [
        b.custom_id for b in message.buttons
        if b.custom_id and ACTION.match(b.custom_id) and not b.disabled
    ]  # fmt: skip


def _hand_button(message: object) -> str | None:
    for b in getattr(message, "buttons", []):
        if b.custom_id and HAND_BUTTON.match(b.custom_id):
            return str(b.custom_id)
    return None


async def test_two_processes_share_one_database(fake_discord: FakeDiscord, pg_url: str) -> None:
    fake = fake_discord
    guilds: dict[int, int] = {}
    while len(guilds) < 2:
        g = fake.add_guild(f"club-{len(fake.store.guilds)}")
        guilds.setdefault(shard_of(g, 2), g)
    channels = {s: fake.add_channel(g, "tables") for s, g in guilds.items()}
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    async with await PostgresStorage.open(pg_url) as db:  # migrate once before the race
        procs = await asyncio.gather(*(_bot_process(fake, pg_url, s, g) for s, g in guilds.items()))
        try:
            # Both games at once: two processes write into one database concurrently.
            await asyncio.gather(
                _play(fake, db, alice, channels[0], guilds[0], random.Random(0)),
                _play(fake, db, bob, channels[1], guilds[1], random.Random(1)),
            )
            answers = [await _query(p, guilds[0], guilds[1], alice) for p in procs]
            assert answers[0] == answers[1]
            user = answers[0]["user"]
            assert isinstance(user, dict) and user["games"] == 1
            for g in guilds.values():
                board = answers[0][str(g)]
                assert isinstance(board, dict) and board["total"] == 2  # alice and the AI
            # Each process answered only in its own guild's shard: the leaderboard command.
            for s, who in ((0, "alice"), (1, "bob")):
                got = await fake.slash(alice, channels[s], "durak", "leaderboard")
                assert who in json.dumps(got.embeds) + got.content
        finally:
            for p in procs:
                if p.returncode is None and p.stdin is not None:
                    p.stdin.write(b"quit\n")
                    await p.stdin.drain()
            codes = [await asyncio.wait_for(p.wait(), 20) for p in procs]
        assert codes == [0, 0]
