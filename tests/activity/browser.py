"""A headless Chromium driven over the DevTools protocol (aiohttp's WebSocket client: no
Playwright, no Selenium, no browser download), and the harness page that plays Discord's
parent frame for the client (activity/harness, facts sheet §2). Shared by the browser tests
(tests/activity/test_browser_*.py) and the scripts in activity/scripts."""

from __future__ import annotations

import asyncio
import contextlib
import io
import itertools
import json
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from base64 import b64decode
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from aiohttp import web

ROOT = Path(__file__).resolve().parents[2]
HARNESS = ROOT / "activity" / "harness"
#: The built client the bot serves (``npm run build`` in activity/).
CLIENT_DIST = ROOT / "activity" / "dist"
#: The client's document, from the harness page (the same origin: the page reaches into it).
CLIENT_DOC = "document.getElementById('activity')?.contentDocument"
#: True once the client in the harness's iframe has drawn a view and nothing is animating.
DRAWN = f"""(() => {{
  const doc = {CLIENT_DOC};
  const app = doc?.getElementById('app');
  const still = doc?.getAnimations().every(a => a.playState !== 'running');
  return !!app && app.className !== '' && still;  // render() names the view
}})()"""

#: What the client offers once it is still (no move on its way, no animation): the drawn
#: version and status, the raised hand cards, the enabled action buttons and the enabled lobby
#: (and "done for this bout", rematch) buttons, by their ``data-key``.
OFFERS = f"""(() => {{
  const doc = {CLIENT_DOC};
  const app = doc?.getElementById('app');
  if (!app || app.dataset.pending !== 'false') return null;
  if (!doc.getAnimations().every(a => a.playState !== 'running')) return null;
  const keys = sel => [...doc.querySelectorAll(sel)].map(e => e.dataset.key);
  return {{
    version: Number(app.dataset.version),
    cards: keys('.hand .card.playable').map(k => k.slice(2)),
    buttons: keys('.controls button.act:not([disabled])'),
    ops: keys('.ops button.act:not([disabled])'),
    status: app.dataset.status,
    line: doc.querySelector('.status')?.textContent ?? '',
  }};
}})()"""


def offers_when(condition: str) -> str:
    """``OFFERS`` once ``condition`` (JavaScript, on ``o``) holds, else null."""
    return f"(() => {{ const o = {OFFERS}; return o && ({condition}) ? o : null }})()"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def find_chromium() -> str | None:
    for name in ("chromium", "chromium-browser", "google-chrome"):
        found = shutil.which(name)
        if found:
            return found
    return None


def needs() -> str | None:
    """Why the browser tests cannot run here, if they cannot."""
    if find_chromium() is None:
        return "no Chromium (apt-get install chromium): the browser game did NOT run"
    if not (CLIENT_DIST / "index.html").is_file():
        return (
            "the Activity's client is not built (cd activity && npm ci && npm run build): "
            "the browser game did NOT run"
        )
    return None


#: A browser test module's ``pytestmark``: slow, in a browser, and skipped where it cannot run,
#: saying why.
BROWSER_TEST = [
    pytest.mark.slow,
    pytest.mark.browser,
    pytest.mark.skipif(needs() is not None, reason=needs() or ""),
]


class Page:
    """One Chromium page over the DevTools protocol."""

    def __init__(self, ws: aiohttp.ClientWebSocketResponse) -> None:
        self.ws = ws
        self.ids = itertools.count(1)
        #: The events the page sent (``Network.enable`` adds the WebSocket frames), in order.
        self.events: list[dict[str, Any]] = []

    def websocket_frames(self) -> list[str]:
        """Every text frame the page's WebSockets received (with ``Network`` enabled)."""
        return [
            str(e["params"]["response"]["payloadData"])
            for e in self.events
            if e.get("method") == "Network.webSocketFrameReceived"
            and e["params"]["response"].get("opcode") == 1
        ]

    def socket_log(self, last: int = 12) -> str:
        """The diagnosis of a stuck step: the page's last WebSocket events in short (sockets
        opened and closed, frames both ways with their times; ``Network`` enabled) and the
        last exceptions it threw (``Runtime`` enabled)."""
        said: list[str] = []
        for event in self.events:
            method = event.get("method", "")
            if method in ("Network.webSocketCreated", "Network.webSocketClosed"):
                said.append("opened" if method.endswith("Created") else "closed")
                continue
            if method not in ("Network.webSocketFrameSent", "Network.webSocketFrameReceived"):
                continue
            data = str(event["params"]["response"]["payloadData"])
            try:
                frame = json.loads(data)
            except ValueError:
                frame = {"type": data[:40]}
            table = frame.get("table") or {}
            what = {k: frame[k] for k in ("type", "code", "version", "key", "text") if k in frame}
            if isinstance(table, dict) and "version" in table:
                what["table_version"] = table["version"]
            what["t"] = round(float(event["params"].get("timestamp", 0)), 3)
            way = "→" if method.endswith("Sent") else "←"
            said.append(way + json.dumps(what, ensure_ascii=False))
        thrown = [
            str(e["params"]["exceptionDetails"].get("exception", {}).get("description", ""))
            for e in self.events
            if e.get("method") == "Runtime.exceptionThrown"
        ]
        return " ".join(said[-last:]) + (f"; it threw: {thrown[-3:]}" if thrown else "")

    async def call(self, method: str, **params: Any) -> dict[str, Any]:
        mid = next(self.ids)
        await self.ws.send_json({"id": mid, "method": method, "params": params})
        while True:
            msg = await self.ws.receive_json(timeout=30)
            if "method" in msg:
                self.events.append(msg)
            elif msg.get("id") == mid:
                if "error" in msg:
                    raise RuntimeError(f"{method}: {msg['error']}")
                result: dict[str, Any] = msg.get("result", {})
                return result

    async def evaluate(self, expression: str, context: int | None = None) -> Any:
        params: dict[str, Any] = {"expression": expression, "returnByValue": True}
        if context is not None:
            params["contextId"] = context
        result = await self.call("Runtime.evaluate", **params)
        if "exceptionDetails" in result:
            raise RuntimeError(f"{expression[:80]}…: {result['exceptionDetails']}")
        return result.get("result", {}).get("value")

    async def wait_for(
        self, expression: str, what: str, timeout: float = 20.0, context: int | None = None
    ) -> Any:
        """The expression's first truthy value, polled every 50 ms."""
        deadline = time.monotonic() + timeout
        while not (value := await self.evaluate(expression, context)):
            if time.monotonic() > deadline:
                raise TimeoutError(f"waited {timeout}s for {what}")
            await asyncio.sleep(0.05)
        return value


@contextlib.asynccontextmanager
async def new_page(http: aiohttp.ClientSession, browser_port: int) -> AsyncIterator[Page]:
    """A new tab of the browser, driven over its DevTools WebSocket, page events on."""
    async with http.put(f"http://127.0.0.1:{browser_port}/json/new?about:blank") as r:
        target = await r.json()
    async with http.ws_connect(target["webSocketDebuggerUrl"], max_msg_size=0) as ws:
        page = Page(ws)
        await page.call("Page.enable")
        yield page


async def set_size(page: Page, width: int, height: int) -> None:
    """The viewport, as a phone below 600 px wide."""
    await page.call(
        "Emulation.setDeviceMetricsOverride",
        width=width,
        height=height,
        deviceScaleFactor=1,
        mobile=width < 600,
    )


async def reduce_motion(page: Page) -> None:
    await page.call(
        "Emulation.setEmulatedMedia",
        features=[{"name": "prefers-reduced-motion", "value": "reduce"}],
    )


@contextlib.asynccontextmanager
async def headless_chromium(*flags: str) -> AsyncIterator[int]:
    """A headless Chromium on a fresh profile; yields its DevTools port, stops it after."""
    binary = find_chromium()
    if binary is None:
        raise SystemExit("no Chromium: apt-get install -y chromium")
    profile = tempfile.mkdtemp(prefix="durak-chromium-")
    browser = subprocess.Popen(
        [
            binary,
            "--headless",
            "--no-sandbox",  # root in a container
            "--disable-gpu",
            "--hide-scrollbars",
            "--no-first-run",
            *flags,
            f"--user-data-dir={profile}",
            "--remote-debugging-port=0",
            "about:blank",
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        active = Path(profile) / "DevToolsActivePort"
        deadline = time.monotonic() + 30
        while not active.exists() or not active.read_text().strip():
            if time.monotonic() > deadline or browser.poll() is not None:
                raise SystemExit("Chromium did not start")
            await asyncio.sleep(0.1)
        yield int(active.read_text().split()[0])
    finally:
        browser.terminate()
        browser.wait(10)
        shutil.rmtree(profile, ignore_errors=True)


async def harness_file(request: web.Request) -> web.FileResponse:
    """``/harness/`` and ``/harness/{name}``: the page, its script and style, nothing else."""
    name = request.match_info.get("name") or "index.html"
    if name not in ("index.html", "harness.js", "harness.css"):
        raise web.HTTPNotFound()
    return web.FileResponse(HARNESS / name)


#: Avatar colours of the harness's stand-in CDN, picked by the user id.
AVATAR_COLOURS = ((0x5C, 0x6B, 0xC0), (0xE0, 0x7A, 0x5F), (0x3D, 0xA5, 0xD9), (0x8E, 0x44, 0xAD))


def avatar_png(user_id: int) -> bytes:
    """A small generated picture standing in for a Discord avatar (a face on a colour)."""
    from PIL import Image, ImageDraw

    image = Image.new("RGB", (64, 64), AVATAR_COLOURS[user_id % len(AVATAR_COLOURS)])
    draw = ImageDraw.Draw(image)
    draw.ellipse((14, 10, 50, 46), fill=(246, 222, 190))  # the head
    draw.ellipse((8, 44, 56, 84), fill=(246, 222, 190))  # the shoulders
    for x in (25, 39):
        draw.ellipse((x - 3, 24, x + 3, 30), fill=(40, 40, 40))
    buffer = io.BytesIO()
    image.save(buffer, format="PNG")
    return buffer.getvalue()


async def cdn_avatar(request: web.Request) -> web.Response:
    """``/cdn/avatars/{user}/{hash}.png``: what the Activity's URL mapping ``/cdn`` →
    ``cdn.discordapp.com`` reaches in Discord; here a generated picture. A hash ending in
    ``404`` answers 404 (a picture that does not load: the client falls back to initials)."""
    user, name = request.match_info["user"], request.match_info["file"]
    if not user.isdigit() or not name.endswith(".png") or name.removesuffix(".png").endswith("404"):
        raise web.HTTPNotFound()
    return web.Response(body=avatar_png(int(user)), content_type="image/png")


def harness_routes(issue_code: Callable[[int], str | Awaitable[str]]) -> list[web.RouteDef]:
    """The harness page and its script, ``/harness/code?user=``: the code ``authorize``
    gives that user (``issue_code``, e.g. the fake Discord's), and the stand-in CDN."""

    async def code(request: web.Request) -> web.Response:
        issued = issue_code(int(request.query["user"]))
        return web.Response(text=issued if isinstance(issued, str) else await issued)

    return [
        web.get("/harness/", harness_file),
        web.get("/harness/code", code),
        web.get("/harness/{name}", harness_file),
        web.get("/cdn/avatars/{user}/{file}", cdn_avatar),
    ]


#: The recorded scenarios (activity/harness/frames/<name>.json) docs/activity.md shows, and the
#: two layouts every view is checked at (issue #19): a desktop and a phone.
SCREENSHOT_SCENARIOS = ("seat-defend", "spectator", "lobby", "finished", "open-table")
SCREENSHOT_SIZES = ((1280, 720), (390, 844))
#: Every size issues #31 and #46 ask the client to lay out at: a desktop, phones upright and
#: on their side (a common Android's 360×640 too), a small pane (Discord's
#: picture-in-picture) and a tablet.
LAYOUT_SIZES = (
    (1280, 720),
    (390, 844),
    (844, 390),
    (360, 640),
    (640, 360),
    (480, 270),
    (768, 1024),
)


@contextlib.asynccontextmanager
async def harness_server(frames: Path | None = None) -> AsyncIterator[str]:
    """activity/harness/serve.py on a free port, once it answers; yields its base URL.
    ``frames``: the scenarios' folder, if not the recorded ones."""
    port = free_port()
    folder = ["--frames", str(frames)] if frames is not None else []
    harness = subprocess.Popen(
        [sys.executable, str(HARNESS / "serve.py"), "--port", str(port), *folder],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        async with aiohttp.ClientSession() as http:
            for _ in range(100):
                with contextlib.suppress(aiohttp.ClientError):
                    async with http.get(base + "/harness/") as r:
                        if r.status == 200:
                            break
                await asyncio.sleep(0.1)
        yield base
    finally:
        harness.terminate()
        harness.wait(10)


@contextlib.asynccontextmanager
async def harness_page(
    size: tuple[int, int] | None = None,
    *,
    reduced_motion: bool = False,
    frames: Path | None = None,
) -> AsyncIterator[tuple[str, aiohttp.ClientSession, Page]]:
    """The harness server with its recorded frames, a headless Chromium and one page of it
    (``size``: its viewport, ``set_size``; ``reduced_motion``: ``reduce_motion``): yields the
    server's base URL, an HTTP session and the page; stops them all after. ``frames``: as
    :func:`harness_server`'s."""
    async with (
        harness_server(frames) as base,
        headless_chromium() as browser_port,
        aiohttp.ClientSession() as http,
        new_page(http, browser_port) as page,
    ):
        if reduced_motion:
            await reduce_motion(page)
        if size is not None:
            await set_size(page, *size)
        yield base, http, page


def recorded_table(scenario: str) -> dict[str, Any]:
    """The first table of a recorded scenario (activity/harness/frames/<scenario>.json), as
    the harness sends it."""
    recorded = json.loads((HARNESS / "frames" / f"{scenario}.json").read_text(encoding="utf-8"))
    table: dict[str, Any] = recorded["tables"][0]["table"]
    return table


async def show_scenario(page: Page, base: str, scenario: str) -> None:
    """The harness page (served at ``base``) with a recorded scenario, once it is drawn."""
    await page.call("Page.navigate", url=f"{base}/harness/?scenario={scenario}&shot=1")
    await page.wait_for(DRAWN, f"the {scenario} scenario drawn")


#: The suits' marks, as the client shows a card (``10♦``).
SUIT_MARKS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}


def card_label(card: str) -> str:
    """The client's short name of a card in durak_core notation (``10D`` → ``10♦``)."""
    return card[:-1] + SUIT_MARKS[card[-1]]


async def run_check(check: Callable[[int], Awaitable[None]], *flags: str) -> int:
    """A script's check in a fresh headless Chromium (``check`` gets its DevTools port):
    prints "ok" and returns 0, or "FAILED: ..." and 1 when one of its assertions fails."""
    try:
        async with headless_chromium(*flags) as browser_port:
            await check(browser_port)
    except AssertionError as exc:
        print(f"FAILED: {exc!r}")
        return 1
    print("ok")
    return 0


async def take_screenshots(
    out: Path,
    scenarios: Sequence[str] = SCREENSHOT_SCENARIOS,
    *,
    reduced: bool = False,
    sizes: Sequence[tuple[int, int]] = SCREENSHOT_SIZES,
) -> list[Path]:
    """The client in the harness page, fed each recorded scenario, shot once it has drawn and
    stopped moving, at each size: ``out/<scenario>-<w>x<h>.png``. Starts the harness server
    and a headless Chromium, and stops both."""
    written: list[Path] = []
    async with harness_page() as (base, _, page):
        if reduced:
            await reduce_motion(page)
        for scenario, (width, height) in itertools.product(scenarios, sizes):
            await set_size(page, width, height)
            platform = "mobile" if width < 600 else "desktop"
            url = f"{base}/harness/?scenario={scenario}&shot=1&platform={platform}"
            await page.call("Page.navigate", url=url)
            await page.wait_for(DRAWN, f"{scenario} at {width}x{height}")
            await asyncio.sleep(0.3)  # a frame or two after the last animation
            shot = await page.call("Page.captureScreenshot", format="png")
            path = out / f"{scenario}-{width}x{height}.png"
            path.write_bytes(b64decode(shot["data"]))
            written.append(path)
    return written
