"""Persistent storage for Durak: finished games, aggregates, ratings, saved tables.

Use ``await SqliteStorage.open(path)``; depend on the ``Storage`` Protocol.
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
from .interface import MAX_PAGE_SIZE, LeaderboardSort, Storage
from .models import (
    GameRecord,
    GameSummary,
    HeadToHead,
    LeaderboardEntry,
    LeaderboardPage,
    PlayerStats,
    SavedTable,
    SeatRecord,
    TableStatus,
)
from .sqlite import DEFAULT_DATABASE_PATH, SqliteStorage

__all__ = [
    "DEFAULT_DATABASE_PATH",
    "MAX_PAGE_SIZE",
    "GameNotFound",
    "GameRecord",
    "GameSummary",
    "HeadToHead",
    "InvalidQuery",
    "LeaderboardEntry",
    "LeaderboardPage",
    "LeaderboardSort",
    "MigrationError",
    "PlayerStats",
    "SavedTable",
    "SeatRecord",
    "SqliteStorage",
    "StaleTableVersion",
    "Storage",
    "StorageBusy",
    "StorageError",
    "TableStatus",
    "UnknownPlayer",
]
