"""Issue #30's end-to-end measure: a 16-entrant Swiss at 2-seat tables, played through the fake
Discord by the bot as a separate process, with every organiser control at once:

- check-in: all join in the open window, which checks them in (issue #47 item 7: nobody is
  dropped for not pressing Check in); two never press it, and play (as no-shows);
- a result override in round 1 (the organiser decides a live table);
- a withdrawal in round 2 (a player who played round 1 as a human leaves);
- a pause between rounds 2 and 3, then resume;
- a SIGKILL of the bot in the middle of round 3, and a restart;
- issue #47: a late entrant in round 1 (plays from round 2, one half bye), an undo of the
  round-1 override (recorded again after), a requested bye for round 3 (half a win); after
  each, the standings shown equal a recomputation.

It finishes; the standings it shows equal a recomputation from the stored games (with the
override, and the deciding game if the top is still shared); the withdrawn and the two who
never come have no AI-played game in their stats: every game that counts for a player holds
them in its stored seat, and none after the withdrawal does."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime
from fractions import Fraction
from pathlib import Path

import pytest

from bot.text import t
from bot.tournaments.logic import (
    PlayedGame,
    StandingRow,
    Standings,
    rounds_from_games,
    standings,
)
from bot.tournaments.logic.decider import decided_standings, decider_result
from bot.tournaments.messages.tournament_text import num
from bot.tournaments.runner.deciding import DECIDER_ROUND
from bot.tournaments.storage import (
    EntrantRecord,
    RoundStatus,
    StoredRound,
    TournamentRecord,
    TournamentStore,
)
from tests.bot.tournaments.test_tournament_kill import (
    ROW,
    cup_club,
    live_tables,
    restarted_until_finished,
    tournament,
    until,
)
from tests.bot.tournaments.test_tournament_signup import champion_line, description, display
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


def recomputed_rows(
    rounds: list[StoredRound],
    games: list[PlayedGame],
    entrants: list[EntrantRecord],
    tr: TournamentRecord,
) -> tuple[StandingRow, ...]:
    """The regular rounds' standings rows (no deciding game) from the stored records."""
    decider = tr.options.get(DECIDER_ROUND)
    regular = [r for r in rounds if r.number != decider]
    records = rounds_from_games(
        [r.pairing for r in regular],
        [g for g in games if g.round != decider],
        tr.settings.match,
        {k: o for r in regular for k, o in r.overrides().items()},
    )
    return standings([e.entrant for e in entrants], 2, records).rows


def shown_rows(
    fake: FakeDiscord, table: Standings, withdrawn: set[int]
) -> list[tuple[str, str, str]]:
    """The standings message's player lines for ``table``: rank ("=" shared), name, points."""
    rows = table.rows

    def shown(player: int) -> str:
        name = display(fake, player)
        return t("tstand.withdrawn", name=name) if player in withdrawn else name

    return [
        (f"{r.rank}." if i == 0 or r.rank != rows[i - 1].rank else "=",
         shown(r.player), num(r.points))
        for i, r in enumerate(rows)
    ]  # fmt: skip


async def board_recomputes(fake: FakeDiscord, store: TournamentStore, tid: str, what: str) -> None:
    """Wait until the standings message shows what the core recomputes from the stored
    records (the message follows each change within moments; games go on meanwhile)."""

    async def same() -> bool:
        tr = await store.get_tournament(tid)
        if tr.standings_message_id is None:
            return False
        rounds = await store.tournament_rounds(tid)
        entrants = await store.tournament_entrants(tid)
        records = rounds_from_games(
            [r.pairing for r in rounds],
            await store.tournament_games(tid),
            tr.settings.match,
            {k: o for r in rounds for k, o in r.overrides().items()},
        )
        table = standings([e.entrant for e in entrants], 2, records)
        withdrawn = {e.user_id for e in entrants if e.withdrawn}
        shown = ROW.findall(description(fake, tr.standings_message_id))
        return shown == shown_rows(fake, table, withdrawn)

    await until(same, 30, f"the standings to recompute after {what}")


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
        assert sorted(e.user_id for e in entrants) == sorted(players)  # joined: checked in
        club.play()

        async def games_played() -> int:
            return len(await store.tournament_games(tid))

        # round 1: a latecomer joins (plays from round 2); the organiser decides a table whose
        # game is still being played, takes the result back, and records it again
        await until(lambda: live_tables(storage, tid, 1), 60, "round 1's tables")
        late = fake.add_user("latecomer")
        tr = await tournament(storage, guild)
        assert tr is not None and tr.signup_message_id is not None
        joined = await fake.click(late, tr.signup_message_id, f"dkr:{tid}:join", timeout=10)
        assert joined.content == t("tournament.ok.joined_late", name="Trust Cup", round=2)
        await board_recomputes(fake, store, tid, "the late join")
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
        number = str(overridden[0])
        label = 1 + [tb.number for tb in rnd.tables].index(overridden[0])
        assert await command(fake, organiser, channel, "undo", table=number) == t(
            "tournament.ok.undone", name="Trust Cup", round=1, table=label
        )
        await board_recomputes(fake, store, tid, "the undo")
        # recorded again, unless the reopened table played its match out meanwhile
        again = await command(fake, organiser, channel, "override", table=number, winner=winner)
        if not again.startswith("Recorded"):
            assert again == t("tournament.error.override_done"), again
            overridden = None

        # round 2: the quitter withdraws; the organiser pauses
        await until(
            lambda: live_tables(storage, tid, 2), 120, "round 2 under way",
            progress=games_played,
        )  # fmt: skip
        assert await command(fake, quitter, channel, "leave") in {
            t(key, name="Trust Cup")
            for key in ("tournament.ok.withdrew", "tournament.ok.withdrew_walkover")
        }  # his match at a 2-seat table is a forfeit if it is being played
        left_at = datetime.now(UTC)  # every game that ends later is an AI's, not his
        rester = players[1]  # asks to sit round 3 out
        assert await command(fake, rester, channel, "bye") == t(
            "tournament.ok.bye", name="Trust Cup", round=3
        )
        await board_recomputes(fake, store, tid, "the requested bye")
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
        assert rester not in rounds[2].pairing.players  # sat out, as asked
        assert late in rounds[1].pairing.players and late not in rounds[0].pairing.players
        by_player = {r.player: r for r in recomputed_rows(rounds, games, entrants, tr)}
        assert [e.points for e in by_player[rester].entries if e.round == 3] == [Fraction(1, 2)]
        assert [e.points for e in by_player[late].entries if e.round == 1] == [Fraction(1, 2)]
        decided = [(tb.number, tb.override) for tb in rounds[0].tables if tb.override]
        assert [(n, o.player) for n, o in decided] == ([overridden] if overridden else [])
        assert all(o.by == organiser for _, o in decided)

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
        expected = shown_rows(fake, recomputed, {quitter})
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
