"""Issue #30's end-to-end measure: a 16-entrant Swiss at 2-seat tables, played through the fake
Discord by the bot as a separate process, with every organiser control at once:

- check-in: two of the 16 do not check in and are dropped before round 1 is paired;
- a result override in round 1 (the organiser decides a live table);
- a withdrawal in round 2 (a player who played round 1 as a human leaves);
- a pause between rounds 2 and 3, then resume;
- a SIGKILL of the bot in the middle of round 3, and a restart.

It finishes; the standings it shows equal a recomputation from the stored games (with the
override, and the deciding game if the top is still shared); the withdrawn and the unchecked
players have no AI-played game in their stats: every game that counts for a player holds them
in its stored seat, and none after the withdrawal does."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime
from pathlib import Path

import pytest

from bot.text import t
from bot.tournaments.logic import rounds_from_games, standings
from bot.tournaments.logic.decider import decided_standings, decider_result
from bot.tournaments.messages.tournament_text import num
from bot.tournaments.runner.deciding import DECIDER_ROUND
from bot.tournaments.storage import RoundStatus, TournamentStore
from tests.bot.test_tournament_kill import (
    ROW,
    cup_club,
    live_tables,
    restarted_until_finished,
    tournament,
    until,
)
from tests.bot.test_tournament_signup import champion_line, description, display
from tests.fake_discord import FakeDiscord, InteractionResult

pytestmark = pytest.mark.slow  # a bot process, killed once, plays three rounds of 7 tables

ENTRANTS, ROUNDS, HUMANS = 16, 3, 3


async def answer(res: InteractionResult) -> str:
    if res.response_type == 5:  # deferred: the answer replaces "thinking…"
        await res.wait_until(lambda r: r.message is not None and not r.message.loading, 20)
    return res.content


async def command(fake: FakeDiscord, user: int, channel: int, *path: str, **options: object) -> str:
    res = await fake.slash(user, channel, "durak-tournament", *path, options=options, timeout=10)
    return await answer(res)


async def test_sixteen_entrants_with_every_control_and_a_sigkill(tmp_path: Path) -> None:
    async with cup_club(tmp_path, 30) as club:
        fake, guild, channel, organiser = club.fake, club.guild, club.channel, club.organiser
        bot, storage, players, humans = club.bot, club.storage, club.players, club.humans
        store = TournamentStore(storage)
        unchecked = players[-2:]
        quitter = players[0]  # plays round 1 as a human, then withdraws
        # a 10-minute check-in window before a deadline 3 minutes away: open at once
        await command(
            fake, organiser, channel, "new",
            name="Trust Cup", rounds=ROUNDS, timer=1, deadline="in 3m", check_in=10,
        )  # fmt: skip

        async def announced() -> bool:
            tr = await tournament(storage, guild)
            return tr is not None and bool(tr.options.get("check_in_announced"))

        await until(announced, 20, "the check-in window")
        tid = (await club.join_all()).tournament_id
        for p in players:
            if p not in unchecked:
                assert await command(fake, p, channel, "checkin") == t(
                    "tournament.ok.checked_in", name="Trust Cup"
                )
        assert await command(fake, organiser, channel, "start") == t(
            "tournament.ok.started", name="Trust Cup"
        )
        entrants = await store.tournament_entrants(tid)
        assert sorted(e.user_id for e in entrants) == sorted(set(players) - set(unchecked))
        club.play()

        async def games_played() -> int:
            return len(await store.tournament_games(tid))

        # round 1: the organiser decides a table whose game is still being played
        await until(lambda: live_tables(storage, tid, 1), 60, "round 1's tables")
        rnd = (await store.tournament_rounds(tid))[0]
        overridden = None
        for paired in rnd.tables:
            winner = paired.seats[1]
            reply = await command(
                fake, organiser, channel, "override", table=str(paired.number), winner=winner
            )
            if reply.startswith("Recorded"):
                overridden = (paired.number, winner)
                break
            assert reply == t("tournament.error.override_done"), reply
        assert overridden is not None, "every table of round 1 finished before the override"

        # round 2: the quitter withdraws; the organiser pauses
        await until(
            lambda: live_tables(storage, tid, 2), 120, "round 2 under way",
            progress=games_played,
        )  # fmt: skip
        assert await command(fake, quitter, channel, "leave") == t(
            "tournament.ok.withdrew", name="Trust Cup"
        )
        left_at = datetime.now(UTC)  # every game that ends later is an AI's, not his
        assert await command(fake, organiser, channel, "pause") == t(
            "tournament.ok.paused", name="Trust Cup"
        )

        async def round_two_over() -> bool:
            rounds = await store.tournament_rounds(tid)
            return len(rounds) >= 2 and rounds[1].status is RoundStatus.FINISHED

        await until(round_two_over, 120, "round 2 to end", progress=games_played)
        await asyncio.sleep(4.5)  # two ticks of the runner: no round 3 while paused
        assert len(await store.tournament_rounds(tid)) == 2
        assert await command(fake, organiser, channel, "resume") == t(
            "tournament.ok.resumed", name="Trust Cup"
        )

        # round 3: killed mid-round, restarted
        await until(
            lambda: live_tables(storage, tid, 3), 120, "round 3 under way",
            progress=games_played,
        )  # fmt: skip
        bot.kill()
        tr, board = await restarted_until_finished(bot, storage, guild, games_played)
        rounds = await store.tournament_rounds(tid)
        games = await store.tournament_games(tid)
        entrants = await store.tournament_entrants(tid)
        decider = tr.options.get(DECIDER_ROUND)
        numbers = [1, 2, 3] if decider is None else [1, 2, 3, 4]
        assert [r.number for r in rounds] == numbers
        assert all(r.status is RoundStatus.FINISHED for r in rounds)
        assert quitter not in rounds[2].pairing.players  # paired no more
        (decided,) = [tb for tb in rounds[0].tables if tb.override is not None]
        assert (decided.number, decided.override.player) == overridden  # type: ignore[union-attr]
        assert decided.override is not None and decided.override.by == organiser

        # the standings shown equal a recomputation from the stored games
        regular = [r for r in rounds if r.number != decider]
        overrides = {k: o for r in regular for k, o in r.overrides().items()}
        records = rounds_from_games(
            [r.pairing for r in regular],
            [g for g in games if g.round != decider],
            tr.settings.match,
            overrides,
        )
        recomputed = standings([e.entrant for e in entrants], 2, records)
        if decider is not None:
            deciding = rounds[-1]
            result = decider_result(
                deciding.pairing, games, next(iter(deciding.overrides().values()), None)
            )
            assert result is not None
            recomputed = decided_standings(recomputed, result)
        rows = recomputed.rows

        def shown(player: int) -> str:
            name = display(fake, player)
            return t("tstand.withdrawn", name=name) if player == quitter else name

        expected = [
            (f"{r.rank}." if i == 0 or r.rank != rows[i - 1].rank else "=",
             shown(r.player), num(r.points))
            for i, r in enumerate(rows)
        ]  # fmt: skip
        champion = champion_line(fake, recomputed)
        await fake.wait_for(lambda: champion in description(fake, board), 15)
        assert ROW.findall(description(fake, board)) == expected

        # nobody is rated on a game an AI played for them: a game counts for a player when
        # their stored seat names them, and none that ended after the withdrawal does
        counted: dict[int, int] = {}
        for game_id, _ in await store.tournament_game_ids(tid):
            stored = await storage.get_game(game_id)
            holders = [s.user_id for s in stored.seats if s.user_id is not None]
            for user in holders:
                counted[user] = counted.get(user, 0) + 1
            if stored.ended_at > left_at:
                assert quitter not in holders, stored.tournament
        for p in (quitter, *unchecked):
            assert (await storage.user_stats(p, guild)).games == counted.get(p, 0)
        for p in unchecked:
            assert counted.get(p, 0) == 0
        assert sum(h.acted for h in humans) > 0  # the humans did play some moves
