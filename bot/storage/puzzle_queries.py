"""The daily puzzle's records (``/durak puzzle``), written once for SQLite and PostgreSQL like
``queries.py`` (whose :class:`~bot.storage.queries.SqlStorage` inherits these methods).

A day is a number (days since 1970-01-01, UTC) the bot computes from its clock
(:func:`day_of`); storage only keeps it. A player's first finished try at a server's puzzle of
a day is the one that counts: the insert does nothing when a row exists (``ON CONFLICT DO
NOTHING``), so two clicks racing each other, or two processes, still leave one row.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Awaitable, Callable, Sequence
from typing import TypeVar

from .connection import Connection, fetch_rows
from .interface import check_limit
from .models import PuzzleStreak, PuzzleTry

T = TypeVar("T")

SECONDS_PER_DAY = 86_400


def day_of(seconds: float) -> int:
    """The day (since 1970-01-01, UTC) of a time in seconds since then: the daily puzzle's day,
    and its streak's."""
    return int(seconds // SECONDS_PER_DAY)


def streak_of(days: Sequence[int], today: int) -> PuzzleStreak:
    """The streak of the solved ``days`` (any order, repeats allowed) as of ``today``."""
    distinct = sorted(set(days))
    best = run = 0
    previous: int | None = None
    for day in distinct:
        run = run + 1 if previous is not None and day == previous + 1 else 1
        best = max(best, run)
        previous = day
    current = 0
    solved = set(distinct)
    start = today if today in solved else today - 1  # today's may still come
    while start - current in solved:
        current += 1
    return PuzzleStreak(current=current, best=best, solved=len(distinct))


class PuzzleQueries(ABC):
    """Tries at the daily puzzles, who solved one, and the streaks."""

    @abstractmethod
    async def _transaction(
        self, body: Callable[[Connection], Awaitable[T]], *, write: bool
    ) -> T: ...

    async def record_daily_puzzle(self, attempt: PuzzleTry) -> bool:
        """Keep a finished try; False (and nothing changed) when the player had finished this
        server's puzzle of this day already: only the first try counts."""
        a = attempt

        async def body(conn: Connection) -> bool:
            # RETURNING names the row only if this insert made it: under PostgreSQL's read
            # committed, a re-read would also see a row a concurrent try committed.
            made = await conn.fetchrow(
                "INSERT INTO puzzle_attempts"
                " (guild_id, day, user_id, puzzle_number, solved, finished_at)"
                " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (guild_id, day, user_id) DO NOTHING"
                " RETURNING user_id",
                a.guild_id, a.day, a.user_id, a.puzzle_number, int(a.solved),
                conn.dialect.time(a.at),
            )  # fmt: skip
            return made is not None

        return await self._transaction(body, write=True)

    async def daily_puzzle_try(self, guild_id: int, day: int, user_id: int) -> bool | None:
        """Whether the player solved (True) or failed (False) the day's puzzle there; None
        before a finished try."""

        async def body(conn: Connection) -> bool | None:
            return await _try(conn, guild_id, day, user_id)

        return await self._transaction(body, write=False)

    async def daily_puzzle_solvers(self, guild_id: int, day: int, limit: int = 50) -> list[int]:
        """Who solved the server's puzzle of the day, first solver first."""
        check_limit(limit)
        rows = await fetch_rows(
            self._transaction,
            "SELECT user_id FROM puzzle_attempts WHERE guild_id = ? AND day = ?"
            " AND solved = 1 ORDER BY finished_at, user_id LIMIT ?",
            guild_id,
            day,
            limit,
        )
        return [int(r["user_id"]) for r in rows]

    async def puzzle_streak(self, user_id: int, today: int) -> PuzzleStreak:
        async def body(conn: Connection) -> PuzzleStreak:
            rows = await conn.fetch(
                "SELECT DISTINCT day FROM puzzle_attempts WHERE user_id = ? AND solved = 1",
                user_id,
            )
            return streak_of([int(r["day"]) for r in rows], today)

        return await self._transaction(body, write=False)


async def _try(conn: Connection, guild_id: int, day: int, user_id: int) -> bool | None:
    row = await conn.fetchrow(
        "SELECT solved FROM puzzle_attempts WHERE guild_id = ? AND day = ? AND user_id = ?",
        guild_id,
        day,
        user_id,
    )
    return None if row is None else bool(row["solved"])
