"""Issue #30, bug 12: a field its tables do not hold well (7 players at 4-seat tables without
AI seats: one table, three byes, every round) is started with a warning that says so and what
would seat everyone; a field that fits gets none."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.text import t
from bot.tournaments.storage import TournamentStatus
from tests.bot.helpers import running_bot, world
from tests.bot.tournaments.test_tournament_signup import no_shows, organiser_bot, say, signed_up


async def start_with(tmp_path: Path, count: int, **options: object) -> str:
    async with world(tmp_path) as w, running_bot(w) as bot:
        players = [w.fake.add_user(f"p{i}") for i in range(count)]
        await signed_up(w, bot, players, name="Cup", timer=600, **options)
        answer = await say(w, w.alice, "start")
        await say(w, w.alice, "cancel")
        return answer


@pytest.mark.slow  # over a second: out of the quick subset
async def test_seven_at_four_seat_tables_are_warned(tmp_path: Path) -> None:
    answer = await start_with(tmp_path / "a", 7, table_size=4, rounds=1)
    started = t("tournament.ok.started", name="Cup")
    warning = t("tournament.warn.byes_size", n=7, size=4, byes=3, better=3)
    assert answer == f"{started}\n{warning}"
    # the same field with AI seats: nobody sits out, no warning
    quiet = await start_with(tmp_path / "b", 7, table_size=4, rounds=1, ai_fill=True)
    assert quiet == started


@pytest.mark.slow
async def test_rounds_that_would_rematch_are_refused_before_the_start(tmp_path: Path) -> None:
    """Issue #47 item 4: 7 players at 3-seat tables over 2 rounds would meet a tablemate
    again in round 2: the start is refused, saying how many rounds hold; by default such a
    field plays the rounds that hold (one), without a rematch."""
    async with organiser_bot(tmp_path) as (w, bot):
        store = bot.tournaments.store
        tr, _ = await no_shows(w, bot, 7, name="Trio", table_size=3, rounds=2, timer=600)
        assert await say(w, w.alice, "start") == t(
            "tournament.error.rematch_rounds", count=7, size=3, fresh=1, rounds=2
        )
        assert (await store.get_tournament(tr.tournament_id)).status is TournamentStatus.SIGNUP
        assert await say(w, w.alice, "edit", rounds=1) == t("tournament.ok.edited", name="Trio")
        assert (await say(w, w.alice, "start")).startswith(t("tournament.ok.started", name="Trio"))
        await say(w, w.alice, "cancel")
