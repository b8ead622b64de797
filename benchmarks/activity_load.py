"""Browser-protocol players for the load benchmark (``benchmarks/bot_load.py --activity SHARE``,
issue #19): a share of the human seats play at the Activity instead of with the chat buttons —
WebSocket clients speaking protocol v1 (docs/activity.md), no browser. Each signs in as the
client does (a code from the fake Discord, ``POST /api/token`` with its table's activity
instance), holds one socket, and after a thinking time sends one of the legal actions its
newest frame offers. When a game ends it presses Rematch on the table message, as a player at
the Activity would with the chat button (protocol v1 has no lobby frames).

Measured: from sending an action to the moment every Activity viewer of that table (the actor
included) has a frame of a newer table version — ``activity_update_ms_p50/p99``, the issue's
target being a p99 ≤ 100 ms with 200 tables and half of the seats on WebSockets. A refused
action (another player moved first: ``err.stale``) is counted, not timed.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import socket
import time
from dataclasses import dataclass, field
from typing import Any

import aiohttp

from tests.fake_discord import FakeDiscord


@dataclass
class _Pending:
    version: int
    sent: float
    waiting: set[int]


@dataclass
class _Player:
    user: int
    channel: int
    ws: aiohttp.ClientWebSocketResponse | None = None
    table: dict[str, Any] | None = None
    refs: dict[str, _Pending] = field(default_factory=dict)


class ActivityLoad:
    """The WebSocket players of one benchmark run; ``share`` 0 means none (and no Activity)."""

    def __init__(self, share: float, rng: random.Random, think: tuple[float, float]) -> None:
        self.share = share
        self.rng = rng
        self.think = think
        self.port = 0
        self.players: list[_Player] = []
        self._pending: dict[int, list[_Pending]] = {}
        self.updates: list[float] = []
        self.refused = 0
        self.acts = 0
        self._http: aiohttp.ClientSession | None = None
        self._readers: list[asyncio.Task[None]] = []

    @property
    def users(self) -> set[int]:
        """The humans who play at the Activity (the chat side leaves them out)."""
        return {p.user for p in self.players}

    def env(self, fake: FakeDiscord) -> dict[str, str]:
        """The bot process's settings: the Activity on, on a free port."""
        if not self.share:
            return {}
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = int(s.getsockname()[1])
        return {
            "ACTIVITY_ENABLED": "true",
            "DISCORD_CLIENT_ID": str(fake.application_id),
            "DISCORD_CLIENT_SECRET": fake.activity.client_secret,
            "ACTIVITY_PUBLIC_HOST": "durak.example.org",
            "ACTIVITY_LISTEN_PORT": str(self.port),
        }

    async def open(self, fake: FakeDiscord, tables: list[tuple[int, list[int]]]) -> None:
        """Pick ``share`` of the humans, sign each in at its table's instance, connect."""
        if not self.share:
            return
        humans = [(channel, user) for channel, users in tables for user in users]
        chosen = self.rng.sample(humans, round(self.share * len(humans)))
        self._http = aiohttp.ClientSession()
        by_channel: dict[int, list[int]] = {}
        for channel, user in chosen:
            by_channel.setdefault(channel, []).append(user)
        for channel, users in by_channel.items():
            instance = fake.activity.open_instance(channel, users)
            for user in users:
                player = _Player(user, channel)
                await self._connect(fake, player, instance)
                self.players.append(player)

    async def _connect(self, fake: FakeDiscord, player: _Player, instance: str) -> None:
        assert self._http is not None
        url = f"http://127.0.0.1:{self.port}"
        body = {"code": fake.activity.issue_code(player.user), "instance_id": instance}
        async with self._http.post(url + "/api/token", json=body) as answer:
            session = (await answer.json())["session"]
        player.ws = await self._http.ws_connect(url + "/ws")
        await player.ws.send_str(json.dumps({"v": 1, "type": "hello", "token": session}))
        self._readers.append(asyncio.create_task(self._read(player)))

    async def _read(self, player: _Player) -> None:
        assert player.ws is not None
        async for msg in player.ws:
            if msg.type != aiohttp.WSMsgType.TEXT:
                continue
            frame = json.loads(msg.data)
            if frame["type"] == "table" and frame["table"] is not None:
                player.table = frame["table"]
                self._seen(player, int(frame["table"]["version"]))
            elif frame["type"] == "error":
                pending = player.refs.pop(str(frame.get("ref")), None)
                if pending is not None:
                    self.refused += 1
                    with contextlib.suppress(ValueError):
                        self._pending[player.channel].remove(pending)

    def _seen(self, player: _Player, version: int) -> None:
        now = time.perf_counter()
        pending = self._pending.get(player.channel, [])
        for p in list(pending):
            if p.version < version:
                p.waiting.discard(player.user)
                if not p.waiting:
                    self.updates.append(now - p.sent)
                    pending.remove(p)

    async def play(self, fake: FakeDiscord, end: float) -> None:
        """Every player's loop until ``end`` (monotonic)."""
        await asyncio.gather(*(self._play(fake, p, end) for p in self.players))

    async def _play(self, fake: FakeDiscord, player: _Player, end: float) -> None:
        r = random.Random(self.rng.random())
        viewers = {p.user for p in self.players if p.channel == player.channel}
        while time.monotonic() < end:
            await asyncio.sleep(r.uniform(*self.think))
            table = player.table
            if table is None or player.ws is None:
                continue
            if table["status"] == "finished":
                await self._rematch(fake, player, table["id"])
                continue
            actions = (table.get("game") or {}).get("actions") or []
            if table["status"] != "running" or not actions:
                continue
            self.acts += 1
            ref = f"{player.user}-{self.acts}"
            pending = _Pending(int(table["version"]), time.perf_counter(), set(viewers))
            self._pending.setdefault(player.channel, []).append(pending)
            player.refs[ref] = pending
            code = r.choice(actions)["code"]
            frame = {"v": 1, "type": "act", "code": code, "version": table["version"], "ref": ref}
            await player.ws.send_str(json.dumps(frame))

    async def _rematch(self, fake: FakeDiscord, player: _Player, table_id: str) -> None:
        rematch = f"dkt:{table_id}:rematch"
        for message in reversed(fake.channel_messages(player.channel)):
            if any(b.custom_id == rematch for b in message.buttons):
                with contextlib.suppress(Exception):  # another player pressed it first
                    await fake.click(player.user, message, rematch, timeout=30)
                return

    async def close(self) -> None:
        for player in self.players:
            if player.ws is not None:
                await player.ws.close()
        for reader in self._readers:
            with contextlib.suppress(Exception):
                await reader
        if self._http is not None:
            await self._http.close()

    def report(self) -> dict[str, object]:
        if not self.share:
            return {}
        from benchmarks.bot_load import ms_percentiles  # it imports this module

        return {
            "activity_share": self.share,
            "activity_players": len(self.players),
            "activity_actions": self.acts,
            "activity_refused": self.refused,
            "activity_updates_timed": len(self.updates),
            **ms_percentiles("activity_update_ms", self.updates),
        }
