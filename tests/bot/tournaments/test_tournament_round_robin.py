"""Round robin through the fake Discord (issue #30): four entrants at 2-seat tables play three
rounds in which every pair meets once; the standings are the Swiss standings, recomputed from
the stored games, under the round robin's footer."""

from __future__ import annotations

from itertools import combinations
from pathlib import Path

import pytest

from bot.text import t
from bot.tournaments.storage import TournamentStatus
from tests.bot.helpers import running_bot, world
from tests.bot.tournaments.test_tournament_signup import (
    MANAGE_EVENTS,
    no_shows,
    only_tournament,
    reaches,
    say,
)


@pytest.mark.slow
async def test_a_round_robin_is_refused_beyond_its_size(tmp_path: Path) -> None:
    async with world(tmp_path) as w, running_bot(w):
        w.fake.grant(w.alice, MANAGE_EVENTS)
        answer = await say(w, w.alice, "new", name="RR", format="round_robin", limit=12)
        assert answer == t("tournament.error.round_robin_limit", low=3, high=8, limit=12)
        answer = await say(w, w.alice, "new", name="RR", format="round_robin", table_size=3)
        assert answer == t("tournament.error.round_robin_seats", size=3)


@pytest.mark.slow  # three rounds played by the AI for no-shows
async def test_every_pair_meets_once(tmp_path: Path) -> None:
    async with world(tmp_path) as w, running_bot(w) as bot:
        fake = w.fake
        store = bot.tournaments.store
        # the deciding game after a tie at the top: test_tournament_decider.py
        tr, players = await no_shows(
            w, bot, 4, name="RR", format="round_robin", timer=1, decider=False
        )
        assert tr.settings.player_limit == 8  # the round robin's own default
        await say(w, w.alice, "start")
        await reaches(store, tr.tournament_id, TournamentStatus.FINISHED, 120)
        rounds = await store.tournament_rounds(tr.tournament_id)
        assert len(rounds) == 3
        met = sorted(
            tuple(sorted(p for p in table.seats if p is not None))
            for r in rounds
            for table in r.tables
        )
        assert met == sorted(combinations(sorted(players), 2))
        board = (await only_tournament(bot, w.guild)).standings_message_id
        assert board is not None
        footer = t("tstand.footer.round_robin", match=t("tstand.match.games", n=1))
        await fake.wait_for(
            lambda: fake.message(board).embeds[0].get("footer", {}).get("text") == footer, 10
        )
