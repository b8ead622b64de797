"""The check-in control of issue #30: with ``check_in`` minutes, the window opens that long
before the deadline; each entrant not checked in gets a DM (their notifications allowing), the
sign-up message shows a Check in button, and at the start those who did not confirm are
dropped before round 1 is paired."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from bot.text import t
from bot.tournaments.storage import TournamentStatus
from tests.bot.helpers import running_bot, world
from tests.bot.tournaments.test_tournament_signup import (
    only_tournament,
    organiser_bot,
    reaches,
    say,
    signed_up,
    signup,
    until,
)


@pytest.mark.slow  # over a second: out of the quick subset
async def test_entrants_who_do_not_check_in_are_dropped_before_round_one(tmp_path: Path) -> None:
    async with organiser_bot(tmp_path) as (w, bot):
        fake = w.fake
        store = bot.tournaments.store
        dave, erin = fake.add_user("dave"), fake.add_user("erin")
        assert await say(w, w.alice, "new", name="Cup", check_in=10) == t(
            "tournament.error.check_in_deadline"
        )
        # a window of 10 minutes before a deadline 3 minutes away: open at once
        tr = await signed_up(
            w,
            bot,
            (w.bob, w.carol, dave, erin),
            name="Cup",
            deadline="in 3m",
            check_in=10,
            timer=600,
        )
        tid = tr.tournament_id
        await fake.slash(erin, w.channel, "durak", "settings", options={"notify": "off"})
        check_in = f"dkq:{tid}:checkin"
        await fake.wait_for(lambda: any(b.custom_id == check_in for b in signup(w, tr).buttons), 10)
        answer = await fake.click(w.bob, signup(w, tr), check_in)
        assert answer.content == t("tournament.ok.checked_in", name="Cup")
        assert await say(w, w.carol, "checkin") == t("tournament.ok.checked_in", name="Cup")
        assert await say(w, w.alice, "checkin") == t("tournament.error.not_joined")
        # the reminder went out as the window opened: to each entrant then not checked in
        # (all), once, but not to erin (notifications off)
        reminder = t("tournament.check_in.dm", name="Cup", when="", link="").split(" (")[0]

        def reminded(user: int) -> int:
            dm = fake.dm_channel(user)
            return sum(reminder in m.content for m in fake.channel_messages(dm))

        await fake.wait_for(lambda: reminded(dave), 10)
        assert (reminded(w.bob), reminded(dave), reminded(erin)) == (1, 1, 0)
        shown = t("tournament.line.check_in_open", done=2, n=4)
        await fake.wait_for(lambda: shown in str(signup(w, tr).embeds[0]["description"]), 10)

        bot.tournaments.clock = lambda: time.time() + 300  # the deadline comes
        await reaches(store, tid, TournamentStatus.RUNNING, 15)
        entrants = await store.tournament_entrants(tid)
        assert [e.user_id for e in entrants] == [w.bob, w.carol]

        async def paired() -> bool:
            return bool(await store.tournament_rounds(tid))

        await until(paired)
        (first,) = await store.tournament_rounds(tid)
        assert set(first.tables[0].seats) == {w.bob, w.carol}
        assert await say(w, dave, "checkin") == t("tournament.error.started")  # too late
        assert (await only_tournament(bot, w.guild)).status is TournamentStatus.RUNNING
        await say(w, w.alice, "cancel")


async def test_check_in_before_its_window_is_refused(tmp_path: Path) -> None:
    async with world(tmp_path) as w, running_bot(w) as bot:
        tr = await signed_up(w, bot, (w.bob,), name="Later", deadline="in 2h", check_in=10)
        assert await say(w, w.bob, "checkin") == t("tournament.error.check_in_closed")
        assert not any("dkq:" in (b.custom_id or "") for b in signup(w, tr).buttons)
