"""The gateway websocket: HELLO, heartbeats, IDENTIFY/READY, RESUME, sequenced dispatches.

Sharding: an IDENTIFY with ``shard: [id, count]`` (count > 1) opens a session of that shard,
whose READY/GUILD_CREATE list only the guilds with ``(guild_id >> 22) % count == id``;
guild events then go to the socket of the guild's shard (DMs to shard 0), as on Discord.
Several clients (processes) may hold different shards at once."""

from __future__ import annotations

import asyncio
import logging
import uuid
from collections.abc import Callable
from typing import Any

from aiohttp import WSMsgType, web

from .json_codec import dumps_text, loads
from .model import JSON, FakeGuild
from .payloads import guild_create_payload, member_payload, user_payload
from .store import FakeStore

_log = logging.getLogger(__name__)

HEARTBEAT_INTERVAL_MS = 41_250
GUILD_PRESENCES = 1 << 8
GUILD_MESSAGES = 1 << 9
DIRECT_MESSAGES = 1 << 12


class GatewaySession:
    """What Discord keeps between connections so a client can RESUME."""

    def __init__(self, intents: int) -> None:
        self.session_id = uuid.uuid4().hex
        self.intents = intents
        self.seq = 0
        self.log: list[JSON] = []  # every dispatch, for replay on RESUME

    def record(self, event: str, data: JSON) -> JSON:
        """The next dispatch frame of this session, numbered and kept for RESUME."""
        self.seq += 1
        frame: JSON = {"op": 0, "t": event, "s": self.seq, "d": data}
        self.log.append(frame)
        return frame


class ShardLink:
    """One shard's session and live socket."""

    def __init__(self, session: GatewaySession, ws: web.WebSocketResponse) -> None:
        self.session = session
        self.ws: web.WebSocketResponse | None = ws


def shard_of(guild_id: int, shard_count: int) -> int:
    return (guild_id >> 22) % shard_count


class Gateway:
    def __init__(self, store: FakeStore, url: Callable[[], str]) -> None:
        self._store = store
        self._url = url
        self.session: GatewaySession | None = None
        self._ws: web.WebSocketResponse | None = None  # the live, identified/resumed socket
        self._sockets: set[web.WebSocketResponse] = set()
        self._send_lock = asyncio.Lock()
        self.identify_count = 0
        self.resume_count = 0
        self.replayed_count = 0  # dispatches re-sent on RESUME (missed while disconnected)
        self.received: list[JSON] = []  # every op the client sent, for assertions
        self._live = asyncio.Event()
        self.shard_count = 1  # set by the first sharded IDENTIFY
        self.shards: dict[int, ShardLink] = {}

    @property
    def connected(self) -> bool:
        return self._ws is not None and not self._ws.closed

    async def wait_live(self, timeout: float) -> None:
        await asyncio.wait_for(self._live.wait(), timeout)

    # -- dispatching ---------------------------------------------------------------------

    def wants(self, event: str, guild_id: int | None) -> bool:
        """Intent filtering for the message events, like Discord."""
        if self.session is None:
            return False
        if event.startswith("MESSAGE_"):
            bit = GUILD_MESSAGES if guild_id is not None else DIRECT_MESSAGES
            return bool(self.session.intents & bit)
        return True

    async def dispatch(self, event: str, data: JSON) -> None:
        """Send an event now, or keep it for the RESUME replay if the socket is down."""
        if self.shards:
            await self._dispatch_sharded(event, data)
            return
        session = self.session
        if session is None:
            _log.debug("no gateway session; dropping %s", event)
            return
        async with self._send_lock:
            frame = session.record(event, data)
            if self.connected and self._ws is not None:
                await self._send(self._ws, frame)

    async def drop(self, code: int = 4000) -> None:
        """Close the live socket with a resumable code, as Discord does on a hiccup."""
        ws = self._ws
        self._ws = None
        self._live.clear()
        if ws is not None:
            await ws.close(code=code, message=b"fake drop")
        self._store.touch()

    async def close_all(self) -> None:
        self._ws = None
        for ws in list(self._sockets):
            await ws.close(code=1001, message=b"server shutdown")

    # -- the websocket handler -----------------------------------------------------------

    async def handle(self, request: web.Request) -> web.StreamResponse:
        ws = web.WebSocketResponse(max_msg_size=0)
        await ws.prepare(request)
        self._sockets.add(ws)
        try:
            await self._send(ws, {"op": 10, "d": {"heartbeat_interval": HEARTBEAT_INTERVAL_MS}})
            async for msg in ws:
                if msg.type is not WSMsgType.TEXT:
                    continue
                await self._on_frame(ws, loads(msg.data))
        finally:
            self._sockets.discard(ws)
            for link in self.shards.values():
                if link.ws is ws:
                    link.ws = None  # the shard's events wait in its log for a RESUME
            if self._ws is ws:
                self._ws = None
                self._live.clear()
            self._store.touch()
        return ws

    async def _on_frame(self, ws: web.WebSocketResponse, frame: JSON) -> None:
        self.received.append(frame)
        op = frame.get("op")
        data: JSON = frame.get("d") or {}
        if op == 1:
            await self._send(ws, {"op": 11})
        elif op == 2:
            await self._identify(ws, data)
        elif op == 6:
            await self._resume(ws, data)
        elif op == 8:
            await self._request_members(ws, data)

    async def _dispatch_sharded(self, event: str, data: JSON) -> None:
        guild = data.get("guild_id") or (data.get("id") if event.startswith("GUILD_") else None)
        shard = 0 if guild is None else shard_of(int(guild), self.shard_count)
        link = self.shards.get(shard)
        if link is None:
            _log.debug("no client holds shard %d; dropping %s", shard, event)
            return
        async with self._send_lock:
            frame = link.session.record(event, data)
            if link.ws is not None and not link.ws.closed:
                await self._send(link.ws, frame)

    async def _identify(self, ws: web.WebSocketResponse, data: JSON) -> None:
        self.identify_count += 1
        session = GatewaySession(int(data.get("intents", 0)))
        shard = data.get("shard")
        if shard and int(shard[1]) > 1:
            await self._identify_shard(ws, session, int(shard[0]), int(shard[1]))
            return
        async with self._send_lock:
            self.session = session
            self._ws = ws
            store = self._store
            # Like Discord: without the presences intent GUILD_CREATE lists only the bot
            # itself, so a bot with the members intent must chunk (op 8) to see the others.
            everyone = bool(session.intents & GUILD_PRESENCES)
            guilds = list(store.guilds.values())
            ready = self._ready(session, list(store.guilds))
            await self._welcome(ws, session, guilds, ready, everyone)
        self._live.set()
        self._store.touch()

    async def _welcome(
        self,
        ws: web.WebSocketResponse,
        session: GatewaySession,
        guilds: list[FakeGuild],
        ready: JSON,
        everyone: bool,
    ) -> None:
        """READY, then a GUILD_CREATE per guild (listing every member, or only the bot)."""
        store = self._store
        listed = None if everyone else [store.bot.id]
        await self._send(ws, session.record("READY", ready))
        for guild in guilds:
            gdata = guild_create_payload(guild, store.users, store.channels, listed)
            await self._send(ws, session.record("GUILD_CREATE", gdata))

    def _ready(
        self, session: GatewaySession, guild_ids: list[int], *, shard: list[int] | None = None
    ) -> JSON:
        """READY's payload: the guilds come unavailable, their GUILD_CREATEs follow."""
        store = self._store
        ready: JSON = {
            "v": 10,
            "user": user_payload(store.bot),
            "guilds": [{"id": str(g), "unavailable": True} for g in guild_ids],
            "session_id": session.session_id,
            "resume_gateway_url": self._url(),
            "session_type": "normal",
            "application": {"id": str(store.application_id), "flags": 0},
            "private_channels": [],
            "relationships": [],
            "presences": [],
            "geo_ordered_rtc_regions": [],
            "_trace": ["fake-discord"],
        }
        if shard is not None:
            ready["shard"] = shard
        return ready

    async def _identify_shard(
        self, ws: web.WebSocketResponse, session: GatewaySession, shard_id: int, count: int
    ) -> None:
        store = self._store
        async with self._send_lock:
            self.shard_count = count
            self.shards[shard_id] = ShardLink(session, ws)
            if self.session is None:
                self.session = session  # "a bot is connected", for the driver's checks
            guilds = [g for g in store.guilds.values() if shard_of(g.id, count) == shard_id]
            ready = self._ready(session, [g.id for g in guilds], shard=[shard_id, count])
            await self._welcome(ws, session, guilds, ready, everyone=False)
        self._live.set()
        self._store.touch()

    async def _resume(self, ws: web.WebSocketResponse, data: JSON) -> None:
        for link in self.shards.values():
            if data.get("session_id") == link.session.session_id:
                await self._resume_shard(ws, link, int(data.get("seq") or 0))
                return
        session = self.session
        if session is None or data.get("session_id") != session.session_id:
            await self._send(ws, {"op": 9, "d": False})  # invalid session, not resumable
            return
        self.resume_count += 1
        since = int(data.get("seq") or 0)
        async with self._send_lock:
            self._ws = ws
            await self._replay(ws, session, since)
        self._live.set()
        self._store.touch()

    async def _resume_shard(self, ws: web.WebSocketResponse, link: ShardLink, since: int) -> None:
        self.resume_count += 1
        async with self._send_lock:
            link.ws = ws
            await self._replay(ws, link.session, since)
        self._store.touch()

    async def _replay(self, ws: web.WebSocketResponse, session: GatewaySession, since: int) -> None:
        """RESUME: every dispatch after ``since`` again, then RESUMED."""
        for frame in session.log:
            if frame["s"] > since:
                self.replayed_count += 1
                await self._send(ws, frame)
        await self._send(ws, session.record("RESUMED", {"_trace": ["fake-discord"]}))

    async def _request_members(self, ws: web.WebSocketResponse, data: JSON) -> None:
        store = self._store
        guild = store.guilds.get(int(data["guild_id"]))
        if guild is None:
            return
        wanted = {int(u) for u in data.get("user_ids") or []}
        members = [
            member_payload(store.users[u], guild.joined_at)
            for u in guild.member_ids
            if not wanted or u in wanted
        ]
        chunk: dict[str, Any] = {
            "guild_id": str(guild.id),
            "members": members,
            "chunk_index": 0,
            "chunk_count": 1,
            "not_found": [],
        }
        if data.get("nonce") is not None:
            chunk["nonce"] = data["nonce"]
        await self.dispatch("GUILD_MEMBERS_CHUNK", chunk)

    @staticmethod
    async def _send(ws: web.WebSocketResponse, frame: JSON) -> None:
        if ws.closed:
            return
        try:
            await ws.send_str(dumps_text(frame))
        except (ConnectionError, RuntimeError):
            # The socket died under us; dispatches stay in the session log for RESUME.
            _log.debug("gateway send failed for op %s", frame.get("op"))
