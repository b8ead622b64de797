"""The daily puzzle's bookkeeping, shared by ``/durak puzzle daily`` (chat) and the Activity's
puzzle: the shipped set, which puzzle is a server's today, and keeping a player's first finished
try of the day (it counts toward the puzzle streak). Words are the callers': this returns
catalogue keys and their values."""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from importlib import resources

from bot.storage import PuzzleTry, Storage
from bot.storage.puzzle_queries import day_of
from durak_core.coach.puzzles import Puzzle, PuzzlePlay, daily_number, parse_puzzles

#: A catalogue key and its values: a line the board adds.
Note = tuple[str, dict[str, object]]


@functools.cache
def shipped_puzzles() -> tuple[Puzzle, ...]:
    """The shipped set (``durak_core/data/puzzles.json``), read and checked once."""
    text = resources.files("durak_core.data").joinpath("puzzles.json").read_text("utf-8")
    return parse_puzzles(text)


def today(clock: Callable[[], float]) -> int:
    """Days since 1970-01-01 in UTC, by the bot's clock: the daily puzzle's day."""
    return day_of(clock())


@dataclass(frozen=True)
class DailyTry:
    guild_id: int
    day: int
    #: The player's first finished try of the day there: its result is stored.
    counts: bool


async def open_daily(
    storage: Storage, puzzles: tuple[Puzzle, ...], guild_id: int, day: int, user_id: int
) -> tuple[Puzzle, DailyTry, list[Note]]:
    """The server's puzzle of ``day``, the player's try at it, and (after an earlier finished
    try) the note that this one is practice."""
    chosen = puzzles[daily_number(guild_id, day, len(puzzles)) - 1]
    before = await storage.daily_puzzle_try(guild_id, day, user_id)
    notes: list[Note] = []
    if before is not None:
        notes.append(("puzzle.practice_solved" if before else "puzzle.practice_failed", {}))
    return chosen, DailyTry(guild_id, day, counts=before is None), notes


async def finish_daily(
    storage: Storage, daily: DailyTry, play: PuzzlePlay, user_id: int, now: float
) -> tuple[DailyTry, list[Note]]:
    """Keep a counting try once it is over (only the first finished one counts): the try as
    it stands after that, and the note about the result and the streak."""
    if play.status == "playing" or not daily.counts:
        return daily, []
    solved = play.status == "solved"
    attempt = PuzzleTry(
        guild_id=daily.guild_id,
        day=daily.day,
        user_id=user_id,
        puzzle_number=play.puzzle.number,
        solved=solved,
        at=datetime.fromtimestamp(now, UTC),
    )
    notes: list[Note] = []
    if await storage.record_daily_puzzle(attempt):
        if solved:
            streak = await storage.puzzle_streak(user_id, daily.day)
            notes.append(("puzzle.counted_solved", {"n": streak.current}))
        else:
            notes.append(("puzzle.counted_failed", {}))
    return DailyTry(daily.guild_id, daily.day, counts=False), notes
