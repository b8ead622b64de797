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


#: Seconds a closing socket is given to send its close frame before its connection is cut.
CLOSE_GRACE = 1.0
#: Close codes: the browser does not read what it is sent (try again later), it sends too
#: much (policy); a newer socket of the same user replaced it, its instance has too many
#: sockets (the client does not reconnect after these two: it shows the error frame's text).
CLOSE_NOT_READING, CLOSE_POLICY, CLOSE_REPLACED, CLOSE_FULL = 1013, 1008, 4004, 4005


def write_failed(exc: BaseException) -> bool:
    """Whether ``exc``, raised by a write to a socket, means only that the write failed. A
    write cancelled while waiting for the browser to read cancels aiohttp's shared drain
    future, so the socket's next write raises ``CancelledError`` at once although nothing
    cancels the task now: that one is a failed write, not a cancellation."""
    if isinstance(exc, asyncio.CancelledError):
        task = asyncio.current_task()
        return task is None or task.cancelling() == 0
    return isinstance(exc, (TimeoutError, ConnectionError, RuntimeError))


#: Closes under way (held so that they finish).
_closing: set[asyncio.Task[None]] = set()


class Connection:
    """One browser's WebSocket, authenticated as ``session``'s user.

    What waits to be sent is bounded (``max_queued_bytes``, besides the newest table frame): a
    browser that does not read is disconnected rather than queued for (close code 1013).
    ``abort`` cuts the connection when even a close frame cannot be sent."""

    def __init__(
        self,
        ws: web.WebSocketResponse,
        session: Session,
        *,
        max_queued_bytes: int = 256 * 1024,
        abort: Callable[[], None] | None = None,
    ) -> None:
        self.ws = ws
        self.session = session
        self.max_queued_bytes = max_queued_bytes
        self._abort = abort
        self._table: str | None = None  # the newest table frame not sent yet
        self._queued: deque[str] = deque()  # other frames (welcome, errors), all sent in order
        self.queued_bytes = 0
        #: The most ``queued_bytes`` ever held (the tests read it).
        self.peak_queued_bytes = 0
        self._wake = asyncio.Event()
        self._sender: asyncio.Task[None] | None = None
        #: Set once the server has decided to close this socket: nothing more is queued.
        self.closing = False

    @property
    def user_id(self) -> int:
        return self.session.user_id

    def offer_table(self, frame: str) -> None:
        self._table = frame
        self._wake.set()

    def send(self, frame: str) -> None:
        if self.closing:
            return
        if self.queued_bytes + len(frame) > self.max_queued_bytes:
            log.info("activity socket of %s does not read; closing it", self.user_id)
            self.close_soon(CLOSE_NOT_READING, b"not reading")
            return
        self._queued.append(frame)
        self.queued_bytes += len(frame)
        self.peak_queued_bytes = max(self.peak_queued_bytes, self.queued_bytes)
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
                        frame = self._queued.popleft()
                        self.queued_bytes -= len(frame)
                        await self.ws.send_str(frame)
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

    def close_soon(self, code: int, message: bytes, final: str | None = None) -> None:
        """Close the socket with ``code`` (from code that cannot wait), after sending
        ``final`` (an error frame) when the browser reads; nothing else is sent any more."""
        if self.closing:
            return
        self.closing = True
        task = asyncio.create_task(self.close(code, message, final), name="activity-ws-close")
        _closing.add(task)
        task.add_done_callback(_closing.discard)

    async def close(
        self, code: int, message: bytes, final: str | None = None, *, flush: bool = False
    ) -> None:
        """Close the socket with ``code`` after ``final``; ``flush``: after the frames queued
        too (at most ``max_queued_bytes``). Whatever does not go within ``CLOSE_GRACE``
        seconds is dropped with the connection."""
        self.closing = True
        frames = list(self._queued) if flush else []
        self._queued.clear()
        self.queued_bytes = 0
        self._table = None
        await self.stop()
        if final is not None:
            frames.append(final)
        try:
            async with asyncio.timeout(CLOSE_GRACE):
                for frame in frames:
                    await self.ws.send_str(frame)
                await self.ws.close(code=code, message=message)
        except (TimeoutError, ConnectionError, RuntimeError, asyncio.CancelledError) as exc:
            if self._abort is not None:  # it does not even take the close frame
                self._abort()
            if not write_failed(exc):
                raise


#: How often the hub looks for tables opened or closed in a channel with browsers.
POLL_SECONDS = 1.0


class ActivityHub(EveryChange):
    """``per_user``, ``per_instance``: the most open sockets of one user (a new one closes
    the oldest) and of one activity instance (a new one past it is refused)."""

    def __init__(
        self,
        *,
        poll_seconds: float = POLL_SECONDS,
        per_user: int = 4,
        per_instance: int = 100,
    ) -> None:
        self._by_channel: dict[int, set[Connection]] = {}
        #: The table each channel's browsers were last shown (None: no table).
        self._shown: dict[int, str | None] = {}
        #: Every admitted socket, oldest first, by user and by instance.
        self._by_user: dict[int, list[Connection]] = {}
        self._by_instance: dict[str, set[Connection]] = {}
        self.per_user = per_user
        self.per_instance = per_instance
        self.poll_seconds = poll_seconds
        self._watcher: asyncio.Task[None] | None = None

    def admit(self, conn: Connection, replaced: str | None = None) -> bool:
        """Count a new socket against its user's and its instance's limits: False (nothing
        counted) when its instance has no room, even after the user's oldest sockets that it
        replaces; else those are closed (close code 4004, after the frame ``replaced``)."""
        user = self._by_user.get(conn.user_id, [])
        excess = user[: max(0, len(user) - self.per_user + 1)]
        instance = self._by_instance.get(conn.session.instance_id, set())
        freed = sum(1 for old in excess if old in instance)
        if len(instance) - freed >= self.per_instance:
            return False
        for old in excess:
            log.info("activity socket of %s replaced by a newer one", old.user_id)
            self.remove(old)
            old.close_soon(CLOSE_REPLACED, b"replaced", replaced)
        self._by_user.setdefault(conn.user_id, []).append(conn)
        self._by_instance.setdefault(conn.session.instance_id, set()).add(conn)
        return True

    def add(self, conn: Connection, table: Table | None) -> None:
        """A browser that has just been sent ``table`` (its channel's table, or None)."""
        if conn.closing:  # replaced before it was shown its table
            return
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
        user = self._by_user.get(conn.user_id)
        if user is not None and conn in user:
            user.remove(conn)
            if not user:
                del self._by_user[conn.user_id]
        instance = self._by_instance.get(conn.session.instance_id)
        if instance is not None:
            instance.discard(conn)
            if not instance:
                del self._by_instance[conn.session.instance_id]

    def instances(self) -> dict[str, list[Connection]]:
        """The open sockets by activity instance."""
        return {i: list(conns) for i, conns in self._by_instance.items()}

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
        # all at once, each within CLOSE_GRACE or cut
        await asyncio.gather(*(c.close(1001, b"server shutting down") for c in self.connections()))
        self._by_channel.clear()
