"""Deadlines every socket keeps, whatever the browser does (docs/activity.md, "Limits").

A write to a browser that does not read waits for ever: aiohttp's ``receive(timeout=…)`` does
not cover the pong it writes for a ping, and a transport's ``close()`` waits for its buffer to
drain. So the server answers pings itself (``autoping=False``), counting them as frames; every
phase that may write is bounded by ``asyncio.timeout``; what still does not finish in time is
cut with ``abort()`` (no close handshake, no flush).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass, field

from aiohttp import WSMessage, WSMsgType, web

from bot.text import t

from .hub import CLOSE_GRACE, CLOSE_POLICY, write_failed
from .limits import LogLimiter, TokenBucket
from .protocol import error_frame

#: Seconds a new WebSocket has to say hello with its session token (pings and their pongs
#: included).
HELLO_SECONDS = 10.0
#: Seconds one pong may take to be written (the browser reads, or it is cut).
PONG_SECONDS = 5.0


def cutter(request: web.BaseRequest) -> Callable[[], None]:
    """A function that cuts the request's connection at once (no flush). It holds the transport
    itself: aiohttp forgets it when it closes one (a close that then waits for its flush)."""
    transport = request.transport

    def cut() -> None:
        if transport is not None:
            transport.abort()

    return cut


def cut_later(cut: Callable[[], None], seconds: float = CLOSE_GRACE) -> None:
    """Cut the connection in ``seconds`` unless it is closed by then (aborting a closed one
    does nothing): after a socket's handler ends, a close still waiting on a browser that
    does not read must not hold it."""
    asyncio.get_running_loop().call_later(seconds, cut)


async def close_within(
    ws: web.WebSocketResponse,
    code: int,
    message: bytes,
    cut: Callable[[], None],
    final: str | None = None,
) -> None:
    """Send ``final`` (an error frame) and close with ``code`` within ``CLOSE_GRACE``, or cut."""
    try:
        async with asyncio.timeout(CLOSE_GRACE):
            if final is not None:
                await ws.send_str(final)
            await ws.close(code=code, message=message)
    except (TimeoutError, ConnectionError, RuntimeError, asyncio.CancelledError) as exc:
        cut()
        if not write_failed(exc):
            raise


async def pong_within(ws: web.WebSocketResponse, data: bytes, cut: Callable[[], None]) -> bool:
    """Answer a ping within ``PONG_SECONDS``; False (and the connection cut) if it did not go."""
    try:
        async with asyncio.timeout(PONG_SECONDS):
            await ws.pong(data)
    except (TimeoutError, ConnectionError, RuntimeError, asyncio.CancelledError) as exc:
        cut()
        if not write_failed(exc):
            raise
        return False
    return True


async def first_frame(
    ws: web.WebSocketResponse,
    frames: TokenBucket,
    locale: str,
    cut: Callable[[], None],
    quiet: LogLimiter,
) -> WSMessage | None:
    """A new socket's first data frame (pings answered and counted as frames); None if the
    socket went, or was closed for sending too fast. The caller bounds it in time."""
    while True:
        msg = await ws.receive()
        if msg.type in (WSMsgType.CLOSE, WSMsgType.CLOSING, WSMsgType.CLOSED, WSMsgType.ERROR):
            return None  # gone before saying hello
        if not frames.take():
            quiet.info("activity socket without hello sends too fast")
            final = error_frame("err.activity_too_fast", t("err.activity_too_fast", locale))
            await close_within(ws, CLOSE_POLICY, b"too many frames", cut, final)
            return None
        if msg.type == WSMsgType.PING:
            try:
                await ws.pong(msg.data)  # within the caller's deadline
            except (ConnectionError, RuntimeError):
                return None  # closing already
        elif msg.type != WSMsgType.PONG:
            return msg


@dataclass
class Unsigned:
    """Sockets that have not said hello yet: at most ``per_client`` for one caller (a user the
    proxy vouched for, else an address) and, a loose outer bound, ``per_address`` from one
    address (inside Discord every player's, the proxy's)."""

    per_client: int
    per_address: int
    by_client: dict[str, int] = field(default_factory=dict)
    by_address: dict[str, int] = field(default_factory=dict)

    def admit(self, client: str, address: str) -> bool:
        """Count one more (True), or False when either bound is reached."""
        if self.by_client.get(client, 0) >= self.per_client:
            return False
        if self.by_address.get(address, 0) >= self.per_address:
            return False
        self.by_client[client] = self.by_client.get(client, 0) + 1
        self.by_address[address] = self.by_address.get(address, 0) + 1
        return True

    def release(self, client: str, address: str) -> None:
        for counts, key in ((self.by_client, client), (self.by_address, address)):
            if counts[key] <= 1:
                del counts[key]
            else:
                counts[key] -= 1

    def __len__(self) -> int:
        return sum(self.by_client.values())
