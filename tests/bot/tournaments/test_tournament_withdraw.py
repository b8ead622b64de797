"""Issue #30, bug 7 and the "withdraw" control: ``/durak-tournament leave`` works after the
start. At a 2-seat table (a bracket's, a Swiss's) the match being played is lost by forfeit:
its table closes, the game being played is not recorded, and the standings show it so (issue
#47 item 6); at a larger table an AI plays the seat to the end of the match, its games
counting for nobody (tests/bot/tournaments/test_tournament_forgiving.py). Each refusal has its
words."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.tables.table import Table
from bot.text import t
from bot.tournaments.logic import rounds_from_games, standings
from bot.tournaments.storage import TournamentStatus
from tests.bot.helpers import running_bot, world
from tests.bot.tournaments.test_tournament_signup import (
    description,
    display,
    joined_by,
    only_tournament,
    reaches,
    say,
    signed_up,
    started,
    until,
)


@pytest.mark.slow  # an AI plays a game of the match before the withdrawal
async def test_a_withdrawal_in_a_bracket_is_a_walkover(tmp_path: Path) -> None:
    async with world(tmp_path) as w, running_bot(w) as bot:
        fake = w.fake
        storage = bot.service.storage
        store = bot.tournaments.store
        dave = fake.add_user("dave")
        tr = await signed_up(
            w, bot, (w.bob, w.carol), name="KO", format="single_elimination", games=3, timer=1
        )
        tid = tr.tournament_id
        await say(w, w.alice, "start")

        async def one_game() -> bool:
            return len(await store.tournament_games(tid)) >= 1

        await until(one_game, 60)  # nobody came: the AI played it for both
        assert await say(w, w.bob, "leave") == t("tournament.ok.withdrew_walkover", name="KO")
        thread = int(fake.threads(w.channel)[0]["id"])
        walkover = t("tournament.withdrew.walkover", player=display(fake, w.bob))
        await fake.wait_for(
            lambda: any(m.content == walkover for m in fake.channel_messages(thread)), 10
        )
        await reaches(store, tid, TournamentStatus.FINISHED, 30)
        games = await store.tournament_games(tid)
        assert 1 <= len(games) < 3  # cut at the withdrawal: the game being played not recorded
        board = (await only_tournament(bot, w.guild)).standings_message_id
        assert board is not None
        forfeit = t("tstand.forfeit", winner=display(fake, w.carol), loser=display(fake, w.bob))
        await fake.wait_for(
            lambda: t("tstand.champion", name=display(fake, w.carol)) in description(fake, board),
            10,
        )
        assert forfeit in str(fake.message(board).embeds[0].get("fields"))  # not "beat"
        for p in (w.bob, w.carol):  # the games the AI played for them count for nobody
            assert (await storage.user_stats(p, w.guild)).games == 0
        # each refusal its own words
        assert await say(w, w.bob, "leave", tournament="KO") == t("err.no_tournament")
        assert await say(w, dave, "leave") == t("err.no_tournament")


@pytest.mark.slow
async def test_refusals_to_leave_or_remove_say_which_case(tmp_path: Path) -> None:
    async with world(tmp_path) as w, running_bot(w) as bot:
        _, (_, _, dave) = await joined_by(w, bot, "bob", "carol", "dave", name="Cup", timer=600)
        assert await say(w, w.alice, "leave") == t("tournament.error.not_joined")
        assert await say(w, w.alice, "remove", user=w.alice) == t(
            "tournament.error.player_not_joined"
        )
        assert await say(w, w.alice, "start") == t("tournament.ok.started", name="Cup")
        assert await say(w, w.alice, "remove", user=dave) == t(
            "tournament.ok.removed", user=f"<@{dave}>", name="Cup"
        )
        assert await say(w, w.alice, "remove", user=dave) == t(
            "tournament.error.player_already_withdrawn"
        )
        assert await say(w, dave, "leave") == t("tournament.error.already_withdrawn")
        assert await say(w, w.alice, "leave") == t("tournament.error.not_joined")


@pytest.mark.slow
async def test_a_withdrawal_at_a_two_seat_swiss_table_is_a_real_forfeit(tmp_path: Path) -> None:
    """Issue #47 item 6: one truth. At a 2-seat Swiss table the answer says the match is lost
    by forfeit, and it is: the table closes, the other player wins the match (1 point), the
    one who withdrew scores 0; the games played for nobody change no rating."""
    async with world(tmp_path) as w, running_bot(w) as bot:
        fake = w.fake
        storage = bot.service.storage
        store = bot.tournaments.store
        tr = await signed_up(w, bot, (w.bob, w.carol), name="Duel", rounds=1, timer=600)
        tid = tr.tournament_id
        table_id = await started(w, store, tid)
        table = bot.service.registry.get(table_id)
        assert isinstance(table, Table)
        thread = table.thread_id or table.channel_id
        assert await say(w, w.carol, "leave") == t("tournament.ok.withdrew_walkover", name="Duel")
        note = t("tournament.withdrew.walkover", player=display(fake, w.carol))
        await fake.wait_for(
            lambda: any(m.content == note for m in fake.channel_messages(thread)), 10
        )
        await reaches(store, tid, TournamentStatus.FINISHED, 30)
        assert bot.service.registry.get(table_id) is None  # closed, not played on by an AI
        (rnd,) = await store.tournament_rounds(tid)
        recorded = rnd.tables[0].override
        assert recorded is not None and (recorded.kind, recorded.player) == ("forfeit", w.carol)
        entrants = await store.tournament_entrants(tid)
        table_now = standings(
            [e.entrant for e in entrants],
            2,
            rounds_from_games(
                [r.pairing for r in await store.tournament_rounds(tid)],
                await store.tournament_games(tid),
                tr.settings.match,
                {
                    k: o
                    for r in await store.tournament_rounds(tid)
                    for k, o in r.overrides().items()
                },
            ),
        )
        points = {row.player: row.points for row in table_now.rows}
        assert points == {w.bob: 1, w.carol: 0}
        for p in (w.bob, w.carol):
            assert (await storage.user_stats(p, w.guild)).games == 0
