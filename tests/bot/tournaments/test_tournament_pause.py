"""The "pause / resume" control of issue #30: paused, the round being played ends as usual and
the next one is not paired until the organiser resumes; the standings say so meanwhile."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from bot.text import t
from bot.tournaments.storage import RoundStatus, TournamentStatus
from tests.bot.helpers import running_bot, world
from tests.bot.tournaments.test_tournament_signup import (
    description,
    no_shows,
    only_tournament,
    reaches,
    say,
    until,
)


@pytest.mark.slow  # two rounds played by the AI for no-shows
async def test_a_paused_tournament_waits_between_rounds_until_resumed(tmp_path: Path) -> None:
    async with world(tmp_path) as w, running_bot(w) as bot:
        fake = w.fake
        store = bot.tournaments.store
        tr, _ = await no_shows(w, bot, 4, name="Cup", rounds=2, timer=1, decider=False)
        tid = tr.tournament_id
        assert await say(w, w.alice, "pause") == t("tournament.error.not_running")
        await say(w, w.alice, "start")
        assert await say(w, w.bob, "pause") == t("err.tournament_denied")
        assert await say(w, w.alice, "pause") == t("tournament.ok.paused", name="Cup")
        assert await say(w, w.alice, "pause") == t("tournament.error.already_paused")

        async def round_one_over() -> bool:
            rounds = await store.tournament_rounds(tid)
            return bool(rounds) and rounds[0].status is RoundStatus.FINISHED

        await until(round_one_over, 60)
        board = (await only_tournament(bot, w.guild)).standings_message_id
        assert board is not None
        paused = t("tournament.paused_note")
        await fake.wait_for(lambda: paused in description(fake, board), 10)
        await asyncio.sleep(4.5)  # two ticks of the runner: still no round 2
        assert len(await store.tournament_rounds(tid)) == 1
        assert (await store.get_tournament(tid)).status is TournamentStatus.RUNNING

        assert await say(w, w.alice, "resume") == t("tournament.ok.resumed", name="Cup")
        assert await say(w, w.alice, "resume") == t("tournament.error.not_paused")
        await reaches(store, tid, TournamentStatus.FINISHED, 60)
        assert len(await store.tournament_rounds(tid)) == 2
        await fake.wait_for(lambda: paused not in description(fake, board), 10)


@pytest.mark.slow  # a round played by the AI for no-shows
async def test_a_pause_in_the_last_round_says_so_and_the_tournament_finishes(
    tmp_path: Path,
) -> None:
    """Issue #47 item 11: paused during its last round, the answer says it finishes when
    the round ends, and it does (no resume is needed)."""
    async with world(tmp_path) as w, running_bot(w) as bot:
        store = bot.tournaments.store
        tr, _ = await no_shows(w, bot, 2, name="Cup", rounds=1, timer=1, decider=False)
        await say(w, w.alice, "start")
        assert await say(w, w.alice, "pause") == t("tournament.ok.paused_last", name="Cup")
        await reaches(store, tr.tournament_id, TournamentStatus.FINISHED, 60)
        assert await say(w, w.alice, "resume") == t("err.no_tournament")
