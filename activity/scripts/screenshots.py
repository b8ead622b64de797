"""Screenshots of the client in headless Chromium, fed with recorded protocol frames
(docs/activity.md, "Client"): a seat that must defend and a spectator, at 1280×720 and 390×844.

    apt-get install -y chromium          # Debian's; no browser download
    cd activity && npm ci && npm run build && cd ..
    python activity/scripts/record_frames.py   # only if the protocol or catalogues changed
    python activity/scripts/screenshots.py     # writes docs/activity/*.png

It starts the harness server (activity/harness/serve.py), loads the harness page, which plays
Discord's parent frame over postMessage for the client in its iframe, and drives Chromium
over the DevTools protocol (aiohttp's WebSocket client; no Playwright or Selenium needed). A
shot is taken once the client has drawn the table and its animations have finished.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import itertools
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from base64 import b64decode
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiohttp

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "docs" / "activity"
SCENARIOS = ("seat-defend", "spectator")
SIZES = ((1280, 720), (390, 844))
#: True once the client in the iframe has drawn a table and nothing is animating.
DRAWN = """(() => {
  const doc = document.getElementById('activity')?.contentDocument;
  const app = doc?.getElementById('app');
  const still = doc?.getAnimations().every(a => a.playState !== 'running');
  return !!app && app.className !== '' && still;  // render() names the view
})()"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Page:
    """One Chromium page over the DevTools protocol."""

    def __init__(self, ws: aiohttp.ClientWebSocketResponse) -> None:
        self.ws = ws
        self.ids = itertools.count(1)

    async def call(self, method: str, **params: Any) -> dict[str, Any]:
        mid = next(self.ids)
        await self.ws.send_json({"id": mid, "method": method, "params": params})
        while True:
            msg = await self.ws.receive_json(timeout=30)
            if msg.get("id") == mid:
                if "error" in msg:
                    raise RuntimeError(f"{method}: {msg['error']}")
                result: dict[str, Any] = msg.get("result", {})
                return result

    async def evaluate(self, expression: str, context: int | None = None) -> Any:
        params: dict[str, Any] = {"expression": expression, "returnByValue": True}
        if context is not None:
            params["contextId"] = context
        result = await self.call("Runtime.evaluate", **params)
        return result.get("result", {}).get("value")

    async def wait_for(
        self, expression: str, what: str, timeout: float = 20.0, context: int | None = None
    ) -> None:
        deadline = time.monotonic() + timeout
        while not await self.evaluate(expression, context):
            if time.monotonic() > deadline:
                raise TimeoutError(f"waited {timeout}s for {what}")
            await asyncio.sleep(0.1)


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


async def shoot(
    browser_port: int, base: str, out: Path, reduced: bool, scenarios: list[str]
) -> list[Path]:
    written: list[Path] = []
    async with aiohttp.ClientSession() as http, new_page(http, browser_port) as page:
        if reduced:
            await page.call(
                "Emulation.setEmulatedMedia",
                features=[{"name": "prefers-reduced-motion", "value": "reduce"}],
            )
        for scenario, (width, height) in itertools.product(scenarios, SIZES):
            await set_size(page, width, height)
            platform = "mobile" if width < 600 else "desktop"
            await page.call(
                "Page.navigate",
                url=f"{base}/harness/?scenario={scenario}&shot=1&platform={platform}",
            )
            await page.wait_for(DRAWN, f"{scenario} at {width}x{height}")
            await asyncio.sleep(0.3)  # a frame or two after the last animation
            shot = await page.call("Page.captureScreenshot", format="png")
            path = out / f"{scenario}-{width}x{height}.png"
            path.write_bytes(b64decode(shot["data"]))
            written.append(path)
            print(f"wrote {path}")
    return written


def chromium() -> str:
    for name in ("chromium", "chromium-browser", "google-chrome"):
        found = shutil.which(name)
        if found:
            return found
    raise SystemExit("no Chromium: apt-get install -y chromium")


@contextlib.asynccontextmanager
async def headless_chromium(*flags: str) -> AsyncIterator[int]:
    """A headless Chromium on a fresh profile; yields its DevTools port, stops it after."""
    profile = tempfile.mkdtemp(prefix="durak-chromium-")
    browser = subprocess.Popen(
        [
            chromium(),
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


async def main() -> None:
    parser = argparse.ArgumentParser(description="Screenshots of the Activity client.")
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument("--reduced-motion", action="store_true")
    parser.add_argument(
        "--scenario",
        action="append",
        help="a recorded scenario (activity/harness/frames/<name>.json); default: "
        + ", ".join(SCENARIOS),
    )
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    port = free_port()
    harness = subprocess.Popen(
        [sys.executable, str(ROOT / "activity" / "harness" / "serve.py"), "--port", str(port)]
    )
    try:
        async with headless_chromium() as browser_port:
            base = f"http://127.0.0.1:{port}"
            async with aiohttp.ClientSession() as http:
                for _ in range(100):
                    with contextlib.suppress(aiohttp.ClientError):
                        async with http.get(base + "/harness/") as r:
                            if r.status == 200:
                                break
                    await asyncio.sleep(0.1)
            scenarios = args.scenario or list(SCENARIOS)
            await shoot(browser_port, base, args.out, args.reduced_motion, scenarios)
    finally:
        harness.terminate()
        harness.wait(10)


if __name__ == "__main__":
    os.environ.setdefault("PYTHONUNBUFFERED", "1")
    asyncio.run(main())
