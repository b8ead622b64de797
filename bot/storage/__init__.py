"""Persistent storage for Durak: finished games, aggregates, ratings, saved tables.

Use ``await open_storage(DATABASE_URL)`` (SQLite or PostgreSQL) or
``await SqliteStorage.open(path)``; depend on the ``Storage`` Protocol.
See docs/storage.md for the schema, migrations and error behaviour.
"""

from .errors import (
    GameNotFound,
    InvalidQuery,
    MigrationError,
    StaleTableVersion,
    StorageBusy,
    StorageError,
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
    GameRecord,
    GameSummary,
    LeaderboardEntry,
    LeaderboardPage,
    PlayerStats,
    PuzzleStreak,
    PuzzleTry,
    SavedTable,
    SeatRecord,
    TableStatus,
    TournamentLink,
)
from .outcome import RatingChange, RecordedGame
from .postgres import PostgresStorage
from .sharding import ShardScope, shard_of
from .sqlite import DEFAULT_DATABASE_PATH, SqliteStorage

__all__ = [
    "DEFAULT_DATABASE_PATH",
    "DEFAULT_DATABASE_URL",
    "MAX_PAGE_SIZE",
    "GameNotFound",
    "GameRecord",
    "GameSummary",
    "InvalidQuery",
    "LeaderboardEntry",
    "LeaderboardPage",
    "LeaderboardQuery",
    "LeaderboardSort",
    "MigrationError",
    "PlayerStats",
    "PostgresStorage",
    "PuzzleStreak",
    "PuzzleTry",
    "RatingChange",
    "RecordedGame",
    "SavedTable",
    "SeatRecord",
    "ShardScope",
    "SqliteStorage",
    "StaleTableVersion",
    "Storage",
    "StorageBusy",
    "StorageError",
    "TableStatus",
    "TournamentLink",
    "UnknownPlayer",
    "UnsupportedDatabaseUrl",
    "backend_of",
    "open_storage",
    "shard_of",
    "sqlite_url",
]
