"""The repository interface every storage backend implements (SQLite and PostgreSQL).

The bot depends on this Protocol only. Both backends run the same schema and queries
(``migrations.py``, ``queries.py``); they differ in how they run a transaction and save a table.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Literal, Protocol

from bot.tournaments import Override, Pairing, PlayedGame, TournamentSettings

from .errors import InvalidQuery
from .models import (
    EntrantRecord,
    GameRecord,
    GameSummary,
    LeaderboardPage,
    NewTournament,
    PlayerStats,
    PuzzleStreak,
    PuzzleTry,
    SavedTable,
    StoredRound,
    TableStatus,
    TournamentRecord,
    TournamentStatus,
)
from .outcome import RecordedGame

LeaderboardSort = Literal["wins", "win_rate", "rating"]
#: The key–value settings tables, and the column that names whose settings a row holds.
SettingsTable = Literal["guild_settings", "user_settings"]
SETTINGS_OWNER: dict[SettingsTable, str] = {
    "guild_settings": "guild_id",
    "user_settings": "user_id",
}
MAX_PAGE_SIZE = 50


class Storage(Protocol):
    async def close(self) -> None: ...

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

    # Tournaments (docs/storage.md, "Tournaments"); an unknown id: ``TournamentNotFound``.

    async def create_tournament(self, t: NewTournament) -> TournamentRecord: ...

    async def get_tournament(self, tournament_id: str) -> TournamentRecord: ...

    async def guild_tournaments(self, guild_id: int, limit: int = 10) -> list[TournamentRecord]:
        """Newest first (``/durak tournament history``)."""
        ...

    async def active_tournaments(self) -> list[TournamentRecord]:
        """In sign-up or running (this process's shards only), oldest first: to resume."""
        ...

    async def edit_tournament(
        self,
        tournament_id: str,
        settings: TournamentSettings,
        options: Mapping[str, object],
        signup_deadline: datetime | None,
    ) -> TournamentRecord: ...

    async def set_tournament_options(
        self, tournament_id: str, changes: Mapping[str, object]
    ) -> TournamentRecord: ...

    async def set_tournament_status(
        self, tournament_id: str, status: TournamentStatus
    ) -> TournamentRecord: ...

    async def set_tournament_message(
        self, tournament_id: str, kind: Literal["signup", "standings"], message_id: int | None
    ) -> None: ...

    async def add_entrant(self, tournament_id: str, user_id: int, rating: float) -> EntrantRecord:
        """Refusals are ``SignupRefused`` with the core's ``code``: ``AlreadyJoined``,
        ``TournamentFull``, ``SignupClosed``."""
        ...

    async def remove_entrant(self, tournament_id: str, user_id: int) -> bool: ...

    async def withdraw_entrant(self, tournament_id: str, user_id: int) -> bool: ...

    async def check_in_entrant(self, tournament_id: str, user_id: int) -> bool: ...

    async def tournament_entrants(self, tournament_id: str) -> list[EntrantRecord]: ...

    async def tournament_game_ids(self, tournament_id: str) -> list[tuple[str, str]]: ...

    async def save_round(self, tournament_id: str, pairing: Pairing) -> bool: ...

    async def finish_round(self, tournament_id: str, number: int) -> bool: ...

    async def open_tournament_table(
        self, tournament_id: str, round_number: int, table_number: int, bot_table_id: str
    ) -> bool: ...

    async def tournament_rounds(self, tournament_id: str) -> list[StoredRound]: ...

    async def override_tournament_table(self, tournament_id: str, o: Override, by: int) -> bool:
        """The organiser's result ``o`` (recorded by ``by``) of a table of the round being
        played; False if it has one."""
        ...

    async def tournament_games(self, tournament_id: str) -> list[PlayedGame]:
        """The stored games as the core's records: the standings are recomputed from them."""
        ...

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
