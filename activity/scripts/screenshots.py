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
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.activity.browser import (  # noqa: E402  (the DevTools driver, shared with the tests)
    SCREENSHOT_SCENARIOS,
    take_screenshots,
)

OUT = ROOT / "docs" / "activity"


async def main() -> None:
    parser = argparse.ArgumentParser(description="Screenshots of the Activity client.")
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument("--reduced-motion", action="store_true")
    parser.add_argument(
        "--scenario",
        action="append",
        help="a recorded scenario (activity/harness/frames/<name>.json); default: "
        + ", ".join(SCREENSHOT_SCENARIOS),
    )
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    scenarios = args.scenario or list(SCREENSHOT_SCENARIOS)
    for path in await take_screenshots(args.out, scenarios, reduced=args.reduced_motion):
        print(f"wrote {path}")


if __name__ == "__main__":
    os.environ.setdefault("PYTHONUNBUFFERED", "1")
    asyncio.run(main())
