"""The turn timer in the browser (issue #31, "Play" 1): against the bot's real Activity server,
with a real 3-second timer. Alice (1280×720) and Bob (a phone on its side, 844×390) sit at a
table; the awaited player's status line and both clients' plate of the awaited seat count down;
when the time runs out and the table plays for that seat, each client says so: "your time ran
out" to its owner, the seat's name to the other.

Needs Chromium and the built client, like test_browser_game.py (skipped otherwise, saying why).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from bot.text import t
from durak_core.events import ActionTaken
from tests.activity.browser import BROWSER_TEST, CLIENT_DOC, Page, card_label, set_size
from tests.activity.test_browser_game import WAIT, open_pages, seat, two_browsers
from tests.bot.helpers import table_of, world

pytestmark = BROWSER_TEST

CLOCKS = f"""(() => {{
  const doc = {CLIENT_DOC};
  const text = sel => [...doc.querySelectorAll(sel)].map(e => e.textContent);
  return {{
    status: text('.status .clock'),
    plates: [...doc.querySelectorAll('.seat')].filter(s => s.querySelector('.clock'))
      .map(s => s.querySelector('.name').textContent),
    notice: doc.querySelector('.notice')?.textContent ?? null,
  }};
}})()"""


async def clocks(page: Page) -> dict[str, Any]:
    shown: dict[str, Any] = await page.evaluate(CLOCKS)
    return shown


async def test_the_countdown_shows_and_a_timed_out_move_is_announced(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with world(tmp_path) as w, two_browsers(monkeypatch, w) as (site, alice, bob):
        fake, bot = w.fake, site.bot
        await set_size(bob, 844, 390)
        await fake.slash(w.alice, w.channel, "durak", "new", options={"deck": 24, "timer": 3})
        await fake.slash(w.bob, w.channel, "durak", "join")
        await fake.slash(w.alice, w.channel, "durak", "start")
        table = table_of(bot, w.channel)
        assert table.turn_timer == 3 and table.state is not None
        instance = fake.activity.open_instance(w.channel, [w.alice, w.bob])
        pages = {w.alice: alice, w.bob: bob}
        await open_pages(site, pages, instance)
        # whoever leads is awaited; the timer will lead for them
        leader = table.public_view().awaiting[0]
        owner = next(u for u in pages if seat(table, u) == leader)
        other = next(u for u in pages if u != owner)
        name = table.seats[leader].name
        # before the time is up: the leader's status line counts down, both show it on the
        # leader's plate (Bob's own plate is his, beside the hand; it counts too)
        mine = await pages[owner].wait_for(
            f"(() => {{ const c = {CLOCKS}; return c.status.length ? c : null }})()",
            "the leader's countdown",
            WAIT,
        )
        assert re.fullmatch(r"⏱ 0:0[0-3]", mine["status"][0]), mine
        assert name in mine["plates"], mine
        theirs = await clocks(pages[other])
        assert name in theirs["plates"] and theirs["status"], theirs

        # the time runs out: the table plays the lowest card for the leader
        await fake.wait_for(lambda: bool(table.timed_out), WAIT, what="the timer to act")
        event = table.events[table.timed_out[0]]
        assert isinstance(event, ActionTaken) and event.seat == leader
        verb, card = str(event.action).split()
        assert verb == "attack"
        for user, key, args in (
            (owner, "activity.timeout_you_attack", {"card": card_label(card)}),
            (other, "activity.timeout_attack", {"card": card_label(card), "name": name}),
        ):
            expected = t(key, "en", **args)
            shown = await pages[user].wait_for(
                f"(() => {{ const c = {CLOCKS}; return c.notice ? c : null }})()",
                f"user {user}'s notice",
                WAIT,
            )
            # the same expiry may play on for the next awaited seat: announced after it
            assert str(shown["notice"]).startswith(expected), (shown, expected)
