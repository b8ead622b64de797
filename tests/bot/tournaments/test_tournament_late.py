"""Issue #47's controls for a player's evening: joining late (a Swiss or a round robin, until
the ``late_join`` round; one bye of half a win for the rounds missed, as lichess gives), asking
for a bye (a Swiss: half a win, at most ``byes`` per event), and the seeds by hand; each
refusal in its words. The standings equal a recomputation from the stored records."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

from bot.app import DurakBot
from bot.text import t
from bot.tournaments.logic import Standings, rounds_from_games, standings
from bot.tournaments.storage import TournamentRecord
from tests.bot.helpers import World, running_bot, world
from tests.bot.tournaments.test_tournament_signup import joined_by, say, signup, until


async def recomputed(bot: DurakBot, tid: str) -> Standings:
    """The standings from the stored records, by the core alone."""
    store = bot.tournaments.store
    tr = await store.get_tournament(tid)
    rounds = await store.tournament_rounds(tid)
    overrides = {k: o for r in rounds for k, o in r.overrides().items()}
    records = rounds_from_games(
        [r.pairing for r in rounds], await store.tournament_games(tid), tr.settings.match, overrides
    )
    entrants = [e.entrant for e in await store.tournament_entrants(tid)]
    return standings(entrants, tr.settings.table_size, records)


async def finish_round(w: World, bot: DurakBot, tid: str, number: int) -> None:
    """The organiser decides every table of round ``number``: its first seat wins."""
    store = bot.tournaments.store

    async def paired() -> bool:
        rounds = await store.tournament_rounds(tid)
        return len(rounds) >= number and all(p.bot_table_id for p in rounds[number - 1].tables)

    await until(paired, 20)
    for table in (await store.tournament_rounds(tid))[number - 1].tables:
        winner = next(p for p in table.seats if p is not None)
        await say(w, w.alice, "override", table=f"{number}:{table.number}", winner=winner)


async def paired_round(bot: DurakBot, tid: str, number: int) -> None:
    async def there() -> bool:
        return len(await bot.tournaments.store.tournament_rounds(tid)) >= number

    await until(there, 20)


async def join_late(w: World, tr: TournamentRecord, user: int) -> str:
    """``user`` presses Join on the sign-up message (shown while late entrants are taken)."""
    join = f"dkr:{tr.tournament_id}:join"
    await w.fake.wait_for(lambda: any(b.custom_id == join for b in signup(w, tr).buttons), 10)
    return (await w.fake.click(user, signup(w, tr), join)).content


@pytest.mark.slow  # three rounds decided by the organiser
async def test_a_late_entrant_plays_from_the_next_round_with_half_a_bye(tmp_path: Path) -> None:
    async with world(tmp_path) as w, running_bot(w) as bot:
        store = bot.tournaments.store
        tr, field = await joined_by(
            w, bot, "bob", "carol", "dave", "erin", name="Cup", rounds=3, timer=600
        )
        tid = tr.tournament_id
        await say(w, w.alice, "start")
        await paired_round(bot, tid, 1)
        late, later = w.fake.add_user("fay"), w.fake.add_user("gus")
        assert await join_late(w, tr, late) == t("tournament.ok.joined_late", name="Cup", round=2)
        assert await join_late(w, tr, late) == t("tournament.error.already_joined")
        joined = {e.user_id: e.joined_round for e in await store.tournament_entrants(tid)}
        assert joined[late] == 2 and joined[field[0]] == 1
        await finish_round(w, bot, tid, 1)
        await paired_round(bot, tid, 2)
        second = (await store.tournament_rounds(tid))[1]
        assert late in second.pairing.players  # seated (or given the round's bye)
        table = await recomputed(bot, tid)
        row = next(r for r in table.rows if r.player == late)
        assert row.points == Fraction(1, 2) and row.byes == 1  # lichess: one half bye
        # round 2 is paired: the default late_join (2) is over
        assert await join_late(w, tr, later) == t("tournament.error.late_closed", until=2)
        await say(w, w.alice, "cancel")


async def test_single_elimination_and_a_full_round_robin_take_no_late_entrant(
    tmp_path: Path,
) -> None:
    async with world(tmp_path) as w, running_bot(w) as bot:
        ko, _ = await joined_by(
            w, bot, "bob", "carol", name="KO", format="single_elimination", timer=600
        )
        await say(w, w.alice, "start", tournament="KO")
        assert await say(w, w.alice, "new", name="X", format="single_elimination", late_join=2) == (
            t("tournament.error.late_elimination")
        )
        await w.fake.wait_for(lambda: not signup(w, ko).buttons, 10)  # no Join in a bracket
        await say(w, w.alice, "cancel", tournament="KO")


@pytest.mark.slow  # two rounds decided by the organiser
async def test_a_round_robin_late_entrant_takes_the_free_place(tmp_path: Path) -> None:
    async with world(tmp_path) as w, running_bot(w) as bot:
        store = bot.tournaments.store
        tr, (b, c, d) = await joined_by(
            w, bot, "bob", "carol", "dave", name="RR", format="round_robin", timer=600
        )
        tid = tr.tournament_id
        await say(w, w.alice, "start")
        await paired_round(bot, tid, 1)
        (first,) = await store.tournament_rounds(tid)
        resting = first.byes[0]  # three players: one sits out each round
        late, later = w.fake.add_user("fay"), w.fake.add_user("gus")
        assert await join_late(w, tr, late) == t("tournament.ok.joined_late", name="RR", round=2)
        assert await join_late(w, tr, later) == t("tournament.error.late_round_robin")
        await finish_round(w, bot, tid, 1)
        await paired_round(bot, tid, 2)
        second = (await store.tournament_rounds(tid))[1]
        assert not second.byes and len(second.tables) == 2  # the free place is his
        assert late in second.pairing.players
        assert resting in {b, c, d}
        await say(w, w.alice, "cancel")


@pytest.mark.slow  # two rounds decided by the organiser
async def test_a_requested_bye_sits_the_next_round_out_for_half_a_win(tmp_path: Path) -> None:
    async with world(tmp_path) as w, running_bot(w) as bot:
        store = bot.tournaments.store
        tr, (bob, carol, _, _) = await joined_by(
            w, bot, "bob", "carol", "dave", "erin", name="Cup", rounds=2, timer=600
        )
        tid = tr.tournament_id
        assert await say(w, bob, "bye") == t("tournament.error.not_running")
        await say(w, w.alice, "start")
        await paired_round(bot, tid, 1)
        assert await say(w, bob, "bye") == t("tournament.ok.bye", name="Cup", round=2)
        assert await say(w, bob, "bye") == t("tournament.error.bye_twice", round=2)
        assert await say(w, w.alice, "bye") == t("tournament.error.not_joined")
        await finish_round(w, bot, tid, 1)
        await paired_round(bot, tid, 2)
        second = (await store.tournament_rounds(tid))[1]
        assert bob not in second.pairing.players  # he sits it out
        table = await recomputed(bot, tid)
        (rested,) = [e for e in next(r for r in table.rows if r.player == bob).entries
                     if e.round == 2]  # fmt: skip
        assert rested.table is None and rested.points == Fraction(1, 2)  # half a win
        # round 2 is the last: no round is left to sit out
        assert await say(w, carol, "bye") == t("tournament.error.bye_no_round")
        await say(w, w.alice, "cancel")


@pytest.mark.slow
async def test_seeds_by_hand_order_the_bracket(tmp_path: Path) -> None:
    async with world(tmp_path) as w, running_bot(w) as bot:
        store = bot.tournaments.store
        tr, (bob, _, dave, erin) = await joined_by(
            w, bot, "bob", "carol", "dave", "erin", name="KO", format="single_elimination",
            timer=600,
        )  # fmt: skip
        tid = tr.tournament_id
        assert await say(w, bob, "seed", user=erin, position=1) == t("err.tournament_denied")
        assert await say(w, w.alice, "seed", user=w.alice, position=1) == t(
            "tournament.error.player_not_joined"
        )
        assert await say(w, w.alice, "seed", user=erin, position=2) == t(
            "tournament.error.seed_range", position=1
        )
        seeded = t("tournament.ok.seeded", name="KO", seeds=f"1. <@{erin}>, 2. <@{dave}>")
        await say(w, w.alice, "seed", user=erin, position=1)
        assert await say(w, w.alice, "seed", user=dave, position=2) == seeded
        order = [e.user_id for e in sorted(await store.tournament_entrants(tid),
                                           key=lambda e: (not e.seed, e.seed))]  # fmt: skip
        assert order[:2] == [erin, dave]
        await say(w, w.alice, "start")
        await paired_round(bot, tid, 1)
        (first,) = await store.tournament_rounds(tid)
        # seed 1 meets seed 4 and seed 2 seed 3: erin and dave are apart
        assert not any({erin, dave} <= set(tb.seats) for tb in first.tables)
        assert await say(w, w.alice, "seed", user=erin, position=1) == t(
            "tournament.error.seed_started"
        )
        await say(w, w.alice, "cancel")
