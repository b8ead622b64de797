"""Issue #47's table: what an organiser or a player met that broke their trust, each through
the fake Discord (items 1-12; the late join, undo, break, bye, seeding and export have their
own files)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.app import DurakBot
from bot.tables.refusals import Refusal, Rejected
from bot.tables.table import Table
from bot.text import t
from bot.tournaments.logic import Format, TournamentSettings
from bot.tournaments.storage import NewTournament, TournamentStatus
from tests.bot.helpers import World, running_bot, world
from tests.bot.tournaments.test_tournament_signup import (
    MANAGE_EVENTS,
    say,
    signed_up,
    signup,
    started,
    until,
)


@pytest.mark.slow
async def test_a_withdrawn_player_cannot_take_the_seat_back(tmp_path: Path) -> None:
    """Item 1: after ``leave`` the thread says an AI plays the seat to the end; ``/durak
    back`` and a move from the hand opened before are refused, saying why."""
    async with world(tmp_path) as w, running_bot(w) as bot:
        fake = w.fake
        field = (w.bob, w.carol, fake.add_user("dave"))
        tr = await signed_up(w, bot, field, name="Trio", table_size=3, rounds=1, timer=600)
        table = bot.service.registry.get(await started(w, bot.tournaments.store, tr.tournament_id))
        assert isinstance(table, Table) and table.thread_id is not None
        assert await say(w, w.carol, "leave") == t("tournament.ok.withdrew_ai", name="Trio")
        back = await fake.slash(w.carol, table.thread_id, "durak", "back")
        assert back.content == t("err.withdrawn")
        seat = table.seat_of(w.carol)
        assert seat is not None and seat in table.forfeit and table.ai_controlled(seat)
        # a move of hers (from a hand opened before, say) is refused before it is judged
        action = next(a for s in range(len(table.seats)) for a in table.legal_actions(s))
        with pytest.raises(Rejected) as refused:
            await bot.service.play.act(table, seat, action, version=None, user_id=w.carol)
        assert refused.value.kind is Refusal.WITHDRAWN


@pytest.mark.slow
async def test_a_refused_start_drops_nobody_and_joining_in_check_in_checks_in(
    tmp_path: Path,
) -> None:
    """Items 3 and 7: in an open check-in window a start with too few checked in is refused
    and every entrant stays; whoever joins then is checked in, and told so."""
    async with world(tmp_path) as w, running_bot(w) as bot:
        fake = w.fake
        store = bot.tournaments.store
        dave, erin = fake.add_user("dave"), fake.add_user("erin")
        tr = await signed_up(
            w, bot, (w.bob, w.carol, dave), name="Cup", deadline="in 3m", check_in=10, timer=600
        )
        tid = tr.tournament_id
        check_in = f"dkq:{tid}:checkin"
        await fake.wait_for(lambda: any(b.custom_id == check_in for b in signup(w, tr).buttons), 10)
        assert await say(w, w.bob, "checkin") == t("tournament.ok.checked_in", name="Cup")
        assert await say(w, w.alice, "start") == t(
            "tournament.error.too_few_checked_in", need=2, count=1
        )
        assert [e.user_id for e in await store.tournament_entrants(tid)] == [
            w.bob, w.carol, dave
        ]  # fmt: skip
        joined = await fake.click(erin, signup(w, tr), f"dkr:{tid}:join")
        assert joined.content == t("tournament.ok.joined_checked_in", name="Cup")
        assert await say(w, w.alice, "start") == t("tournament.ok.started", name="Cup")
        assert [e.user_id for e in await store.tournament_entrants(tid)] == [w.bob, erin]
        await say(w, w.alice, "cancel")


async def test_an_open_event_stays_reachable_behind_fifty_newer_ones(tmp_path: Path) -> None:
    """Item 5: an open tournament and 50 newer ones that ended: start, standings and the
    autocomplete still find it by name and by id."""
    async with world(tmp_path) as w, running_bot(w) as bot:
        store = bot.tournaments.store
        old = await signed_up(w, bot, (w.bob, w.carol), name="Old cup", timer=600)
        for i in range(50):
            settings = TournamentSettings(f"Newer {i}", Format.SWISS)
            newer = await store.create_tournament(
                NewTournament(
                    tournament_id=f"n{i}",
                    guild_id=w.guild,
                    channel_id=w.channel,
                    organiser_id=w.alice,
                    settings=settings,
                )
            )
            await store.set_tournament_status(newer.tournament_id, TournamentStatus.CANCELLED)
        suggested = await w.fake.autocomplete(
            w.alice, w.channel, "durak-tournament", "start",
            focused="tournament", options={"tournament": "old"},
        )  # fmt: skip
        assert [c["value"] for c in suggested] == [old.tournament_id]
        standings = await w.fake.slash(
            w.bob, w.channel, "durak-tournament", "standings", options={"name": "Old cup"}
        )
        assert standings.embeds and "Old cup" in str(standings.embeds[0]["title"])
        assert await say(w, w.alice, "start", tournament=old.tournament_id) == t(
            "tournament.ok.started", name="Old cup"
        )
        assert await say(w, w.alice, "cancel", tournament="Old cup") == t(
            "tournament.ok.cancelled", name="Old cup"
        )


@pytest.mark.slow
async def test_the_words_name_what_the_user_meets(tmp_path: Path) -> None:
    """Item 12: the ambiguity refusal names the option the command has (``name`` for the
    standings, ``tournament`` for start); "in 59s" is a time (too soon), not a parse error;
    ``format``'s help names round robin; an overridden table's message says closed, not
    cancelled."""
    async with world(tmp_path) as w, running_bot(w) as bot:
        fake = w.fake
        fake.grant(w.alice, MANAGE_EVENTS)
        assert await say(w, w.alice, "new", name="Soon", deadline="in 59s") == t(
            "tournament.error.deadline_soon"
        )
        first = await signed_up(w, bot, (w.bob, w.carol), name="One", timer=600)
        await say(w, w.alice, "new", name="Two", timer=600)
        names = "“Two”, “One”"
        standings = await fake.slash(w.bob, w.channel, "durak-tournament", "standings")
        assert standings.content == t("err.tournament_ambiguous", names=names, option="name")
        assert await say(w, w.alice, "start") == t(
            "err.tournament_ambiguous", names=names, option="tournament"
        )
        for lang in ("en", "de", "es", "ru", "uk"):
            assert t("tformat.round_robin", lang).casefold() in t("opt.t_format", lang).casefold()

        table_id = await started_named(w, bot, first.tournament_id)
        table = bot.service.registry.get(table_id)
        assert isinstance(table, Table) and table.table_message_id is not None
        message = table.table_message_id
        winner = w.bob
        assert await say(w, w.alice, "override", table="1", winner=winner, tournament="One")
        closed = t("table.closed_tournament")
        await fake.wait_for(lambda: fake.message(message).embeds[0].get("title") == closed, 10)
        await say(w, w.alice, "cancel", tournament="Two")


async def started_named(w: World, bot: DurakBot, tournament_id: str) -> str:
    """alice starts the tournament by id; once its first table's message is posted, its id."""
    store = bot.tournaments.store
    await say(w, w.alice, "start", tournament=tournament_id)

    async def opened() -> bool:
        rounds = await store.tournament_rounds(tournament_id)
        table_id = rounds[0].tables[0].bot_table_id if rounds else None
        table = bot.service.registry.get(table_id or "")
        return table is not None and table.table_message_id is not None

    await until(opened)
    table_id = (await store.tournament_rounds(tournament_id))[0].tables[0].bot_table_id
    assert table_id is not None
    return table_id
