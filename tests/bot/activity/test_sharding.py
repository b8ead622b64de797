"""The Activity with the bot split over two processes (shards 0 and 1 of 2, one PostgreSQL, one
fake Discord with a guild on each shard; docs/activity.md "Sharding"): a sign-in that reaches
the process that does not run the guild's shard is refused clearly, naming the shard; through
the shard's path the owning process signs the user in, and the table opened there is that
process's (the other one never sees it). The page tells the client how many shards there are.

The two bots run in this test's process (each its own client, storage and Activity server),
which lets it look into each bot's registry; test_sharding_processes.py runs the same routing
with two real bot processes."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import AsyncExitStack
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from bot.activity import server as server_module
from bot.app import make_bot
from tests.bot.activity.helpers import Browser, activity_settings
from tests.bot.helpers import settings, world
from tests.bot.storage.pg_server import pg_schema_or_skip
from tests.fake_discord.gateway import shard_of
from tests.test_fake_shards import two_guilds


@pytest.fixture
async def pg_url() -> AsyncIterator[str]:
    async with pg_schema_or_skip() as url:
        yield url


def page_with_tags(root: Path) -> Path:
    dist = root / "dist"
    (dist / "assets").mkdir(parents=True)
    page = "<!doctype html><head>" + server_module.CLIENT_ID_TAG + server_module.SHARDS_TAG
    (dist / "index.html").write_text(page + "</head>", encoding="utf-8")
    return dist


async def post(http: aiohttp.ClientSession, url: str, body: object) -> tuple[int, Any]:
    async with http.post(url, json=body) as response:
        return response.status, await response.json()


@pytest.mark.slow
async def test_each_instance_signs_in_at_the_process_of_its_shard(
    tmp_path: Path, pg_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(server_module, "CLIENT_DIR", page_with_tags(tmp_path))
    async with world(tmp_path) as w, AsyncExitStack() as stack:
        fake = w.fake
        g0, g1 = two_guilds(fake)
        c1 = fake.add_channel(g1, "table")
        urls = []
        bots = []
        for shard in (0, 1):
            values = activity_settings(w) | {
                "database_url": pg_url,
                "shard_count": 2,
                "shard_ids": (shard,),
            }
            bot = make_bot(settings(w.db, **values), sync=True, guild_ready_timeout=0.05)
            await stack.enter_async_context(fake.run_client(bot))
            server = bot.activity_server
            assert server is not None and server.port
            urls.append(f"http://127.0.0.1:{server.port}")
            bots.append(bot)
        http = await stack.enter_async_context(aiohttp.ClientSession())
        assert shard_of(g1, 2) == 1 and shard_of(g0, 2) == 0
        instance = fake.activity.open_instance(c1, [w.alice])

        # The page tells the client to route by shard.
        async with http.get(urls[0] + "/") as page:
            assert '<meta name="durak-shards" content="2" />' in await page.text()

        # Process 0 does not run guild g1's shard: refused, naming the shard, no session.
        code = fake.activity.issue_code(w.alice)
        status, body = await post(
            http, urls[0] + "/api/token", {"code": code, "instance_id": instance}
        )
        assert status == 421 and body["error"] == "err.activity_other_shard"
        assert body["shard"] == 1 and "session" not in body
        assert "Sharding" in body["message"]

        # Process 1, through the shard's path: signed in; the socket and the table are its own.
        code = fake.activity.issue_code(w.alice)
        status, body = await post(
            http, urls[1] + "/shard/1/api/token", {"code": code, "instance_id": instance}
        )
        assert status == 200, body
        ws = await http.ws_connect(urls[1] + "/shard/1/ws")
        browser = Browser(ws)
        browser.start()
        await browser.send({"v": 1, "type": "hello", "token": body["session"]})
        await fake.wait_for(lambda: browser.tables(), what="the welcome and table")
        assert browser.frames[0]["type"] == "welcome"
        await browser.send({"v": 1, "type": "open", "preset": "classic", "seats": 2})
        await fake.wait_for(
            lambda: bots[1].service.registry.in_channel(c1) is not None, what="the table"
        )
        assert bots[0].service.registry.in_channel(c1) is None
        await browser.close()
