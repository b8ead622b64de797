"""The results screen's rating change (issue #31, "Play" 6), through the running server: two
players at the Activity and an AI seat play two games; each finished frame carries every human
seat's rating before and after the game and its change, equal to what storage holds (the guild
rating the leaderboard shows, to one decimal), and nothing for the AI seat. The frame is built
from what recording the game returned: no viewer makes storage work."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from bot.app import DurakBot
from bot.tables.table import Table
from tests.bot.activity.helpers import Browser, activity_bot, applied, open_browser
from tests.bot.helpers import World, table_of, world


async def play_to_the_end(w: World, table: Table, browsers: dict[int, Browser]) -> None:
    """Seeded random legal moves of the two browsers (the AI seat moves by itself)."""
    rng = random.Random(31)
    for _ in range(400):
        await w.fake.wait_for(
            lambda: all(
                (b.last_table() or {}).get("version") == table.version for b in browsers.values()
            ),
            what="both browsers at the table's version",
        )
        if table.status != "running":
            return
        movers = [u for u, b in browsers.items() if (b.last_table() or {})["game"]["actions"]]
        if not movers:  # the AI seat is to move
            await moved_on(w, table, table.version)
            continue
        user = rng.choice(movers)
        shown = browsers[user].last_table()
        assert shown is not None
        choice = rng.choice(shown["game"]["actions"])
        act = {"v": 1, "type": "act", "code": choice["code"], "version": shown["version"]}
        await applied(w.fake, table, browsers[user], act)
    raise AssertionError("the game does not end")


async def moved_on(w: World, table: Table, version: int) -> None:
    await w.fake.wait_for(lambda: table.version > version, what="the AI's move")


async def stored_rating(bot: DurakBot, w: World, user: int) -> float:
    rating = (await bot.service.core.storage.user_stats(user, w.guild)).rating
    assert rating is not None
    return round(rating, 1)


def ratings(browser: Browser) -> list[Any]:
    final = browser.last_table()
    assert final is not None and final["status"] == "finished", final
    shown: list[Any] = final["game"]["ratings"]
    return shown


@pytest.mark.slow
async def test_the_finished_frame_carries_each_humans_rating_change(tmp_path: Path) -> None:
    async with world(tmp_path) as w, activity_bot(w) as site:
        fake, bot = w.fake, site.bot
        await fake.slash(w.alice, w.channel, "durak", "new", options={"deck": 24})
        await fake.slash(w.bob, w.channel, "durak", "join")
        instance = fake.activity.open_instance(w.channel, [w.alice, w.bob])
        table = table_of(bot, w.channel)
        browsers = {u: await open_browser(w, site, u, instance) for u in (w.alice, w.bob)}
        alice = browsers[w.alice]
        await applied(fake, table, alice, {"v": 1, "type": "lobby", "op": "add_ai"})
        assert table.seats[2].is_ai
        # a running game's frames carry no rating change
        await applied(fake, table, alice, {"v": 1, "type": "lobby", "op": "start"})
        assert await ratings_of_running(w, table, alice) is None

        before = {w.alice: 0.0, w.bob: 0.0}  # a first game: openskill's prior, ordinal 0
        for game in (1, 2):
            await play_to_the_end(w, table, browsers)
            assert table.status == "finished"
            for user, browser in browsers.items():
                shown = ratings(browser)
                assert shown[2] is None, "an AI seat shows no rating change"
                for seat, who in enumerate((w.alice, w.bob)):
                    after = await stored_rating(bot, w, who)
                    change = shown[seat]
                    assert change is not None, (game, user, seat)
                    assert (change["before"], change["after"]) == (before[who], after)
                    assert change["delta"] == round(after - before[who], 1)
            before = {u: await stored_rating(bot, w, u) for u in (w.alice, w.bob)}
            if game == 1:
                await applied(fake, table, alice, {"v": 1, "type": "lobby", "op": "rematch"})
                assert await ratings_of_running(w, table, alice) is None
        for browser in browsers.values():
            await browser.close()


async def ratings_of_running(w: World, table: Table, browser: Browser) -> object:
    await w.fake.wait_for(
        lambda: (browser.last_table() or {}).get("version") == table.version,
        what="the browser at the table's version",
    )
    shown = browser.last_table()
    assert shown is not None and shown["status"] == "running"
    return shown["game"]["ratings"]
