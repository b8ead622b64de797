"""The Activity with the bot split over two operating-system processes (issue #31, security 8;
docs/activity.md "Sharding"): two real bot processes
(``python tests/bot/activity/activity_runner.py``,
the bot's own entry point), shards 0 and 1 of 2, on one PostgreSQL database and one fake Discord
with a guild on each shard, each process with its own Activity server. End to end:

- an instance in shard 1's guild that reaches process 0 is refused clearly (421, naming shard
  1), and signs in at process 1 through ``shard/1/``; an instance in shard 0's guild the other
  way round;
- the table the user opens from the browser at process 1 is process 1's: a chat player's
  ``/durak join`` in that guild (which Discord's gateway delivers to shard 1's process only)
  reaches the browser's socket; the table is saved once, in the shared database, under its
  guild;
- process 0's browser, in its own guild, sees no table of the other guild.

Needs PostgreSQL (``DURAK_TEST_PG_URL``, or ``initdb``/``pg_ctl`` to start one: see
tests/bot/storage/pg_server.py); without it the test is skipped and says why. PostgreSQL because it
is what docs/deploy.md prescribes for several processes (SQLite's file lock would serialise them
on one machine, but never across machines).
"""

from __future__ import annotations

import asyncio
import socket
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiohttp
import asyncpg
import pytest

from tests.activity import browser
from tests.activity.test_browser_restart import ActivityBotProcess
from tests.bot.activity.helpers import Browser
from tests.bot.storage.pg_server import pg_schema_or_skip
from tests.fake_discord import FakeDiscord
from tests.fake_discord.gateway import shard_of
from tests.fake_discord.pytest_plugin import started_fake
from tests.test_fake_shards import two_guilds

pytestmark = pytest.mark.slow

#: Seconds for a step: a bot process starts in a few seconds on a busy machine.
WAIT = 30.0


@pytest.fixture
async def pg_url() -> AsyncIterator[str]:
    async with pg_schema_or_skip() as url:
        yield url


class ShardProcess(ActivityBotProcess):
    """One bot process running ``shard`` of 2 on the shared PostgreSQL database."""

    def __init__(self, fake: FakeDiscord, workdir: Path, shard: int, database_url: str) -> None:
        workdir.mkdir()
        super().__init__(fake, workdir, browser.free_port())
        self.shard = shard
        self.database_url = database_url

    def env(self) -> dict[str, str]:
        env = super().env()
        env.update(
            DATABASE_URL=self.database_url,
            SHARD_COUNT="2",
            SHARD_IDS=str(self.shard),
            ACTIVITY_FRAMES_PER_SECOND="1000",
        )
        return env

    async def start(self) -> None:
        """Start the process; returns once its shard's gateway session is live (the fake's
        ``connected`` is an unsharded client's)."""
        gateway = self.fake.gateway
        before = gateway.shards.get(self.shard)
        self.spawn()

        def live() -> bool:
            link = gateway.shards.get(self.shard)
            return link is not None and link is not before and link.ws is not None

        await self.fake.wait_for(live, WAIT, what=f"shard {self.shard}'s process to connect")
        await self.fake.wait_for(self.serving, WAIT, what=f"shard {self.shard}'s web server")

    def serving(self) -> bool:
        with socket.socket() as s:
            return s.connect_ex(("127.0.0.1", self.port)) == 0

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"


async def sign_in(
    http: aiohttp.ClientSession, fake: FakeDiscord, url: str, user: int, instance: str
) -> tuple[int, Any]:
    code = fake.activity.issue_code(user)
    body = {"code": code, "instance_id": instance}
    async with http.post(url + "/api/token", json=body) as response:
        return response.status, await response.json()


async def open_socket(http: aiohttp.ClientSession, url: str, session: str) -> Browser:
    ws = await http.ws_connect(url + "/ws")
    b = Browser(ws)
    b.start()
    await b.send({"v": 1, "type": "hello", "token": session})
    return b


async def saved_guilds(database_url: str) -> list[tuple[int, str]]:
    conn = await asyncpg.connect(database_url)
    try:
        rows = await conn.fetch("SELECT guild_id, status FROM saved_tables")
    finally:
        await conn.close()
    return [(int(r["guild_id"]), str(r["status"])) for r in rows]


async def test_each_instance_is_served_by_the_process_of_its_guilds_shard(
    tmp_path: Path, pg_url: str
) -> None:
    async with started_fake() as fake:
        g0, g1 = two_guilds(fake)
        assert (shard_of(g0, 2), shard_of(g1, 2)) == (0, 1)
        c0, c1 = fake.add_channel(g0, "tables"), fake.add_channel(g1, "tables")
        alice, bob, carol = fake.add_user("alice"), fake.add_user("bob"), fake.add_user("carol")
        bots = [ShardProcess(fake, tmp_path / f"shard{s}", s, pg_url) for s in (0, 1)]
        await bots[1].sync(g1)  # the chat commands in shard 1's guild (for Bob's /durak join)
        try:
            for bot in bots:
                await bot.start()
            async with aiohttp.ClientSession() as http:
                i1 = fake.activity.open_instance(c1, [alice])
                i0 = fake.activity.open_instance(c0, [carol])

                # Guild g1 is shard 1's: process 0 refuses the sign-in, naming the shard.
                status, body = await sign_in(http, fake, bots[0].url, alice, i1)
                assert status == 421 and body["error"] == "err.activity_other_shard", body
                assert body["shard"] == 1 and "session" not in body
                # ... and process 1 signs Alice in, through shard 1's prefix.
                status, body = await sign_in(http, fake, bots[1].url + "/shard/1", alice, i1)
                assert status == 200, body
                a = await open_socket(http, bots[1].url + "/shard/1", body["session"])
                # g0 is shard 0's: the other way round.
                status, refused = await sign_in(http, fake, bots[1].url, carol, i0)
                assert status == 421 and refused["shard"] == 0, refused
                status, body = await sign_in(http, fake, bots[0].url + "/shard/0", carol, i0)
                assert status == 200, body
                c = await open_socket(http, bots[0].url + "/shard/0", body["session"])
                await fake.wait_for(lambda: a.tables() and c.tables(), WAIT, what="the tables")
                assert a.last_table() is None and c.last_table() is None  # none open yet

                # Alice opens a table at process 1; Bob joins it from the chat in g1, which
                # only shard 1's process hears: her socket there shows him seated.
                await a.send({"v": 1, "type": "open", "preset": "classic", "seats": 2})
                await fake.wait_for(lambda: a.last_table(), WAIT, what="Alice's new lobby")
                await fake.slash(bob, c1, "durak", "join", timeout=WAIT)
                await fake.wait_for(
                    lambda: len((a.last_table() or {}).get("players", [])) == 2,
                    WAIT,
                    what="Bob's seat in Alice's browser",
                )
                seated = [p["user_id"] for p in (a.last_table() or {})["players"]]
                assert seated == [str(alice), str(bob)]
                assert await saved_guilds(pg_url) == [(g1, "lobby")]
                # Process 0's browser, in g0, was never shown it.
                await asyncio.sleep(0.5)
                assert all(t is None for t in c.tables()), c.tables()
                assert not a.errors() and not c.errors(), (a.errors(), c.errors())
                for b in (a, c):
                    await b.close()
        finally:
            for bot in bots:
                await bot.stop()
            for bot in bots:
                log = (bot.workdir / "bot.log").read_text(errors="replace")
                print(f"--- shard {bot.shard} log ---\n{log[-3000:]}")
