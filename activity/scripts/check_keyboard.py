"""A browser check of the client with the keyboard alone, in headless Chromium through the
harness (docs/activity.md, "Client"):

- the SDK's handshake reaches the harness (Discord's parent frame), with AUTHORIZE and
  AUTHENTICATE answered over postMessage;
- the playable hand cards are exactly those the frame's actions offer;
- Tab to a card that beats two open cards, Enter, Tab to the second open card, Enter: the
  harness server receives that defence's action code with the frame's version, and the
  client draws the next frame.

    python activity/scripts/check_keyboard.py   # after npm run build; exits 1 on a failure
"""

from __future__ import annotations

import asyncio
import json
import sys
import time
from base64 import b64decode
from pathlib import Path
from typing import Any

import aiohttp
from screenshots import ROOT

from tests.activity.browser import DRAWN, Page, harness_server, new_page, run_check, set_size

FRAMES = ROOT / "activity" / "harness" / "frames"
#: ``--shot DIR``: also save a screenshot of the pairing in progress there.
SHOT_DIR = Path(sys.argv[sys.argv.index("--shot") + 1]) if "--shot" in sys.argv else None
CARD_LABELS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}


def label(card: str) -> str:
    return card[:-1] + CARD_LABELS[card[-1]]


async def key(page: Page, name: str, code: int) -> None:
    for kind in ("rawKeyDown", "keyUp"):
        await page.call(
            "Input.dispatchKeyEvent",
            type=kind,
            key=name,
            code=name,
            windowsVirtualKeyCode=code,
        )
    if name == "Enter":  # the keypress that activates a focused button
        await page.call("Input.dispatchKeyEvent", type="char", text="\r")
    await asyncio.sleep(0.15)


FOCUSED = (
    "document.getElementById('activity').contentDocument.activeElement?.getAttribute('aria-label')"
)


async def tab_to(page: Page, wanted: str) -> None:
    for _ in range(40):
        await key(page, "Tab", 9)
        if await page.evaluate(FOCUSED) == wanted:
            return
    raise AssertionError(f"Tab never reached {wanted}")


async def check(browser_port: int, base: str) -> None:
    recorded = json.loads((FRAMES / "seat-defend.json").read_text(encoding="utf-8"))
    table = recorded["tables"][0]["table"]
    actions: list[dict[str, Any]] = table["game"]["actions"]
    offered = {a["text"].split()[-1] for a in actions if a["text"].split()[0] != "take"}
    targets: dict[str, dict[str, int]] = {}
    for a in actions:
        words = a["text"].split()
        if words[0] == "defend":
            targets.setdefault(words[2], {})[words[1]] = a["code"]
    card, choices = next((c, t) for c, t in targets.items() if len(t) >= 2)
    attack, code = sorted(choices.items())[-1]

    async with aiohttp.ClientSession() as http, new_page(http, browser_port) as page:
        await set_size(page, 1280, 720)
        await page.call("Page.navigate", url=f"{base}/harness/?scenario=seat-defend")
        await page.wait_for(DRAWN, "the table")
        commands = await page.evaluate("window.harness.commands")
        assert commands[:2] == ["AUTHORIZE", "AUTHENTICATE"], commands
        handshake = await page.evaluate("window.harness.handshake")
        assert handshake["client_id"] == "1234567890", handshake
        playable = await page.evaluate(
            "[...document.getElementById('activity').contentDocument"
            ".querySelectorAll('.hand .card.playable')].map(c => c.getAttribute('aria-label'))"
        )
        assert set(playable) == {label(c) for c in offered}, (playable, offered)
        print(f"playable cards {sorted(playable)} = the frame's offers")

        await tab_to(page, label(card))
        await key(page, "Enter", 13)
        focused = await page.evaluate(FOCUSED)
        assert focused in {label(a) for a in choices}, focused
        if SHOT_DIR is not None:  # the pairing in progress, for a look
            await asyncio.sleep(0.3)
            shot = await page.call("Page.captureScreenshot", format="png")
            (SHOT_DIR / "seat-pairing-1280x720.png").write_bytes(b64decode(shot["data"]))
        if focused != label(attack):
            await tab_to(page, label(attack))
        await key(page, "Enter", 13)
        deadline = time.monotonic() + 10
        while True:
            async with http.get(base + "/harness/acts") as r:
                acts = await r.json()
            if acts or time.monotonic() > deadline:
                break
            await asyncio.sleep(0.1)
        assert acts and acts[-1]["code"] == code, (acts, code)
        assert acts[-1]["version"] == table["version"], acts
        print(
            f"keyboard: {label(card)} then {label(attack)} sent code {code}",
            f"(defend {attack} {card})",
        )
        beaten = sum(1 for pair in table["game"]["table"] if pair[1])
        await page.wait_for(
            "document.getElementById('activity').contentDocument"
            f".querySelectorAll('.pair .defence').length > {beaten}",
            "the next frame",
        )
        print("the next frame is drawn")


async def main() -> int:
    async with harness_server() as base:
        return await run_check(lambda browser_port: check(browser_port, base))


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
