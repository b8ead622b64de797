"""What differs between SQLite and PostgreSQL, and nothing else.

The schema (``migrations.py``) and the queries (``queries.py``) are written once, in SQL both
databases accept, with ``?`` placeholders and four column types named by role. A
:class:`Dialect` says how each role is spelled, how a ``?`` is written, how a time is stored,
and whether rows can be locked:

| | SQLite | PostgreSQL |
| --- | --- | --- |
| ``{id}`` (Discord ids) | INTEGER | BIGINT |
| ``{key}`` (sorted text keys) | TEXT | TEXT COLLATE "C" (ties break as in SQLite) |
| ``{time}`` | TEXT (fixed-width UTC ISO, sorts as time) | TIMESTAMPTZ |
| ``{real}`` | REAL | DOUBLE PRECISION |
| placeholders | ``?`` | ``$1``, ``$2``, … |
| ``FOR UPDATE`` | none (a write transaction holds the file's lock) | row locks |
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from functools import lru_cache


@dataclass(frozen=True, slots=True)
class Dialect:
    name: str
    #: The DDL spelling of each column role: ``id``, ``key``, ``time``, ``real``.
    types: dict[str, str]
    #: Whether ``SELECT … FOR UPDATE`` exists (and row locks are needed).
    row_locks: bool

    def ddl(self, statement: str) -> str:
        """A schema statement with its column roles spelled for this database."""
        return statement.format_map(self.types)

    def sql(self, query: str) -> str:
        """A query with its placeholders written as this database's driver wants them."""
        return _numbered(query) if self.name == "postgresql" else query

    def time(self, value: datetime) -> datetime | str:
        """A time as a parameter: PostgreSQL binds the datetime, SQLite stores ISO text."""
        return value if self.name == "postgresql" else ts(value)

    @property
    def for_update(self) -> str:
        return " FOR UPDATE" if self.row_locks else ""


def ts(value: datetime) -> str:
    # Fixed-width UTC ISO text sorts chronologically as a string.
    return value.astimezone(UTC).isoformat(timespec="microseconds")


@lru_cache(maxsize=512)
def _numbered(query: str) -> str:
    # No query has a ``?`` inside a string literal, so every ``?`` is a parameter.
    parts = query.split("?")
    out = [parts[0]]
    for n, part in enumerate(parts[1:], start=1):
        out.append(f"${n}{part}")
    return "".join(out)


SQLITE = Dialect(
    "sqlite", {"id": "INTEGER", "key": "TEXT", "time": "TEXT", "real": "REAL"}, row_locks=False
)
POSTGRES = Dialect(
    "postgresql",
    {"id": "BIGINT", "key": 'TEXT COLLATE "C"', "time": "TIMESTAMPTZ", "real": "DOUBLE PRECISION"},
    row_locks=True,
)
