"""Cards move (issue #31, "Play" 4), in headless Chromium through the harness page and the
recorded seat-defend frames: after the defence is played, the card that went from the hand to
the table slides there (a Web Animation on that card, at most 250 ms), and under
``prefers-reduced-motion`` nothing moves at all."""

from __future__ import annotations

import asyncio
import json
import time

from tests.activity.browser import (
    BROWSER_TEST,
    CLIENT_DOC,
    HARNESS,
    Page,
    harness_page,
    reduce_motion,
    show_scenario,
)

pytestmark = BROWSER_TEST

#: Every running animation: the card it moves (or null) and its duration.
ANIMATIONS = f"""(() => {CLIENT_DOC}.getAnimations().map(a => ({{
  card: a.effect?.target?.dataset?.card ?? null,
  ms: a.effect?.getComputedTiming().duration,
  css: a instanceof CSSAnimation || a instanceof CSSTransition,
}})))()"""


def played_card() -> str:
    """The card the recorded next frame put on the table (from the hand)."""
    frames = json.loads((HARNESS / "frames" / "seat-defend.json").read_text(encoding="utf-8"))
    first, second = (f["table"]["game"] for f in frames["tables"][:2])
    before = {c for pair in first["table"] for c in pair if c}
    (card,) = {c for pair in second["table"] for c in pair if c} - before
    assert card in first["hand"]
    return str(card)


async def play(page: Page, base: str, card: str) -> list[dict[str, object]]:
    """Send the recorded move as the client would, and collect the animations of the next
    drawing for a moment."""
    await show_scenario(page, base, "seat-defend")
    version = await page.evaluate(f"{CLIENT_DOC}.getElementById('app').dataset.version")
    # a tap on the card; a card that beats two open cards takes a second tap (the likeliest
    # is chosen already). The harness answers any offered move with the recorded next frame.
    click = f"{CLIENT_DOC}.querySelector('.hand [data-key=\"h:{card}\"]')?.click()"
    await page.evaluate(click)
    if await page.evaluate(f"{CLIENT_DOC}.getElementById('app').dataset.pending") != "true":
        await page.evaluate(click)
    seen: list[dict[str, object]] = []
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        drawn = await page.evaluate(f"{CLIENT_DOC}.getElementById('app').dataset.version")
        seen += await page.evaluate(ANIMATIONS)
        if drawn != version and len(seen) > 0:
            break
        await asyncio.sleep(0.02)
    await asyncio.sleep(0.3)
    return seen


async def test_the_played_card_slides_and_reduced_motion_stills_it() -> None:
    card = played_card()
    async with harness_page((1280, 720)) as (base, _, page):
        moves = [a for a in await play(page, base, card) if not a["css"]]
        assert any(a["card"] == card for a in moves), moves
        assert all(isinstance(a["ms"], int | float) and a["ms"] <= 250 for a in moves), moves

        await reduce_motion(page)
        moves = [a for a in await play(page, base, card) if not a["css"]]
        assert moves == [], moves
