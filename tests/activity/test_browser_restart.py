"""Reconnecting across a restart (issue #19): the bot runs as its own process with its Activity
server (tests/bot/activity/activity_runner.py) against the fake Discord; Alice and Bob play at the
Activity in headless Chromium. The bot is SIGKILLed twice mid-game. While it is down, the one
who must move clicks; the client keeps that click, signs in again once the new process answers
(its session secret is new, so the old resume token is refused), sends it, and the table moves
on from exactly where it was: no acknowledged move is lost, and neither is the click made while
the bot was down. Then they play to the end.

Needs Chromium and the built client, like test_browser_game.py.
"""

from __future__ import annotations

import asyncio
import random
from pathlib import Path
from typing import Any

import aiohttp

from tests.activity import browser
from tests.activity.browser import BROWSER_TEST, Page
from tests.bot.robust_harness import BotProcess
from tests.fake_discord import FakeDiscord
from tests.fake_discord.pytest_plugin import started_fake

pytestmark = BROWSER_TEST

#: Seconds to wait for a step; a reconnect backs off up to 10 s between tries.
WAIT = 45.0
KILLS_AFTER_MOVES = (6, 14)


class ActivityBotProcess(BotProcess):
    runner = Path(__file__).resolve().parents[1] / "bot" / "activity" / "activity_runner.py"

    def __init__(self, fake: FakeDiscord, workdir: Path, port: int) -> None:
        super().__init__(fake, workdir)
        self.port = port

    def env(self) -> dict[str, str]:
        env = super().env()
        env.update(
            ACTIVITY_ENABLED="true",
            DISCORD_CLIENT_ID=str(self.fake.application_id),
            DISCORD_CLIENT_SECRET=self.fake.activity.client_secret,
            ACTIVITY_PUBLIC_HOST="durak.example.org",
            ACTIVITY_LISTEN_PORT=str(self.port),
        )
        return env


#: What the client shows when a wait fails (the diagnosis of a stuck step).
CLIENT_STATE = f"""(() => {{
  const doc = {browser.CLIENT_DOC};
  const app = doc?.getElementById('app');
  return app ? {{ ...app.dataset, selected: [...doc.querySelectorAll('.selected, .target')]
    .map(e => e.dataset.key), line: doc.querySelector('.status')?.textContent ?? '',
    toast: doc.querySelector('.toast')?.textContent ?? null,
    banner: doc.querySelector('.banner')?.textContent ?? null }} : null;
}})()"""


async def offers(page: Page, newer_than: int = -1) -> dict[str, Any]:
    """The client's offers once it draws a version newer than ``newer_than``."""
    try:
        shown: dict[str, Any] = await page.wait_for(
            browser.offers_when(f"o.version > {newer_than}"),
            f"a version newer than {newer_than}",
            WAIT,
        )
    except TimeoutError as error:
        raise TimeoutError(
            f"{error}; the client shows {await page.evaluate(CLIENT_STATE)};"
            f" its socket's last frames: {page.socket_log()}"
        ) from None
    return shown


async def click_offer(page: Page, key: str) -> None:
    """Click a raised card or a button; a card that beats several open cards, then the first."""
    doc = browser.CLIENT_DOC
    await page.evaluate(
        f"(() => {{ {doc}.querySelector('[data-key=\"{key}\"]').click();"
        f" const t = {doc}.querySelector('.pair .card.target'); if (t) t.click();"
        " return true; })()"
    )


def pick(shown: dict[str, Any], rng: random.Random) -> str:
    cards: list[str] = ["h:" + str(c) for c in shown["cards"]]
    if cards and (not shown["buttons"] or rng.random() < 0.75):
        return rng.choice(cards)
    return str(rng.choice(shown["buttons"]))


async def settled(pages: list[Page], version: int) -> list[dict[str, Any]]:
    """Both clients drawn at one version newer than ``version``."""
    for _ in range(int(WAIT / 0.05)):
        seen = [await offers(p, version) for p in pages]
        if len({s["version"] for s in seen}) == 1:
            return seen
        await asyncio.sleep(0.05)
    raise AssertionError(f"the browsers do not agree: {seen}")


async def test_browsers_carry_on_across_a_bot_kill_and_restart(tmp_path: Path) -> None:
    rng = random.Random(7)
    async with started_fake() as fake:
        guild = fake.add_guild("Durak Club")
        channel = fake.add_channel(guild, "tables")
        alice, bob = fake.add_user("alice"), fake.add_user("bob")
        bot = ActivityBotProcess(fake, tmp_path, browser.free_port())
        await bot.sync(guild)
        await bot.start()
        try:
            await fake.slash(alice, channel, "durak", "new", options={"deck": 24}, timeout=WAIT)
            await fake.slash(bob, channel, "durak", "join", timeout=WAIT)
            await fake.slash(alice, channel, "durak", "start", timeout=WAIT)
            instance = fake.activity.open_instance(channel, [alice, bob])
            base = f"http://127.0.0.1:{bot.port}/harness/?scenario={instance}"
            async with (
                browser.headless_chromium() as port,
                aiohttp.ClientSession() as http,
                browser.new_page(http, port) as page_a,
                browser.new_page(http, port) as page_b,
            ):
                pages = [page_a, page_b]
                for page, user in zip(pages, (alice, bob), strict=True):
                    await browser.reduce_motion(page)
                    await page.call("Network.enable")
                    await page.call("Runtime.enable")
                    await page.call("Page.navigate", url=f"{base}&user={user}")
                    await page.wait_for(browser.DRAWN, f"user {user}'s client", WAIT)
                seen = [await offers(p) for p in pages]
                version, moves = seen[0]["version"], 0
                clicks: list[str] = []  # page:key@version, said if a step never arrives
                while seen[0]["status"] == "running":
                    assert moves < 300, "the game does not end"
                    movers = [
                        p for p, s in zip(pages, seen, strict=True) if s["cards"] or s["buttons"]
                    ]
                    assert movers, seen
                    page = rng.choice(movers)
                    choice = pick(seen[pages.index(page)], rng)
                    clicks.append(f"{pages.index(page)}:{choice}@{version}")
                    if moves in KILLS_AFTER_MOVES:
                        bot.kill()  # every move so far was drawn by both: acknowledged
                        await asyncio.sleep(0.5)
                        await click_offer(page, choice)  # made while the bot is down
                        await bot.start()
                    else:
                        await click_offer(page, choice)
                    moves += 1
                    # the click (also the one made while down) moved the table on
                    try:
                        seen = await settled(pages, version)
                    except TimeoutError as error:
                        raise TimeoutError(f"{error}; the clicks: {' '.join(clicks)}") from None
                    version = seen[0]["version"]
                assert moves > max(KILLS_AFTER_MOVES)
                assert all(s["status"] == "finished" and not s["cards"] for s in seen), seen
        finally:
            await bot.stop()
