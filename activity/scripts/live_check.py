"""The client against the bot's real Activity server, in headless Chromium (docs/activity.md,
"Client"): the bot runs against the fake Discord of the tests (tests/fake_discord, with its
OAuth2 token endpoint, ``/users/@me`` and ``activity-instances``), and the harness page plays
Discord's parent frame from http://localhost:3333.

- alice and bob open a table with the chat commands; both join an Activity instance;
- whoever must move signs in through the SDK → ``POST /api/token`` (the fake exchanges the code)
  → the WebSocket; the hand cards the client raises equal the engine's legal cards for that seat;
- a click on a playable card moves the real table (its version grows, the card is on the table);
- carol, not seated, sees the public table and no hand.

    cd activity && npm run build && cd ..
    python activity/scripts/live_check.py   # from the repository root; exits 1 on a failure

Port 3333 must be free.
"""

from __future__ import annotations

import asyncio
import shutil
import sys
import tempfile
from pathlib import Path

from aiohttp import web

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT), str(Path(__file__).resolve().parent)]

from bot.tables.table import Table  # noqa: E402
from durak_core import Attack, Defend, Transfer  # noqa: E402
from tests.activity.browser import (  # noqa: E402
    Page,
    harness_routes,
    new_page,
    run_check,
    set_size,
)
from tests.bot.activity.helpers import activity_bot  # noqa: E402
from tests.bot.helpers import World, open_table, world  # noqa: E402

PARENT_PORT = 3333  # the SDK accepts messages from http://localhost:3333 (facts sheet §2)
#: Evaluated inside the client's iframe (another origin than the harness page).
IN_FRAME = "document"
DRAWN_HERE = """(() => {
  const app = document.getElementById('app');
  const still = document.getAnimations().every(a => a.playState !== 'running');
  return !!app && app.className !== '' && still;
})()"""
SUITS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}


def label(card: object) -> str:
    text = str(card).split("#")[0]
    return text[:-1] + SUITS[text[-1]]


def parent_app(w: World) -> web.Application:
    app = web.Application()
    app.add_routes(harness_routes(w.fake.activity.issue_code))
    return app


async def client_frame(page: Page) -> int:
    """An execution context in the client's iframe (cross-origin: the harness page cannot
    reach into it, so DevTools does)."""
    for _ in range(200):
        tree = (await page.call("Page.getFrameTree"))["frameTree"]
        for child in tree.get("childFrames", []):
            if child["frame"]["url"].startswith("http://127.0.0.1"):
                world = await page.call(
                    "Page.createIsolatedWorld", frameId=child["frame"]["id"], worldName="check"
                )
                return int(world["executionContextId"])
        await asyncio.sleep(0.1)
    raise AssertionError("the client's iframe never loaded")


async def check(browser_port: int, tmp: Path) -> None:
    import aiohttp

    # Discord's parent frame is played from another origin here: let it frame the client.
    ancestors = f"'self' http://localhost:{PARENT_PORT}"
    async with world(tmp) as w, activity_bot(w, activity_frame_ancestors=ancestors) as site:
        bot = site.bot
        table = await open_table(w, bot, [w.alice, w.bob], w.channel)
        instance = w.fake.activity.open_instance(w.channel, [w.alice, w.bob, w.carol])
        assert table.state is not None
        mover = next(u for u in (w.alice, w.bob) if table.state.legal_actions(table.seat_of(u)))
        seat = table.seat_of(mover)
        assert seat is not None
        legal = table.state.legal_actions(seat)
        legal_cards = {label(a.card) for a in legal if isinstance(a, Attack | Defend | Transfer)}
        runner = web.AppRunner(parent_app(w), access_log=None)
        await runner.setup()
        await web.TCPSite(runner, "localhost", PARENT_PORT).start()
        try:
            async with aiohttp.ClientSession() as http:
                base = f"http://localhost:{PARENT_PORT}/harness/?client={site.url}"
                async with new_page(http, browser_port) as page:
                    await set_size(page, 1280, 720)
                    await seat_moves(page, base, mover, instance, table, legal_cards, w)
                async with new_page(http, browser_port) as page:
                    await set_size(page, 1280, 720)
                    await spectator_sees_no_hand(page, base, w.carol, instance)
        finally:
            await runner.cleanup()


async def seat_moves(
    page: Page, base: str, mover: int, instance: str, table: Table, legal_cards: set[str], w: World
) -> None:
    """The mover's raised cards are the engine's legal cards, and a click moves the table."""
    seat = table.seat_of(mover)
    assert seat is not None and table.state is not None
    await page.call("Page.navigate", url=f"{base}&user={mover}&scenario={instance}")
    ctx = await client_frame(page)
    await page.wait_for(
        DRAWN_HERE + f" && !!{IN_FRAME}.querySelector('.hand')", "the seat", context=ctx
    )
    raised = await page.evaluate(
        f"[...{IN_FRAME}.querySelectorAll('.hand .card.playable')]"
        ".map(c => c.getAttribute('aria-label'))",
        ctx,
    )
    assert set(raised) == legal_cards, (raised, legal_cards)
    print(f"seat {seat}: raised {sorted(raised)} = the engine's legal cards")

    version = table.version
    await page.evaluate(f"{IN_FRAME}.querySelector('.hand .card.playable').click()", ctx)
    target = f"{IN_FRAME}.querySelector('.pair .card.target')"
    if await page.evaluate(f"!!{target}", ctx):  # a defence: which card it beats
        await page.evaluate(f"{target}.click()", ctx)
    await w.fake.wait_for(lambda: table.version > version, what="the table to move")
    shown = f"{IN_FRAME}.querySelectorAll('.pair').length"
    assert table.state is not None
    pairs = len(table.state.public_view().table)
    await page.wait_for(f"{shown} === {pairs}", "the new table", context=ctx)
    print(f"a click moved the table: version {version} → {table.version}")


async def spectator_sees_no_hand(page: Page, base: str, user: int, instance: str) -> None:
    await page.call("Page.navigate", url=f"{base}&user={user}&scenario={instance}")
    ctx = await client_frame(page)
    await page.wait_for(DRAWN_HERE, "the spectator's table", context=ctx)
    app_class = await page.evaluate(f"{IN_FRAME}.getElementById('app').className", ctx)
    assert app_class == "spectating", app_class
    assert not await page.evaluate(f"!!{IN_FRAME}.querySelector('.hand')", ctx)
    print("carol, not seated, sees the public table without a hand")


async def main() -> int:
    if not (ROOT / "activity" / "dist" / "index.html").exists():
        raise SystemExit("build the client first: cd activity && npm ci && npm run build")
    tmp = Path(tempfile.mkdtemp(prefix="durak-live-"))
    # the client's frame (127.0.0.1) in the harness page's process (localhost), so the page's
    # DevTools session reaches into it
    isolation = (
        "--disable-site-isolation-trials",
        "--disable-features=IsolateOrigins,site-per-process",
    )
    try:
        return await run_check(lambda browser_port: check(browser_port, tmp), *isolation)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
