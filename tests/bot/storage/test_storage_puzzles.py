"""The daily puzzle's records (migration 9) on both backends: only a player's first finished
try of a server's day counts, the solvers in the order they solved, and the puzzle streak."""

from __future__ import annotations

import asyncio
from datetime import datetime, timedelta

import pytest

from bot.storage import PuzzleStreak, PuzzleTry, Storage
from bot.storage.puzzle_queries import streak_of
from tests.bot.storage.fixtures import T0

BIG = 2**62  # a snowflake-sized id


def attempt(
    guild: int, day: int, user: int, number: int, solved: bool, at: datetime = T0
) -> PuzzleTry:
    return PuzzleTry(
        guild_id=guild, day=day, user_id=user, puzzle_number=number, solved=solved, at=at
    )


async def test_the_first_finished_try_counts(storage: Storage) -> None:
    assert await storage.daily_puzzle_try(1, 100, BIG) is None
    assert await storage.record_daily_puzzle(attempt(1, 100, BIG, 7, False))
    assert not await storage.record_daily_puzzle(attempt(1, 100, BIG, 7, True))  # a later try
    assert await storage.daily_puzzle_try(1, 100, BIG) is False
    assert await storage.daily_puzzle_solvers(1, 100) == []
    # another server, or another day, is another puzzle
    assert await storage.record_daily_puzzle(attempt(2, 100, BIG, 9, True))
    assert await storage.record_daily_puzzle(attempt(1, 101, BIG, 3, True))
    assert await storage.daily_puzzle_try(2, 100, BIG) is True


async def test_two_tries_at_once_keep_one(storage: Storage) -> None:
    results = await asyncio.gather(
        *(storage.record_daily_puzzle(attempt(1, 5, 42, 1, solved)) for solved in (True, False) * 3)
    )
    assert results.count(True) == 1


async def test_solvers_in_the_order_they_solved(storage: Storage) -> None:
    for k, user in enumerate((30, 10, BIG)):
        await storage.record_daily_puzzle(attempt(1, 9, user, 4, True, T0 + timedelta(minutes=k)))
    await storage.record_daily_puzzle(attempt(1, 9, 20, 4, False))
    await storage.record_daily_puzzle(attempt(1, 8, 40, 4, True))  # the day before
    assert await storage.daily_puzzle_solvers(1, 9) == [30, 10, BIG]
    assert await storage.daily_puzzle_solvers(1, 9, limit=2) == [30, 10]


async def test_the_streak_counts_solved_days_in_any_server(storage: Storage) -> None:
    for guild, day in ((1, 10), (2, 11), (1, 11), (1, 12), (3, 20), (3, 21)):
        await storage.record_daily_puzzle(attempt(guild, day, BIG, 1, True))
    await storage.record_daily_puzzle(attempt(1, 22, BIG, 1, False))  # failed: the streak ends
    assert await storage.puzzle_streak(BIG, 21) == PuzzleStreak(current=2, best=3, solved=5)
    assert await storage.puzzle_streak(BIG, 22) == PuzzleStreak(current=2, best=3, solved=5)
    assert await storage.puzzle_streak(BIG, 23) == PuzzleStreak(current=0, best=3, solved=5)
    assert await storage.puzzle_streak(7, 23) == PuzzleStreak()


@pytest.mark.parametrize(
    ("days", "today", "current", "best"),
    [
        ([], 5, 0, 0),
        ([5], 5, 1, 1),
        ([4], 5, 1, 1),  # today's still to come
        ([3], 5, 0, 1),
        ([1, 2, 3, 5, 6], 6, 2, 3),
        ([3, 1, 2, 2], 3, 3, 3),
    ],
)
def test_streak_of(days: list[int], today: int, current: int, best: int) -> None:
    streak = streak_of(days, today)
    assert (streak.current, streak.best, streak.solved) == (current, best, len(set(days)))
