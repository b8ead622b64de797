"""The reminders of issue #30, each as ``/durak settings notify:`` allows: an hour before the
deadline, those not checked in are reminded again (when the window opened earlier); when a
round's table opens, a player who chose DMs gets one with its link."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from bot.text import t
from tests.bot.helpers import running_bot, world
from tests.bot.tournaments.test_tournament_signup import say, signed_up


@pytest.mark.slow  # over a second: out of the quick subset
async def test_the_last_hour_and_the_table_are_told(tmp_path: Path) -> None:
    async with world(tmp_path) as w, running_bot(w) as bot:
        fake = w.fake
        # a two-hour window before a deadline 90 minutes away: open now, its last hour later
        await signed_up(
            w, bot, (w.bob, w.carol), name="Cup", deadline="in 90m", check_in=120, timer=600
        )
        await fake.slash(w.carol, w.channel, "durak", "settings", options={"notify": "dm"})
        opened = t("tournament.check_in.dm", name="Cup", when="", link="").split(" (")[0]
        hour = t("tournament.check_in.hour", name="Cup", when="", link="").split(" (")[0]

        def dms(user: int, text: str) -> int:
            return sum(text in m.content for m in fake.channel_messages(fake.dm_channel(user)))

        await fake.wait_for(lambda: dms(w.bob, opened) and dms(w.carol, opened), 10)
        assert await say(w, w.carol, "checkin") == t("tournament.ok.checked_in", name="Cup")
        bot.tournaments.clock = lambda: time.time() + 31 * 60  # the deadline within the hour
        await fake.wait_for(lambda: dms(w.bob, hour), 10)
        assert dms(w.carol, hour) == 0  # checked in: not reminded
        await say(w, w.bob, "checkin")

        await say(w, w.alice, "start")
        await fake.wait_for(lambda: fake.threads(w.channel), 10)
        thread = int(fake.threads(w.channel)[0]["id"])
        link = f"https://discord.com/channels/{w.guild}/{thread}"
        table = t("tournament.table_dm", name="Cup", round=1, link=link)
        await fake.wait_for(lambda: dms(w.carol, table), 10)  # she chose DMs
        assert dms(w.bob, table) == 0  # he is pinged in the thread, as by default
        await say(w, w.alice, "cancel")
