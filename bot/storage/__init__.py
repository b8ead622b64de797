"""Persistent storage for Durak: finished games, aggregates, ratings, saved tables.

Use ``await open_storage(DATABASE_URL)`` (SQLite or PostgreSQL) or
``await SqliteStorage.open(path)``; depend on the ``Storage`` Protocol.
See docs/storage.md for the schema, migrations and error behaviour.
"""

from .errors import (
    AlreadyJoined,
    GameNotFound,
    InvalidQuery,
    LeaveClosed,
    MigrationError,
    SignupClosed,
    SignupRefused,
    StaleTableVersion,
    StorageBusy,
    StorageError,
    TournamentFull,
    TournamentNotFound,
    UnknownPlayer,
)
from .factory import (
    DEFAULT_DATABASE_URL,
    UnsupportedDatabaseUrl,
    backend_of,
    open_storage,
    sqlite_url,
)
from .interface import MAX_PAGE_SIZE, LeaderboardQuery, LeaderboardSort, Storage
from .models import (
    EntrantRecord,
    GameRecord,
    GameSummary,
    LeaderboardEntry,
    LeaderboardPage,
    NewTournament,
    PairedTable,
    PlayerStats,
    PuzzleStreak,
    PuzzleTry,
    RoundStatus,
    SavedTable,
    SeatRecord,
    StoredRound,
    TableOverride,
    TableStatus,
    TournamentLink,
    TournamentRecord,
    TournamentStatus,
)
from .outcome import RatingChange, RecordedGame
from .postgres import PostgresStorage
from .sharding import ShardScope, shard_of
from .sqlite import DEFAULT_DATABASE_PATH, SqliteStorage

__all__ = [
    "DEFAULT_DATABASE_PATH",
    "DEFAULT_DATABASE_URL",
    "MAX_PAGE_SIZE",
    "AlreadyJoined",
    "EntrantRecord",
    "GameNotFound",
    "GameRecord",
    "GameSummary",
    "InvalidQuery",
    "LeaderboardEntry",
    "LeaderboardPage",
    "LeaderboardQuery",
    "LeaderboardSort",
    "LeaveClosed",
    "MigrationError",
    "NewTournament",
    "PairedTable",
    "PlayerStats",
    "PostgresStorage",
    "PuzzleStreak",
    "PuzzleTry",
    "RatingChange",
    "RecordedGame",
    "RoundStatus",
    "SavedTable",
    "SeatRecord",
    "ShardScope",
    "SignupClosed",
    "SignupRefused",
    "SqliteStorage",
    "StaleTableVersion",
    "Storage",
    "StorageBusy",
    "StorageError",
    "StoredRound",
    "TableOverride",
    "TableStatus",
    "TournamentFull",
    "TournamentLink",
    "TournamentNotFound",
    "TournamentRecord",
    "TournamentStatus",
    "UnknownPlayer",
    "UnsupportedDatabaseUrl",
    "backend_of",
    "open_storage",
    "shard_of",
    "sqlite_url",
]
