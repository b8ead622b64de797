"""Issue #30 control 4: the organiser records a walkover or a forfeit for a table that went
wrong (``/durak-tournament override``). The live table closes, told why, its game being played
unrecorded (no rating changes); the standings and the next round follow the override; the
tournament's channel and its export say who recorded it and when. Each refusal its words."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot.text import t
from bot.tournaments.storage import TournamentStatus
from tests.bot.helpers import running_bot, world
from tests.bot.tournaments.test_tournament_signup import (
    display,
    four_cup,
    reaches,
    round_open,
    say,
    signed_up,
    started,
    until,
)


@pytest.mark.slow
async def test_an_override_decides_a_swiss_table_and_the_next_round_follows(
    tmp_path: Path,
) -> None:
    async with four_cup(tmp_path) as (w, bot, tid):
        fake, storage, store = w.fake, bot.service.storage, bot.tournaments.store
        # nothing to override before the start
        assert await say(w, w.alice, "override", table="1", winner=w.bob) == t(
            "tournament.error.override_not_running"
        )
        await say(w, w.alice, "start")
        rnd = await round_open(store, tid, 1)
        first, second = rnd.tables
        a, b = first.seats
        c, d = second.seats
        assert a is not None and b is not None and c is not None and d is not None
        thread = bot.service.registry.get(first.bot_table_id or "")
        assert thread is not None and thread.thread_id is not None
        thread_id = thread.thread_id

        # refusals: not the organiser, neither or both players, a player of another table
        assert await say(w, b, "override", table="1", winner=a) == t("err.tournament_denied")
        assert await say(w, w.alice, "override", table="1") == t("tournament.error.override_who")
        assert await say(w, w.alice, "override", table="1", winner=a, forfeit=b) == t(
            "tournament.error.override_who"
        )
        assert await say(w, w.alice, "override", table="1", winner=c) == t(
            "tournament.error.override_seat"
        )
        assert await say(w, w.alice, "override", table="9", winner=a) == t(
            "tournament.error.override_table"
        )
        # the autocomplete offers both tables, named as their threads
        choices = await fake.autocomplete(
            w.alice, w.channel, "durak-tournament", "override",
            focused="table", options={"table": ""},
        )  # fmt: skip
        assert [c["value"] for c in choices] == ["1:1", "1:2"]  # each carries its round

        # a walkover for a at table 1
        result = t("tournament.override.winner", player=f"<@{a}>")
        assert await say(w, w.alice, "override", table="1", winner=a) == t(
            "tournament.ok.overridden", name="Cup", round=1, table=1, result=result
        )
        told = t("tournament.override.table", result=result)
        await fake.wait_for(
            lambda: any(m.content == told for m in fake.channel_messages(thread_id)), 10
        )
        logged = t(
            "tournament.override.log", name="Cup", round=1, table=1, result=result,
            by=f"<@{w.alice}>", at="<t:",
        ).split("<t:")[0]  # fmt: skip
        await fake.wait_for(
            lambda: any(m.content.startswith(logged) for m in fake.channel_messages(w.channel)),
            10,
        )
        assert bot.service.registry.get(thread.table_id) is None  # the table is closed
        # recorded again before the next round is paired: it replaces the first
        assert await say(w, w.alice, "override", table="1", winner=a) == t(
            "tournament.ok.replaced", name="Cup", round=1, table=1, result=result
        )
        # a forfeit for d at table 2 ends the round: round 2 is paired
        assert (await say(w, w.alice, "override", table="2", forfeit=d)).startswith("Recorded")

        async def paired() -> bool:
            return len(await store.tournament_rounds(tid)) == 2

        await until(paired)
        rounds = await store.tournament_rounds(tid)
        assert rounds[0].status == "finished"
        top = {p for p in rounds[1].tables[0].seats}
        assert top == {a, c}  # the two winners meet at the top table
        assert await store.tournament_games(tid) == []  # no game was recorded
        board = (await store.get_tournament(tid)).standings_message_id
        assert board is not None
        mark = t("tstand.overridden")
        await fake.wait_for(
            lambda: str(fake.message(board).embeds[0].get("fields")).count(mark) == 2, 10
        )
        for p in (a, b, c, d):  # no rating or stats changed by the closed tables
            assert (await storage.user_stats(p, w.guild)).games == 0

        # the export says who recorded each override, and when
        res = await fake.slash(w.alice, w.channel, "durak-tournament", "export")
        assert res.content == t("tournament.ok.exported", name="Cup") and res.message
        files = {x.filename: x.data for x in res.message.attachments}
        data = json.loads(files["tournament.json"])
        tables = data["rounds"][0]["tables"]
        assert tables[0]["override"]["kind"] == "winner"
        assert tables[0]["override"]["player"] == a
        assert tables[0]["override"]["by"] == w.alice
        assert tables[1]["override"]["kind"] == "forfeit"
        assert tables[1]["override"]["at"].startswith("20")


@pytest.mark.slow
async def test_an_override_in_a_bracket_names_the_champion(tmp_path: Path) -> None:
    async with world(tmp_path) as w, running_bot(w) as bot:
        store = bot.tournaments.store
        tr = await signed_up(
            w, bot, (w.bob, w.carol), name="KO", format="single_elimination", timer=600
        )
        tid = tr.tournament_id
        await started(w, store, tid)
        reply = await say(w, w.alice, "override", table="1", forfeit=w.bob, tournament="KO")
        assert reply.startswith("Recorded for KO")
        await reaches(store, tid, TournamentStatus.FINISHED, 20)
        tr = await store.get_tournament(tid)
        assert tr.standings_message_id is not None
        champion = t("tstand.champion", name=display(w.fake, w.carol))

        def shows_champion() -> bool:
            embeds = w.fake.message(tr.standings_message_id or 0).embeds
            return bool(embeds) and champion in str(embeds[0].get("description", ""))

        await w.fake.wait_for(shows_champion, 10)
        # it is over: no open tournament left to record a result in
        assert await say(w, w.alice, "override", table="1", winner=w.bob) == t("err.no_tournament")
