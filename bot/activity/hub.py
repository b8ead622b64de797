"""The browsers connected to the Activity, by channel, and how a table change reaches them.

The hub is a notifier of the table service (through :class:`.listeners.TableListeners`): it is
told of every change, from any source (chat buttons, AI seats, the turn timer, browsers), under
the table's lock. It builds each connection's frame there and then, so a frame always shows one
consistent version, and hands it to the connection's sender task; a slow browser skips versions
rather than queueing them (only the newest table frame waits to be sent).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import deque

from aiohttp import web

from bot.tables.table import Table

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


class ActivityHub:
    def __init__(self) -> None:
        self._by_channel: dict[int, set[Connection]] = {}

    def add(self, conn: Connection) -> None:
        self._by_channel.setdefault(conn.session.channel_id, set()).add(conn)

    def remove(self, conn: Connection) -> None:
        conns = self._by_channel.get(conn.session.channel_id)
        if conns is not None:
            conns.discard(conn)
            if not conns:
                del self._by_channel[conn.session.channel_id]

    def connections(self, channel_id: int | None = None) -> list[Connection]:
        if channel_id is not None:
            return list(self._by_channel.get(channel_id, ()))
        return [c for conns in self._by_channel.values() for c in conns]

    def __len__(self) -> int:
        return sum(len(c) for c in self._by_channel.values())

    # -- the service's notifier protocol --------------------------------------------------

    def table_changed(self, table: Table, *, actor: int | None) -> None:
        self.broadcast(table)

    def game_started(self, table: Table) -> None:
        self.broadcast(table)

    def table_closed(self, table: Table) -> None:
        self.broadcast(table)

    def broadcast(self, table: Table) -> None:
        """Every browser in the table's channel gets the table as its user may see it."""
        conns = self._by_channel.get(table.channel_id)
        if not conns:
            return
        frames: dict[int | None, str] = {}  # one frame per seat, one for all spectators
        for conn in conns:
            seat = table.seat_of(conn.user_id)
            frame = frames.get(seat)
            if frame is None:
                frame = frames[seat] = table_frame(table, conn.user_id)
            conn.offer_table(frame)

    async def close(self) -> None:
        for conn in self.connections():
            await conn.stop()
            with contextlib.suppress(Exception):
                await conn.ws.close(code=1001, message=b"server shutting down")
        self._by_channel.clear()
