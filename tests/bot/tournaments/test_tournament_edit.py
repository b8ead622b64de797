"""The "edit" control of issue #30: before the start the organiser changes the name, deadline,
player limit, rounds and timer; what makes no tournament is refused as a whole with the
reason; after the start nothing changes."""

from __future__ import annotations

from pathlib import Path

from bot.text import t
from bot.tournaments.runner.options import TableOptions
from tests.bot.tournaments.test_tournament_signup import (
    joined_by,
    only_tournament,
    organiser_bot,
    say,
    signup,
)


async def test_the_organiser_edits_before_the_start_only(tmp_path: Path) -> None:
    async with organiser_bot(tmp_path) as (w, bot):
        fake = w.fake
        tr, _ = await joined_by(w, bot, "bob", "carol", "dave", name="Cup", limit=8, timer=60)
        assert await say(w, w.bob, "edit", name="Mine") == t("err.tournament_denied")
        assert await say(w, w.alice, "edit", name="Big Cup", limit=2) == t(
            "tournament.error.limit_below_entrants", limit=2, count=3
        )
        assert await say(w, w.alice, "edit", deadline="2027-01-15") == t("err.bad_deadline")
        unchanged = await only_tournament(bot, w.guild)
        assert unchanged.name == "Cup" and unchanged.settings.player_limit == 8

        answer = await say(
            w, w.alice, "edit", name="Big Cup", limit=4, rounds=2, timer=30, deadline="in 2h"
        )
        assert answer == t("tournament.ok.edited", name="Big Cup")
        tr = await only_tournament(bot, w.guild)
        assert tr.name == "Big Cup" and tr.settings.player_limit == 4 and tr.settings.rounds == 2
        assert TableOptions.of(tr.options).turn_timer == 30 and tr.signup_deadline is not None
        title = t("tournament.signup.title", name="Big Cup")
        await fake.wait_for(lambda: signup(w, tr).embeds[0]["title"] == title, 10)
        assert t("tournament.line.timer", n=30) in str(signup(w, tr).embeds[0]["description"])

        await say(w, w.alice, "start")
        assert await say(w, w.alice, "edit", name="Late") == t("tournament.error.edit_started")
        assert (await only_tournament(bot, w.guild)).name == "Big Cup"
        await say(w, w.alice, "cancel")
