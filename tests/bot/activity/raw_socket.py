"""A WebSocket client by hand on a plain socket (127.0.0.1 only), for the attacks a browser
library would not make: ping frames before hello, never reading, headers sent byte by byte."""

from __future__ import annotations

import asyncio
import base64
import contextlib
import os
import socket

PING, TEXT = 0x9, 0x1


def ws_frame(opcode: int, payload: bytes) -> bytes:
    """One masked client frame (payload under 64 KiB)."""
    mask = os.urandom(4)
    masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
    size = len(payload)
    length = bytes([0x80 | size]) if size < 126 else bytes([0x80 | 126]) + size.to_bytes(2, "big")
    return bytes([0x80 | opcode]) + length + mask + masked


async def open_socket(port: int, *, rcvbuf: int = 4096) -> socket.socket:
    """A connected non-blocking socket with a small receive buffer (it is never read)."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
    sock.setblocking(False)
    await asyncio.get_running_loop().sock_connect(sock, ("127.0.0.1", port))
    return sock


async def upgrade(port: int, headers: dict[str, str] | None = None) -> socket.socket:
    """A socket upgraded to a WebSocket on ``/ws`` (only the 101 answer is read)."""
    loop = asyncio.get_running_loop()
    sock = await open_socket(port)
    key = base64.b64encode(os.urandom(16)).decode()
    lines = [
        "GET /ws HTTP/1.1",
        f"Host: 127.0.0.1:{port}",
        "Upgrade: websocket",
        "Connection: Upgrade",
        f"Sec-WebSocket-Key: {key}",
        "Sec-WebSocket-Version: 13",
        *(f"{k}: {v}" for k, v in (headers or {}).items()),
    ]
    await loop.sock_sendall(sock, ("\r\n".join(lines) + "\r\n\r\n").encode())
    answer = b""
    async with asyncio.timeout(5):
        while b"\r\n\r\n" not in answer:
            chunk = await loop.sock_recv(sock, 1)  # byte by byte: nothing past the answer
            if not chunk:
                break
            answer += chunk
    status = answer.split(b"\r\n", 1)[0]
    if b" 101 " not in status:
        sock.close()
        raise ConnectionRefusedError(status.decode(errors="replace"))
    return sock


async def flood(sock: socket.socket, frame: bytes, seconds: float) -> str:
    """Send ``frame`` over and over, never reading, for at most ``seconds``: "cut" once the
    server cut the connection, else "held"."""
    loop = asyncio.get_running_loop()
    batch = frame * 64
    try:
        async with asyncio.timeout(seconds):
            while True:
                await loop.sock_sendall(sock, batch)
    except TimeoutError:
        return "held"
    except OSError:  # reset by the server (or the pipe broken)
        return "cut"


def close_quietly(sock: socket.socket) -> None:
    with contextlib.suppress(OSError):
        sock.close()
