"""Issue #30, bug 8: the deadlines an organiser types. Discord timestamps, Unix seconds, ISO
with an offset, a time of day and a delay are read; the absurd (past, under a minute, over 60
days, a date without a time) is refused with the reason and creates nothing; the sign-up
shows the moment in each reader's time zone and how far away it is."""

from __future__ import annotations

import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from bot.text import t
from tests.bot.tournaments.test_tournament_signup import organiser_bot, say, until


@pytest.mark.slow
async def test_deadlines_are_read_or_refused_with_the_reason(tmp_path: Path) -> None:
    async with organiser_bot(tmp_path) as (w, bot):
        fake = w.fake
        store = bot.tournaments.store
        now = int(time.time())
        refused = {
            f"<t:{now - 60}>": t("tournament.error.deadline_past"),
            f"<t:{now + 20}:R>": t("tournament.error.deadline_soon"),
            "9999-01-01T00:00Z": t("tournament.error.deadline_far", days=60),
            str(now + 61 * 86400): t("tournament.error.deadline_far", days=60),
            "2027-01-15": t("err.bad_deadline"),  # a date alone: which hour?
            "tomorrow 8pm": t("err.bad_deadline"),
        }
        for text, answer in refused.items():
            assert await say(w, w.alice, "new", name="Cup", deadline=text) == answer, text
        assert await store.guild_tournaments(w.guild) == []

        later = datetime.fromtimestamp(now, UTC) + timedelta(hours=5)
        accepted = {
            "in 2h": timedelta(hours=2),
            "90m": timedelta(minutes=90),
            str(now + 3600): timedelta(hours=1),
            later.strftime("%Y-%m-%dT%H:%M+00:00"): later - datetime.fromtimestamp(now, UTC),
            later.strftime("%H:%M"): None,  # the next 20:00 (or whatever hour) in UTC
        }
        for i, (text, ahead) in enumerate(accepted.items()):
            await say(w, w.alice, "new", name=f"Cup {i}", deadline=text)

            async def created(i: int = i) -> bool:
                found = [x for x in await store.guild_tournaments(w.guild, 50)]
                return any(x.name == f"Cup {i}" and x.signup_message_id for x in found)

            await until(created)
            (tr,) = [x for x in await store.guild_tournaments(w.guild, 50) if x.name == f"Cup {i}"]
            assert tr.signup_deadline is not None and tr.signup_message_id is not None
            at = int(tr.signup_deadline.timestamp())
            if ahead is not None:
                assert abs(at - now - ahead.total_seconds()) < 120, text
            else:
                assert 0 < at - now <= 86400 and tr.signup_deadline.strftime("%H:%M") == text
            shown = str(fake.message(tr.signup_message_id).embeds[0]["description"])
            assert f"<t:{at}:F> (<t:{at}:R>)" in shown
