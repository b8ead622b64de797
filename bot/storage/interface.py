"""The repository interface every storage backend implements (SQLite and PostgreSQL).

The bot depends on this Protocol only. Both backends run the same schema and queries
(``migrations.py``, ``queries.py``); they differ in how they run a transaction and save a table.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Literal, Protocol, TypeVar

from .connection import Connection
from .errors import InvalidQuery
from .models import (
    GameRecord,
    GameSummary,
    LeaderboardPage,
    PlayerStats,
    PuzzleStreak,
    PuzzleTry,
    SavedTable,
    TableStatus,
)
from .outcome import RecordedGame
from .sharding import ShardScope

T = TypeVar("T")

LeaderboardSort = Literal["wins", "win_rate", "rating"]
#: The key–value settings tables, and the column that names whose settings a row holds.
SettingsTable = Literal["guild_settings", "user_settings"]
SETTINGS_OWNER: dict[SettingsTable, str] = {
    "guild_settings": "guild_id",
    "user_settings": "user_id",
}
MAX_PAGE_SIZE = 50


class Storage(Protocol):
    #: With a scope, the process resumes only its guilds' tables (and tournaments).
    shards: ShardScope | None

    async def close(self) -> None: ...

    async def transaction(self, body: Callable[[Connection], Awaitable[T]], *, write: bool) -> T:
        """Run ``body`` in one transaction, retried whole while the database is contended: the
        queries of a feature kept outside ``bot.storage`` (the tournaments',
        ``bot.tournaments.storage``) run through it."""
        ...

    async def record_game(self, rec: GameRecord) -> RecordedGame:
        """Store a finished game and update aggregates atomically; idempotent per game_id.
        Returns the game id and, when this call stored it, each human seat's rating change.
        A game with ``rec.tournament`` is also linked to its tournament table (which must be
        paired, with these players: else ``InvalidQuery`` and nothing is written)."""
        ...

    async def finish_series(
        self, guild_id: int, series_id: str, winners: list[int], losers: list[int]
    ) -> bool:
        """Count a series won/lost per user; False if the series was already counted."""
        ...

    async def save_table(self, t: SavedTable) -> None: ...

    def save_table_at_once(self, t: SavedTable) -> bool:
        """Write ``t`` now if that needs no waiting (SQLite with nothing else writing): True
        once written; False if the caller must ``await save_table(t)``. Raises what the write
        raised."""
        ...

    async def load_tables(
        self, statuses: Sequence[TableStatus] = (TableStatus.LOBBY, TableStatus.RUNNING)
    ) -> list[SavedTable]: ...

    async def delete_table(self, table_id: str) -> bool: ...

    async def leaderboard(self, query: LeaderboardQuery) -> LeaderboardPage: ...

    async def user_stats(self, user_id: int, guild_id: int | None) -> PlayerStats: ...

    async def channel_history(
        self, guild_id: int, channel_id: int, limit: int = 10
    ) -> list[GameSummary]: ...

    async def get_game(self, game_id: str) -> GameRecord: ...

    async def guild_settings(self, guild_id: int) -> dict[str, str]:
        """A guild's bot settings (key → value); empty for a guild that changed nothing."""
        ...

    async def set_guild_setting(self, guild_id: int, key: str, value: str) -> None: ...

    async def user_settings(self, user_id: int) -> dict[str, str]:
        """A user's bot settings (key → value), the same in every guild; empty for a user who
        changed nothing."""
        ...

    async def set_user_setting(self, user_id: int, key: str, value: str) -> None: ...

    # The daily puzzle (docs/storage.md, "Puzzles"); ``day``: days since 1970-01-01, UTC.

    async def record_daily_puzzle(self, attempt: PuzzleTry) -> bool:
        """A finished try; False when one was kept already (only the first counts)."""
        ...

    async def daily_puzzle_try(self, guild_id: int, day: int, user_id: int) -> bool | None: ...

    async def daily_puzzle_solvers(self, guild_id: int, day: int, limit: int = 50) -> list[int]: ...

    async def puzzle_streak(self, user_id: int, today: int) -> PuzzleStreak: ...


# Argument checks shared by every backend, so all reject bad input the same way.

_STATUSES: frozenset[str] = frozenset(TableStatus)
_SORTS: frozenset[str] = frozenset({"wins", "win_rate", "rating"})


@dataclass(frozen=True, slots=True)
class LeaderboardQuery:
    """One page of a guild's leaderboard: ``min_games`` counts for ``win_rate`` only; AI seats
    are left out unless ``include_ai``. Checked when made (``InvalidQuery``), so every backend
    refuses the same bad input."""

    guild_id: int
    sort: LeaderboardSort
    page: int = 1
    page_size: int = 10
    min_games: int = 5
    include_ai: bool = False

    def __post_init__(self) -> None:
        if self.sort not in _SORTS:
            raise InvalidQuery(f"sort must be one of {sorted(_SORTS)}, got {self.sort!r}")
        if self.page < 1:
            raise InvalidQuery(f"page must be >= 1, got {self.page}")
        if not 1 <= self.page_size <= MAX_PAGE_SIZE:
            raise InvalidQuery(f"page_size must be in 1..{MAX_PAGE_SIZE}, got {self.page_size}")
        if self.min_games < 0:
            raise InvalidQuery(f"min_games must be >= 0, got {self.min_games}")


def check_limit(limit: int) -> None:
    if not 1 <= limit <= MAX_PAGE_SIZE:
        raise InvalidQuery(f"limit must be in 1..{MAX_PAGE_SIZE}, got {limit}")


def check_statuses(statuses: Sequence[str]) -> None:
    unknown = set(statuses) - _STATUSES
    if unknown or isinstance(statuses, str):
        raise InvalidQuery(f"unknown table statuses {sorted(unknown) or statuses!r}")
