"""Issue #30 control 5, the deciding game: a Swiss that ends with first place shared after every
tie-break seats its joint leaders at one more table (the ``decider`` option, on by default);
its winner is the champion, with no points added. Turned off, the leaders stay joint
champions."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot.text import t
from bot.tournaments.runner.deciding import DECIDER_ROUND
from bot.tournaments.storage import TournamentStatus, TournamentStore
from tests.bot.helpers import World, running_bot, world
from tests.bot.tournaments.test_tournament_signup import (
    description,
    display,
    no_shows,
    reaches,
    say,
    until,
)


async def tie_round_one(w: World, store: TournamentStore, tid: str) -> tuple[int, int]:
    """Round 1 at two 2-seat tables, each decided by the organiser for its first seat: two
    leaders equal on points, Buchholz, head-to-head, Sonneborn–Berger, wins and last places."""

    async def opened() -> bool:
        rounds = await store.tournament_rounds(tid)
        return bool(rounds) and all(p.bot_table_id for p in rounds[0].tables)

    await until(opened, 20)
    (rnd,) = await store.tournament_rounds(tid)
    winners = []
    for paired in rnd.tables:
        player = paired.seats[0]
        assert player is not None
        reply = await say(w, w.alice, "override", table=str(paired.number), winner=player)
        assert reply.startswith("Recorded"), reply
        winners.append(player)
    a, c = winners
    return a, c


@pytest.mark.slow  # the deciding game is played (by the AI: nobody comes)
async def test_joint_leaders_play_a_deciding_game_for_first_place(tmp_path: Path) -> None:
    async with world(tmp_path) as w, running_bot(w) as bot:
        fake = w.fake
        store = bot.tournaments.store
        tr, _ = await no_shows(w, bot, 4, name="Cup", rounds=1, games=3, timer=1)
        tid = tr.tournament_id
        assert t("tournament.line.decider") in str(fake.message(tr.signup_message_id or 0).embeds)
        await say(w, w.alice, "start")
        a, c = await tie_round_one(w, store, tid)

        async def deciding() -> bool:
            return len(await store.tournament_rounds(tid)) == 2

        await until(deciding, 20)
        rounds = await store.tournament_rounds(tid)
        assert (await store.get_tournament(tid)).options[DECIDER_ROUND] == 2
        assert [set(p.seats) for p in rounds[1].tables] == [{a, c}]  # the leaders only
        await reaches(store, tid, TournamentStatus.FINISHED, 120)
        games = await store.tournament_games(tid)
        assert games and all(g.round == 2 for g in games)  # round 1 was overridden
        last = games[-1]
        assert last.durak is not None  # the game that decided it had a loser (R20: no draw)
        winner = last.seats[last.finishing_order[0]]
        assert winner in (a, c)
        board = (await store.get_tournament(tid)).standings_message_id
        assert board is not None
        champion = t("tstand.champion", name=display(fake, winner))
        await fake.wait_for(lambda: champion in description(fake, board), 15)
        fields = str(fake.message(board).embeds[0].get("fields"))
        assert t("tstand.decider") in fields
        res = await fake.slash(w.alice, w.channel, "durak-tournament", "export")
        assert res.message is not None
        files = {x.filename: x.data for x in res.message.attachments}
        exported = json.loads(files["tournament.json"])
        assert [r["deciding_game"] for r in exported["rounds"]] == [False, True]
        assert exported["standings"][0]["user_id"] == winner


@pytest.mark.slow  # over a second: out of the quick subset
async def test_turned_off_the_joint_leaders_stay_joint_champions(tmp_path: Path) -> None:
    async with world(tmp_path) as w, running_bot(w) as bot:
        fake = w.fake
        store = bot.tournaments.store
        tr, _ = await no_shows(w, bot, 4, name="Cup", rounds=1, games=3, timer=600, decider=False)
        tid = tr.tournament_id
        assert t("tournament.line.decider") not in str(
            fake.message(tr.signup_message_id or 0).embeds
        )
        await say(w, w.alice, "start")
        a, c = await tie_round_one(w, store, tid)
        await reaches(store, tid, TournamentStatus.FINISHED, 20)
        assert len(await store.tournament_rounds(tid)) == 1
        board = (await store.get_tournament(tid)).standings_message_id
        assert board is not None
        names = ", ".join(display(fake, p) for p in (a, c))
        joint = t("tstand.champions", names=names)
        await fake.wait_for(lambda: joint in description(fake, board), 15)
