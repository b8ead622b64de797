"""Typed storage errors: callers catch ``StorageError`` or a specific subclass.

Raw ``sqlite3``/``aiosqlite`` errors never escape a storage method for the
expected failure modes (busy database, stale table, unknown game, bad query).
"""

from __future__ import annotations


class StorageError(Exception):
    """Base class of every error raised by the storage layer."""


class NotFound(StorageError, LookupError):
    """An id that names nothing stored (``key``); ``what`` names the kind of record."""

    what = "record"

    def __init__(self, key: str) -> None:
        super().__init__(f"no {self.what} with id {key!r}")
        self.key = key


class GameNotFound(NotFound):
    """``get_game`` was asked for a game id that was never recorded."""

    what = "recorded game"


class UnknownPlayer(StorageError, LookupError):
    """A write referred to a user with no record in the guild (e.g. ``finish_series``)."""

    def __init__(self, guild_id: int, user_id: int) -> None:
        super().__init__(f"user {user_id} has no recorded games in guild {guild_id}")
        self.guild_id = guild_id
        self.user_id = user_id


class InvalidQuery(StorageError, ValueError):
    """A query argument is out of range (page < 1, page_size not in 1..50, ...)."""


class StaleTableVersion(StorageError):
    """``save_table`` got an older version than the one stored (lost-update guard)."""

    def __init__(self, table_id: str, given: int, stored: int) -> None:
        super().__init__(
            f"table {table_id!r}: refusing to save version {given}, version {stored} is stored"
        )
        self.table_id = table_id
        self.given = given
        self.stored = stored


class StorageBusy(StorageError):
    """The database stayed locked by another process for longer than the retry budget."""


class MigrationError(StorageError):
    """The schema cannot be brought to the version this code expects."""
