"""Recognising SQLite lock contention, which is retried rather than surfaced."""

from __future__ import annotations

import sqlite3

_SQLITE_BUSY = 5
_SQLITE_LOCKED = 6


def is_busy(exc: BaseException) -> bool:
    """True for "database is locked"/"busy": another connection holds the write lock."""
    if not isinstance(exc, sqlite3.OperationalError):
        return False
    code = getattr(exc, "sqlite_errorcode", None)
    if isinstance(code, int) and code & 0xFF in (_SQLITE_BUSY, _SQLITE_LOCKED):
        return True
    text = str(exc).lower()
    return "database is locked" in text or "database is busy" in text
