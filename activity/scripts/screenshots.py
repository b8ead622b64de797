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
import subprocess
import sys
from base64 import b64decode
from pathlib import Path

import aiohttp

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.activity.browser import (  # noqa: E402  (the DevTools driver, shared with the tests)
    DRAWN,
    free_port,
    headless_chromium,
    new_page,
    reduce_motion,
    set_size,
)

OUT = ROOT / "docs" / "activity"
SCENARIOS = ("seat-defend", "spectator", "lobby", "finished")
SIZES = ((1280, 720), (390, 844))


async def shoot(
    browser_port: int, base: str, out: Path, reduced: bool, scenarios: list[str]
) -> list[Path]:
    written: list[Path] = []
    async with aiohttp.ClientSession() as http, new_page(http, browser_port) as page:
        if reduced:
            await reduce_motion(page)
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
