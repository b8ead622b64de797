"""A whole game in the browser (issue #19): the built client in headless Chromium, inside the
harness page that plays Discord's parent frame over postMessage (facts sheet §2: served from the
client's own origin), against the bot's real Activity server and the fake Discord. Alice (a
desktop, 1280×720) and Bob (a phone, 390×844) play at the Activity, Carol with the chat
buttons, at one table, to the end. Before each browser move, the cards the client raises and
the buttons it offers are exactly the engine's legal actions for that seat; the move is made by
clicking them (a defence: the card, then the open card it beats). Every WebSocket frame each
browser received (read over DevTools) passes the wire leak check of test_wire_leak.py.

Needs Chromium (Debian's ``chromium``) and the built client (``npm ci && npm run build`` in
activity/, which the install does where npm exists); without either it is skipped, saying why.
"""

from __future__ import annotations

import random
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from bot.activity import server as server_module
from bot.activity.server import ActivityServer
from bot.tables.table import Table
from durak_core import Action, Attack, Defend, Transfer
from tests.activity.browser import (
    BROWSER_TEST,
    CLIENT_DIST,
    CLIENT_DOC,
    DRAWN,
    Page,
    harness_routes,
    headless_chromium,
    new_page,
    offers_when,
    reduce_motion,
    set_size,
)
from tests.bot.activity.helpers import (
    History,
    Site,
    activity_bot,
    chat_move,
    chat_settled,
    listen,
)
from tests.bot.activity.test_wire_leak import check_frames
from tests.bot.helpers import World, public_message, table_of, world

pytestmark = BROWSER_TEST

#: The running bot with its Activity server, Alice's page and Bob's.
Two = tuple[Site, Page, Page]

#: Seconds one step may take: generous, for a loaded CI machine (a step takes ~0.1 s).
WAIT = 30.0


def expected(table: Table, seat: int) -> tuple[set[str], set[str]]:
    """The engine's legal actions for ``seat`` as the client must offer them: hand cards
    (attack, defend, transfer) and buttons (``b:<verb>:<code>``; a transfer has its own)."""
    assert table.state is not None
    cards: set[str] = set()
    buttons: set[str] = set()
    for action in table.state.legal_actions(seat):
        if isinstance(action, Attack | Defend | Transfer):
            cards.add(str(action.card))
        if not isinstance(action, Attack | Defend):
            buttons.add(f"b:{str(action).split()[0]}:{action.code}")
    return cards, buttons


async def offers_match(page: Page, table: Table, seat: int) -> dict[str, Any]:
    """Wait until the client draws the table's version; its offers must be the engine's."""
    cards, buttons = expected(table, seat)
    shown: dict[str, Any] = await page.wait_for(
        offers_when(f"o.version === {table.version}"),
        f"seat {seat}'s client to draw version {table.version}",
        WAIT,
    )
    assert set(shown["cards"]) == cards, (table.version, seat, shown, cards)
    assert set(shown["buttons"]) == buttons, (table.version, seat, shown, buttons)
    return shown


async def click_move(page: Page, action: Action) -> None:
    """Make ``action`` with clicks, as a player would."""
    doc = CLIENT_DOC
    if isinstance(action, Attack | Defend):
        card = str(action.card)
        script = f"{doc}.querySelector('.hand [data-key=\"h:{card}\"]').click();"
        if isinstance(action, Defend):  # the card picked, then the open card it beats
            target = f"{doc}.querySelector('.pair [data-key=\"t:{action.attack}\"].target')"
            script += f" const t = {target}; if (t) t.click();"
    else:
        script = f"{doc}.querySelector('.controls [data-key$=\":{action.code}\"]').click();"
    await page.evaluate(f"(() => {{ {script} return true; }})()")


async def open_in_browser(page: Page, base: str, user: int, instance: str) -> None:
    await reduce_motion(page)
    await page.call("Network.enable")  # its WebSocket frames, for the wire leak check
    await page.call("Log.enable")  # what the browser refused: the CSP's violations
    await page.call("Page.navigate", url=f"{base}/harness/?scenario={instance}&user={user}")
    await page.wait_for(DRAWN, f"user {user}'s client to draw", timeout=30)


async def play_to_the_end(
    w: World, site_bot: Any, table: Table, pages: dict[int, Page], rng: random.Random
) -> int:
    """Random legal moves by whoever may move until the game ends; the browser moves made."""
    clicks = 0
    for _ in range(400):
        if table.status != "running":
            return clicks
        await w.fake.wait_for(
            lambda: chat_settled(site_bot, table, w.carol), WAIT, what="Carol's hand"
        )
        assert table.state is not None
        movers = [u for u in (w.alice, w.bob, w.carol) if table.state.legal_actions(seat(table, u))]
        assert movers, "nobody can act, yet the game is running"
        user = rng.choice(movers)
        version = table.version
        if user in pages:
            await offers_match(pages[user], table, seat(table, user))
            action = rng.choice(table.state.legal_actions(seat(table, user)))
            await click_move(pages[user], action)
            clicks += 1
        else:
            await chat_move(w.fake, user, rng)
        await w.fake.wait_for(moved_past(table, version), WAIT, what=f"user {user}'s move")
    raise AssertionError("the game does not end")


def moved_past(table: Table, version: int) -> Callable[[], bool]:
    return lambda: table.version > version


def seat(table: Table, user: int) -> int:
    found = table.seat_of(user)
    assert found is not None
    return found


@asynccontextmanager
async def two_browsers(monkeypatch: pytest.MonkeyPatch, w: World) -> AsyncIterator[Two]:
    """The bot, its Activity server serving the built client and, beside it, the harness page
    that plays Discord's parent frame (same origin); a desktop page (1280×720) for Alice and a
    phone's (390×844) for Bob."""
    monkeypatch.setattr(server_module, "CLIENT_DIR", CLIENT_DIST)
    served = ActivityServer.app

    def with_harness(server: ActivityServer) -> Any:
        app = served(server)
        app.add_routes(harness_routes(w.fake.activity.issue_code))
        return app

    monkeypatch.setattr(ActivityServer, "app", with_harness)
    async with (
        activity_bot(w) as site,
        headless_chromium() as port,
        aiohttp.ClientSession() as http,
        new_page(http, port) as alice,
        new_page(http, port) as bob,
    ):
        await set_size(alice, 1280, 720)
        await set_size(bob, 390, 844)
        yield site, alice, bob


async def open_pages(site: Site, pages: dict[int, Page], instance: str) -> None:
    for user, page in pages.items():
        await open_in_browser(page, site.url, user, instance)


async def test_a_whole_game_in_the_browser(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    rng = random.Random(19)
    async with world(tmp_path) as w, two_browsers(monkeypatch, w) as (site, alice, bob):
        fake, bot = w.fake, site.bot
        await fake.slash(
            w.alice, w.channel, "durak", "new", options={"deck": 24, "variants": "transfer"}
        )
        for u in (w.bob, w.carol):
            await fake.slash(u, w.channel, "durak", "join")
        await fake.slash(w.alice, w.channel, "durak", "start")
        table = table_of(bot, w.channel)
        history = History(table)  # every state, by version: what each frame is checked by
        listen(bot, history)
        await fake.wait_for(lambda: table.table_message_id is not None)
        await fake.click(w.carol, public_message(w, table), f"dkt:{table.table_id}:hand")
        instance = fake.activity.open_instance(w.channel, [w.alice, w.bob])
        pages = {w.alice: alice, w.bob: bob}
        await open_pages(site, pages, instance)

        clicks = await play_to_the_end(w, bot, table, pages, rng)

        assert table.status == "finished" and table.state is not None
        assert clicks >= 10, clicks
        result = table.state.public_view().result
        assert result is not None and result.durak is not None
        durak = table.seats[result.durak].name
        for user, page in pages.items():
            shown = await page.wait_for(
                offers_when(f"o.version === {table.version}"),
                f"user {user}'s client to show the end",
                WAIT,
            )
            assert shown["cards"] == [] and shown["buttons"] == []
            assert shown["status"] == "finished" and durak in shown["line"], shown
            # R23-R25 in the browser: no frame it received held a card hidden from its user,
            # and each offered exactly the engine's legal actions for the seat
            assert check_frames(page.websocket_frames(), user, history) >= clicks // 2
            # the whole game under the server's Content-Security-Policy: nothing refused
            refused = [
                e["params"]["entry"]["text"]
                for e in page.events
                if e.get("method") == "Log.entryAdded"
                and "Content Security Policy" in e["params"]["entry"].get("text", "")
            ]
            assert not refused, refused
