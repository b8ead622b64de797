"""The browser side of the Activity tests: sign in through the fake Discord and hold a real
aiohttp WebSocket, recording every frame (no browser: the TypeScript client is to come)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any

import aiohttp

from bot.activity.listeners import EveryChange, TableListeners
from bot.app import DurakBot
from bot.tables.table import Table
from durak_core import GameState
from tests.bot.helpers import World, running_bot
from tests.fake_discord import UPDATE_MESSAGE, FakeDiscord

CLIENT_SECRET = "fake-client-secret"


def activity_settings(w: World) -> dict[str, object]:
    return {
        "activity_enabled": True,
        "discord_client_id": w.fake.application_id,
        "discord_client_secret": w.fake.activity.client_secret,
        "activity_listen_port": 0,
        "activity_public_host": "durak.example.org",
        # The tests' browsers play at machine speed (a whole game in seconds); the limit of
        # frames per socket has its own tests (test_limits.py).
        "activity_frames_per_second": 1000.0,
    }


@dataclass
class Site:
    """The running bot with its Activity server, and an HTTP client for the browsers."""

    bot: DurakBot
    http: aiohttp.ClientSession

    @property
    def url(self) -> str:
        server = self.bot.activity_server
        assert server is not None
        return f"http://127.0.0.1:{server.port}"


@asynccontextmanager
async def activity_bot(w: World, **overrides: object) -> AsyncIterator[Site]:
    async with running_bot(w, **(activity_settings(w) | overrides)) as bot:
        server = bot.activity_server
        assert server is not None and server.port
        server.hub.poll_seconds = 0.05  # tables opened from the chat show up sooner
        server.hub.watch(bot.service.registry.in_channel)
        async with aiohttp.ClientSession() as client:
            yield Site(bot, client)


async def post_token(
    site: Site, body: object, headers: dict[str, str] | None = None
) -> tuple[int, Any]:
    async with site.http.post(site.url + "/api/token", json=body, headers=headers) as response:
        return response.status, await response.json()


async def sign_in(
    w: World, site: Site, user: int, instance: str, headers: dict[str, str] | None = None
) -> str:
    """What the client does: ``authorize`` (the fake issues the code), then ``POST /api/token``;
    the server's session token. ``headers``: what a proxy in front adds (proxy.py here)."""
    code = w.fake.activity.issue_code(user)
    status, body = await post_token(site, {"code": code, "instance_id": instance}, headers)
    assert status == 200, body
    token: str = body["session"]
    return token


@dataclass
class Browser:
    """One WebSocket as a browser holds it; ``frames`` is every frame received, parsed."""

    ws: aiohttp.ClientWebSocketResponse
    frames: list[dict[str, Any]] = field(default_factory=list)
    raw: list[str] = field(default_factory=list)
    close_code: int | None = None
    _reader: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._reader = asyncio.create_task(self._read())

    async def _read(self) -> None:
        async for msg in self.ws:
            if msg.type == aiohttp.WSMsgType.TEXT:
                self.raw.append(msg.data)
                self.frames.append(json.loads(msg.data))
        self.close_code = self.ws.close_code

    async def send(self, frame: dict[str, Any]) -> None:
        await self.ws.send_str(json.dumps(frame))

    async def act(self, code: int, version: int, **extra: object) -> None:
        await self.send({"v": 1, "type": "act", "code": code, "version": version, **extra})

    def tables(self) -> list[dict[str, Any]]:
        return [f["table"] for f in self.frames if f["type"] == "table"]

    def last_table(self) -> dict[str, Any] | None:
        tables = self.tables()
        return tables[-1] if tables else None

    def errors(self) -> list[dict[str, Any]]:
        return [f for f in self.frames if f["type"] == "error"]

    @property
    def closed(self) -> bool:
        return self._reader is not None and self._reader.done()

    async def close(self) -> None:
        await self.ws.close()
        if self._reader is not None:
            with contextlib.suppress(Exception):
                await self._reader


async def connect(
    site: Site, token: str | None, *, hello: bool = True, headers: dict[str, str] | None = None
) -> Browser:
    ws = await site.http.ws_connect(site.url + "/ws", headers=headers)
    browser = Browser(ws)
    browser.start()
    if hello:
        await browser.send({"v": 1, "type": "hello", "token": token})
    return browser


async def open_browser(
    w: World, site: Site, user: int, instance: str, headers: dict[str, str] | None = None
) -> Browser:
    """Sign in and connect; returns once the welcome and the first table frame arrived."""
    token = await sign_in(w, site, user, instance, headers)
    browser = await connect(site, token, headers=headers)
    await w.fake.wait_for(
        lambda: [f["type"] for f in browser.frames][:1] == ["welcome"] and browser.tables(),
        what=f"user {user}'s welcome and table",
    )
    return browser


async def applied(fake: FakeDiscord, table: Table, browser: Browser, frame: dict[str, Any]) -> None:
    """Send ``frame`` (an action or a lobby operation); returns once the table moved on, and
    fails if it was refused instead."""
    errors, version = len(browser.errors()), table.version
    await browser.send(frame)
    await fake.wait_for(
        lambda: table.version > version or len(browser.errors()) > errors,
        what=f"the browser's {frame['type']}",
    )
    assert len(browser.errors()) == errors, browser.errors()[-1]


class History(EveryChange):
    """Every state the table passed through, by table version, recorded under the table lock
    by a listener beside the chat and the browsers: what each frame must be checked against."""

    def __init__(self, table: Table | None = None) -> None:
        self.states: dict[int, GameState | None] = {}
        self.seats: dict[int, list[int | None]] = {}
        if table is not None:
            self.record(table)

    def record(self, table: Table) -> None:
        self.states[table.version] = table.state
        self.seats[table.version] = [s.user_id for s in table.seats]

    def changed(self, table: Table) -> None:
        self.record(table)


def listen(bot: DurakBot, listener: History) -> None:
    notifier = bot.service.core.notifier
    assert isinstance(notifier, TableListeners)
    notifier.listeners.append(listener)


def chat_settled(bot: DurakBot, table: Table, chat_user: int) -> bool:
    """The chat player's hand message shows the table's version, and no write is pending."""
    link = bot.notifier.links.get((table.table_id, chat_user))
    return link is not None and link.shown_version == table.version and bot.notifier.idle()


async def chat_move(fake: FakeDiscord, user: int, rng: random.Random) -> None:
    """A random button (or select option) of ``user``'s open hand message: a legal move, or
    aiming at an open card first; refused clicks fail the test."""
    hand = [m for m in fake.ephemeral_messages(user) if "Your hand" in m.content][-1]
    clickable = [b.custom_id for b in hand.buttons if b.custom_id and not b.disabled]
    if hand.selects and (rng.random() < 0.5 or not clickable):
        sel = hand.selects[0]
        value = rng.choice([o["value"] for o in sel["options"]])
        result = await fake.select(user, hand, sel["custom_id"], [value])
    else:
        result = await fake.click(user, hand, rng.choice(clickable))
    assert result.response_type == UPDATE_MESSAGE, result.content
    assert "⚠️" not in result.content, result.content
