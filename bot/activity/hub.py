"""The browsers connected to the Activity, by channel, and how a table change reaches them.

The hub is a notifier of the table service (through :class:`.listeners.TableListeners`): it is
told of every change, from any source (chat buttons, AI seats, the turn timer, browsers), under
the table's lock. It builds each connection's frame there and then, so a frame always shows one
consistent version, and hands it to the connection's sender task; a slow browser skips versions
rather than queueing them (only the newest table frame waits to be sent).

Opening a table is the one change the service announces to nobody (the chat answers the command
itself), so the hub also looks, once every ``poll_seconds``, whether a channel with browsers has
another table than the one they were last shown (a new lobby, or none after a cancel).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import deque
from collections.abc import Callable

from aiohttp import web

from bot.tables.table import Table

from .listeners import EveryChange
from .session_tokens import Session
from .table_frames import table_frame

log = logging.getLogger(__name__)


class Connection:
    """One browser's WebSocket, authenticated as ``session``'s user."""

    def __init__(self, ws: web.WebSocketResponse, session: Session) -> None:
        self.ws = ws
        self.session = session
        self._table: str | None = None  # the newest table frame not sent yet
        self._queued: deque[str] = deque()  # other frames (welcome, errors), all sent in order
        self._wake = asyncio.Event()
        self._sender: asyncio.Task[None] | None = None

    @property
    def user_id(self) -> int:
        return self.session.user_id

    def offer_table(self, frame: str) -> None:
        self._table = frame
        self._wake.set()

    def send(self, frame: str) -> None:
        self._queued.append(frame)
        self._wake.set()

    def start(self) -> None:
        self._sender = asyncio.create_task(self._send_loop(), name="activity-ws-send")

    async def _send_loop(self) -> None:
        try:
            while not self.ws.closed:
                await self._wake.wait()
                self._wake.clear()
                while self._queued or self._table is not None:
                    if self._queued:
                        await self.ws.send_str(self._queued.popleft())
                    elif self._table is not None:
                        frame, self._table = self._table, None
                        await self.ws.send_str(frame)
        except (ConnectionError, RuntimeError) as exc:  # the browser went away mid-send
            log.debug("activity socket of %s closed while sending: %s", self.user_id, exc)

    async def stop(self) -> None:
        if self._sender is not None:
            self._sender.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._sender


#: How often the hub looks for tables opened or closed in a channel with browsers.
POLL_SECONDS = 1.0


class ActivityHub(EveryChange):
    def __init__(self, *, poll_seconds: float = POLL_SECONDS) -> None:
        self._by_channel: dict[int, set[Connection]] = {}
        #: The table each channel's browsers were last shown (None: no table).
        self._shown: dict[int, str | None] = {}
        self.poll_seconds = poll_seconds
        self._watcher: asyncio.Task[None] | None = None

    def add(self, conn: Connection, table: Table | None) -> None:
        """A browser that has just been sent ``table`` (its channel's table, or None)."""
        channel = conn.session.channel_id
        self._by_channel.setdefault(channel, set()).add(conn)
        self._shown[channel] = None if table is None else table.table_id

    def remove(self, conn: Connection) -> None:
        conns = self._by_channel.get(conn.session.channel_id)
        if conns is not None:
            conns.discard(conn)
            if not conns:
                del self._by_channel[conn.session.channel_id]
                self._shown.pop(conn.session.channel_id, None)

    def connections(self, channel_id: int | None = None) -> list[Connection]:
        if channel_id is not None:
            return list(self._by_channel.get(channel_id, ()))
        return [c for conns in self._by_channel.values() for c in conns]

    def __len__(self) -> int:
        return sum(len(c) for c in self._by_channel.values())

    def changed(self, table: Table) -> None:
        """The service's notifier (:class:`EveryChange`): every change is broadcast."""
        self.broadcast(table)

    def broadcast(self, table: Table) -> None:
        """Every browser in the table's channel gets the table as its user may see it."""
        conns = self._by_channel.get(table.channel_id)
        if not conns:
            return
        self._shown[table.channel_id] = table.table_id
        frames: dict[int | None, str] = {}  # one frame per seat, one for all spectators
        for conn in conns:
            seat = table.seat_of(conn.user_id)
            frame = frames.get(seat)
            if frame is None:
                frame = frames[seat] = table_frame(table, conn.user_id)
            conn.offer_table(frame)

    # -- tables opened (or gone) while browsers watch -----------------------------------

    def watch(self, lookup: Callable[[int], Table | None]) -> None:
        """Start looking for channels whose table changed without a notification (again, at
        the current ``poll_seconds``, if it looks already)."""
        if self._watcher is not None:
            self._watcher.cancel()
        self._watcher = asyncio.create_task(self._watch(lookup), name="activity-hub-watch")

    async def _watch(self, lookup: Callable[[int], Table | None]) -> None:
        while True:
            await asyncio.sleep(self.poll_seconds)
            try:
                self.catch_up(lookup)
            except Exception:  # one odd table must not stop the others' updates
                log.exception("activity hub: catching up failed")

    def catch_up(self, lookup: Callable[[int], Table | None]) -> None:
        for channel, conns in list(self._by_channel.items()):
            table = lookup(channel)
            table_id = None if table is None else table.table_id
            if self._shown.get(channel) == table_id:
                continue
            if table is None:
                self._shown[channel] = None
                frame = table_frame(None, 0)
                for conn in conns:
                    conn.offer_table(frame)
            elif not table.lock.locked():  # mid-change: its notification follows anyway
                self.broadcast(table)

    async def close(self) -> None:
        if self._watcher is not None:
            self._watcher.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._watcher
        for conn in self.connections():
            await conn.stop()
            with contextlib.suppress(Exception):
                await conn.ws.close(code=1001, message=b"server shutting down")
        self._by_channel.clear()
