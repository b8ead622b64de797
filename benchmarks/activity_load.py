"""Browser-protocol players for the load benchmark (``bot_load --browsers``, issue #19).

No browser: each viewer signs in as the Activity's client does (a code from the fake Discord's
``authorize``, ``POST /api/token``) and holds the Activity's WebSocket, reading every frame.
A seated viewer plays from its table frames (the legal actions they list); a spectator only
watches. What is measured is the Activity's promise: from a browser's action to the moment
*every* browser at that table holds a frame of a newer table version.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import socket
import time
from bisect import bisect_right
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import aiohttp

from tests.fake_discord import FakeDiscord

Figures = dict[str, float | int]

#: Sign-ins tried per viewer: the bot is busy posting 200 tables' messages meanwhile, at
#: Discord's global limit, which the instance check shares.
SIGN_IN_TRIES = 10

#: The host name the bot's Activity server believes it is reached at (only checked for shape).
PUBLIC_HOST = "durak.example.org"


def free_port() -> int:
    """A free loopback port for the bot's Activity server (it runs in another process)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def activity_env(fake: FakeDiscord, port: int) -> dict[str, str]:
    """The bot's settings that turn the Activity server on, against the fake Discord."""
    return {
        "ACTIVITY_ENABLED": "true",
        "DISCORD_CLIENT_ID": str(fake.application_id),
        "DISCORD_CLIENT_SECRET": fake.activity.client_secret,
        "ACTIVITY_LISTEN_HOST": "127.0.0.1",
        "ACTIVITY_LISTEN_PORT": str(port),
        "ACTIVITY_PUBLIC_HOST": PUBLIC_HOST,
        # Every simulated browser signs in from this one machine's address, unsigned by any
        # proxy: the sign-in limits per client, per address and in all, and the sockets
        # without hello per client (docs/activity.md, "Limits") would refuse a load that
        # real browsers spread over many users and minutes.
        "ACTIVITY_SIGN_INS_PER_CLIENT_PER_MINUTE": "0",
        "ACTIVITY_SIGN_INS_PER_IP_PER_MINUTE": "0",
        "ACTIVITY_SIGN_INS_PER_SECOND": "0",
        "ACTIVITY_UNSIGNED_SOCKETS_PER_CLIENT": "1000",
    }


@dataclass
class Viewer:
    """One browser's WebSocket. ``arrivals``: (table version, arrival time) of every table
    frame that showed a newer version than the ones before, in order."""

    user: int
    ws: aiohttp.ClientWebSocketResponse
    latest: dict[str, Any] | None = None
    arrivals: list[tuple[int, float]] = field(default_factory=list)
    refused: set[str] = field(default_factory=set)
    reader: asyncio.Task[None] | None = None

    async def read(self) -> None:
        async for msg in self.ws:
            if msg.type != aiohttp.WSMsgType.TEXT:
                continue
            now = time.perf_counter()
            frame = json.loads(msg.data)
            kind = frame.get("type")
            if kind == "error" and frame.get("ref"):
                self.refused.add(frame["ref"])
            elif kind == "table" and frame["table"] is not None:
                body = frame["table"]
                self.latest = body
                if not self.arrivals or body["version"] > self.arrivals[-1][0]:
                    self.arrivals.append((body["version"], now))

    def first_newer(self, version: int, since: float) -> float | None:
        """When this viewer first held a version newer than ``version``, at or after
        ``since``; None if it never did."""
        i = bisect_right([v for v, _ in self.arrivals], version)
        for _, at in self.arrivals[i:]:
            if at >= since:
                return at
        return None

    async def act(self, code: int, version: int, ref: str) -> None:
        await self.ws.send_str(
            json.dumps({"v": 1, "type": "act", "code": code, "version": version, "ref": ref})
        )


@dataclass
class SentAction:
    channel: int
    version: int
    at: float
    ref: str


class ActivityLoad:
    """The viewers of every table, and the actions they sent."""

    def __init__(self, fake: FakeDiscord, port: int) -> None:
        self.fake = fake
        self.url = f"http://127.0.0.1:{port}"
        self.viewers: dict[int, list[Viewer]] = {}  # by channel
        self.sent: list[SentAction] = []
        self._http: aiohttp.ClientSession | None = None
        self._refs = 0

    async def __aenter__(self) -> ActivityLoad:
        # One connection per viewer, as browsers have: no pool limit.
        self._http = aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0))
        return self

    async def __aexit__(self, *exc: object) -> None:
        for viewers in self.viewers.values():
            for v in viewers:
                await v.ws.close()
                if v.reader is not None:
                    with contextlib.suppress(Exception):
                        await v.reader
        if self._http is not None:
            await self._http.close()

    async def open(self, channel: int, table_id: str, instance: str, user: int) -> Viewer:
        """Sign ``user`` in to the Activity ``instance`` (in ``channel``) and connect; returns
        once shown the table ``table_id``."""
        assert self._http is not None
        for _ in range(SIGN_IN_TRIES):  # 503, 429 "try again": as the client, after a pause
            code = self.fake.activity.issue_code(user)
            body = {"code": code, "instance_id": instance}
            async with self._http.post(self.url + "/api/token", json=body) as response:
                answer = await response.json()
                if response.status not in (429, 503):
                    break
                pause = float(response.headers.get("Retry-After", "1"))
            await asyncio.sleep(pause)
        if response.status != 200:
            raise RuntimeError(f"POST /api/token for {user}: {response.status} {answer}")
        ws = await self._http.ws_connect(self.url + "/ws", max_msg_size=0)
        viewer = Viewer(user, ws)
        viewer.reader = asyncio.create_task(viewer.read())
        await ws.send_str(json.dumps({"v": 1, "type": "hello", "token": answer["session"]}))
        deadline = time.monotonic() + 60
        while viewer.latest is None or viewer.latest.get("id") != table_id:
            if time.monotonic() > deadline:
                raise RuntimeError(f"user {user} was never shown table {table_id}")
            await asyncio.sleep(0.05)
        self.viewers.setdefault(channel, []).append(viewer)
        return viewer

    async def play(self, channel: int, viewer: Viewer, choose: Any) -> bool:
        """One action of ``viewer``'s seat, picked by ``choose`` among the legal ones of its
        latest frame; False when it has none (not its turn, no game)."""
        body = viewer.latest
        game = None if body is None else body.get("game")
        if body is None or game is None or not game.get("actions"):
            return False
        action = choose(game["actions"])
        self._refs += 1
        ref = str(self._refs)
        self.sent.append(SentAction(channel, body["version"], time.perf_counter(), ref))
        await viewer.act(action["code"], body["version"], ref)
        return True

    def figures(self, percentiles: Callable[[str, list[float]], dict[str, float]]) -> Figures:
        """Action → every viewer of its table updated, in seconds, through ``percentiles``,
        over the actions every viewer saw answered (a refused one, e.g. stale, counts apart)."""
        refused = set().union(*(v.refused for vs in self.viewers.values() for v in vs))
        spans: list[float] = []
        unanswered = 0
        for s in self.sent:
            if s.ref in refused:
                continue
            seen = [v.first_newer(s.version, s.at) for v in self.viewers.get(s.channel, [])]
            if not seen or any(at is None for at in seen):
                unanswered += 1
                continue
            spans.append(max(at for at in seen if at is not None) - s.at)
        return {
            "activity_viewers": sum(len(vs) for vs in self.viewers.values()),
            "activity_actions": len(self.sent),
            "activity_actions_refused": len(refused),
            "activity_actions_unanswered": unanswered,
            **percentiles("activity_update_ms", spans),
        }
