"""One tap per defence (issue #31, "Play" 3), in headless Chromium through the harness page with
the recorded ``seat-defend`` frames: Q♣ beats either open jack, Q♥ only J♥. Tapping Q♣ offers
both jacks at once, with J♣ (the one no other card of the hand beats) pre-chosen; tapping Q♣
again beats it, tapping the other jack beats that one, and dragging Q♣ onto a jack beats that
jack. Each move reaches the harness's server as the frame's action code for that pair."""

from __future__ import annotations

import asyncio
from typing import Any

import aiohttp

from bot.text import t
from tests.activity.browser import (
    BROWSER_TEST,
    CLIENT_DOC,
    Page,
    harness_page,
    recorded_table,
    show_scenario,
)

pytestmark = BROWSER_TEST

GAME = recorded_table("seat-defend")["game"]
#: "defend <attack> <card>" → code, as the frame offers them.
CODES = {a["text"]: a["code"] for a in GAME["actions"]}

PAIRING = f"""(() => {{
  const doc = {CLIENT_DOC};
  return {{
    targets: [...doc.querySelectorAll('.pair .card.target')].map(e => e.dataset.key.slice(2)),
    preferred: [...doc.querySelectorAll('.pair .card.preferred')].map(e => e.dataset.key.slice(2)),
    line: doc.querySelector('.status .line')?.textContent ?? '',
  }};
}})()"""


def centre_of(selector: str) -> str:
    """The centre of the client's element, in the harness page's coordinates."""
    return f"""(() => {{
      const frame = document.getElementById('activity').getBoundingClientRect();
      const r = {CLIENT_DOC}.querySelector('{selector}').getBoundingClientRect();
      return [frame.left + r.left + r.width / 2, frame.top + r.top + r.height / 2];
    }})()"""


async def tap(page: Page, selector: str) -> None:
    await page.evaluate(f"{CLIENT_DOC}.querySelector('{selector}').click()")


async def last_act(http: aiohttp.ClientSession, base: str, count: int) -> dict[str, Any]:
    """The harness's ``count``-th action received, once it has arrived."""
    for _ in range(100):
        async with http.get(base + "/harness/acts") as r:
            acts: list[dict[str, Any]] = [a for a in await r.json() if a.get("type") == "act"]
        if len(acts) >= count:
            return acts[count - 1]
        await asyncio.sleep(0.05)
    raise AssertionError(f"the harness got {len(acts)} actions, not {count}")


async def drag(page: Page, source: str, target: str) -> None:
    (x0, y0), (x1, y1) = (
        await page.evaluate(centre_of(source)),
        await page.evaluate(centre_of(target)),
    )
    await page.call("Input.dispatchMouseEvent", type="mousePressed", x=x0, y=y0, button="left")
    for i in range(1, 11):
        x, y = x0 + (x1 - x0) * i / 10, y0 + (y1 - y0) * i / 10
        await page.call("Input.dispatchMouseEvent", type="mouseMoved", x=x, y=y, button="left")
    await page.call("Input.dispatchMouseEvent", type="mouseReleased", x=x1, y=y1, button="left")


async def test_a_card_that_beats_two_offers_both_with_one_chosen() -> None:
    assert {"defend JH QC", "defend JC QC", "defend JH QH"} <= set(CODES)
    async with harness_page((390, 844), reduced_motion=True) as (base, http, page):
        n = 0
        # Q♣ tapped: both jacks at once, J♣ pre-chosen; Q♣ again beats J♣
        await show_scenario(page, base, "seat-defend")
        await tap(page, '.hand [data-key="h:QC"]')
        shown = await page.evaluate(PAIRING)
        assert sorted(shown["targets"]) == ["JC", "JH"] and shown["preferred"] == ["JC"], shown
        assert shown["line"] == t("activity.pick_preferred", "en", card="Q♣", target="J♣")
        await tap(page, '.hand [data-key="h:QC"]')
        n += 1
        assert (await last_act(http, base, n))["code"] == CODES["defend JC QC"]
        # or the other highlighted jack: Q♣ beats J♥
        await show_scenario(page, base, "seat-defend")
        await tap(page, '.hand [data-key="h:QC"]')
        await tap(page, '.pair [data-key="t:JH"]')
        n += 1
        assert (await last_act(http, base, n))["code"] == CODES["defend JH QC"]
        # a card with one target plays at once: Q♥ on J♥
        await show_scenario(page, base, "seat-defend")
        await tap(page, '.hand [data-key="h:QH"]')
        n += 1
        assert (await last_act(http, base, n))["code"] == CODES["defend JH QH"]
        # dragged: Q♣ onto J♥, one gesture
        await show_scenario(page, base, "seat-defend")
        await drag(page, '.hand [data-key="h:QC"]', '.pair [data-key="t:JH"]')
        n += 1
        assert (await last_act(http, base, n))["code"] == CODES["defend JH QC"]
        # dragged onto nothing: no move, the card back in the hand
        await show_scenario(page, base, "seat-defend")
        await drag(page, '.hand [data-key="h:QC"]', ".mine .seat")
        await asyncio.sleep(0.3)
        async with http.get(base + "/harness/acts") as r:
            assert len([a for a in await r.json() if a.get("type") == "act"]) == n
        assert await page.evaluate(f"!{CLIENT_DOC}.querySelector('.ghost')")
