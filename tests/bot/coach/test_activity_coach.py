"""The coach's requests over the Activity's socket (bot/coach/commands/activity_coach.py), without a
browser: each refusal is the chat's words (or the Activity's), a second request while one runs
is refused as busy and one past the user's rate as too fast, a losing first move fails the
daily puzzle and is counted as the chat counts it, and a forged frame is refused as a whole."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from bot.activity.limits import KeyedBuckets
from bot.activity.server import ActivityServer
from bot.coach.commands.activity_coach import BURST, PER_SECOND, ActivityCoach
from bot.coach.commands.activity_puzzle import PuzzleBoards
from bot.coach.puzzle_days import today
from durak_core.coach.puzzles import solver_for, winning_moves
from tests.bot.activity.helpers import Browser, activity_bot, open_browser
from tests.bot.helpers import open_table, world


def coach(op: str, **extra: object) -> dict[str, Any]:
    return {"v": 1, "type": "coach", "op": op, "ref": f"r-{op}", **extra}


async def answer(w: Any, browser: Browser, kind: str | None = None) -> dict[str, Any]:
    """The next error frame, or coach frame of ``kind``, after those seen already."""
    seen = len(browser.frames)

    def found() -> dict[str, Any] | None:
        for f in browser.frames[seen:]:
            if f["type"] == "error" or (f["type"] == "coach" and f["kind"] == kind):
                return f
        return None

    await w.fake.wait_for(lambda: found() is not None, 30, what=f"an answer ({kind})")
    frame = found()
    assert frame is not None
    return frame


async def test_refusals_at_a_normal_table(tmp_path: Path) -> None:
    async with world(tmp_path) as w, activity_bot(w) as site:
        table = await open_table(w, site.bot, [w.alice, w.bob], w.channel)
        instance = w.fake.activity.open_instance(w.channel, [w.alice, w.carol])
        alice = await open_browser(w, site, w.alice, instance)
        carol = await open_browser(w, site, w.carol, instance)
        # forged: hint without its version, a move without its ply
        for frame in (coach("hint"), coach("puzzle_move", code=1)):
            await alice.send(frame)
            assert (await answer(w, alice))["reason"] == "err.activity_frame"
        # no hint at a table that is not a practice table; no review of a running game
        await alice.send(coach("hint", version=table.version))
        assert (await answer(w, alice, "hint"))["reason"] == "err.not_running"
        await alice.send(coach("review"))
        assert (await answer(w, alice, "review"))["reason"] == "err.activity_stale"
        await carol.send(coach("hint", version=table.version))
        assert (await answer(w, carol, "hint"))["reason"] == "err.not_running"
        assert site.bot.reviews.running == 0


@pytest.mark.slow
async def test_one_request_at_a_time_and_a_failed_puzzle(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    gate = asyncio.Event()
    opened = PuzzleBoards.open

    async def slow_open(self: PuzzleBoards, conn: Any, ref: str | None) -> None:
        await gate.wait()
        await opened(self, conn, ref)

    monkeypatch.setattr(PuzzleBoards, "open", slow_open)
    async with world(tmp_path) as w, activity_bot(w) as site:
        bot = site.bot
        server = bot.activity_server
        assert isinstance(server, ActivityServer) and isinstance(server.coach, ActivityCoach)
        now = [0.0]  # the coach's rate limit's clock, moved by hand
        server.coach.rate = KeyedBuckets(PER_SECOND, BURST, clock=lambda: now[0])
        instance = w.fake.activity.open_instance(w.channel, [w.alice])
        alice = await open_browser(w, site, w.alice, instance)
        # past the burst of requests (a review here: no table, refused at once), one is
        # refused as too fast until the bucket refills; a puzzle's moves are not counted
        for _ in range(BURST):
            await alice.send(coach("review"))
            assert (await answer(w, alice))["reason"] == "err.activity_stale"
        await alice.send(coach("review"))
        assert (await answer(w, alice))["reason"] == "err.activity_too_fast"
        now[0] += 2 / PER_SECOND  # two more
        await alice.send(coach("puzzle"))
        await alice.send(coach("puzzle"))
        busy = await answer(w, alice, "puzzle")
        assert busy["reason"] == "activity.coach_busy" and busy["ref"] == "r-puzzle"
        gate.set()
        board = (await answer(w, alice, "puzzle"))["puzzle"]
        assert board["status"] == "playing" and board["ply"] == 0
        assert board["table"]["you"] == 0 and board["table"]["game"]["actions"]

        play = server.coach.puzzles._boards[w.alice].play
        # an earlier board's move, and a move that is not legal here, change nothing
        await alice.send(coach("puzzle_move", code=0, ply=3))
        assert (await answer(w, alice, "puzzle"))["reason"] == "puzzle.stale"
        legal = {a.code for a in play.choices()}
        illegal = next(code for code in range(1000) if code not in legal)
        await alice.send(coach("puzzle_move", code=illegal, ply=0))
        assert (await answer(w, alice, "puzzle"))["reason"] in (
            "puzzle.illegal",
            "err.activity_frame",
        )
        assert play.moves == []
        # a first move that does not win fails the puzzle, and the try is counted
        wins = set(winning_moves(solver_for(play.state, None), play.state))
        losing = next((a for a in play.choices() if a not in wins), None)
        assert losing is not None, "every puzzle has one winning first move only"
        await alice.send(coach("puzzle_move", code=losing.code, ply=0))
        failed = (await answer(w, alice, "puzzle")).get("puzzle")
        assert failed is not None, alice.frames[-1]
        assert failed["status"] == "failed" and failed["verdict"]
        assert failed["table"]["game"]["actions"] == []
        assert w.guild is not None
        day = today(bot.service.core.clock)
        assert await bot.service.storage.daily_puzzle_try(w.guild, day, w.alice) is False
        await alice.send(coach("puzzle_close"))
        assert (await answer(w, alice, "puzzle"))["puzzle"] is None
        assert w.alice not in server.coach.puzzles._boards
