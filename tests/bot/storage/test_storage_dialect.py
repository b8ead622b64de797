"""The dialect layer (what differs between SQLite and PostgreSQL) and the one retry policy,
without a database: the shared queries are run on both backends by every other storage test."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from bot.storage import StorageBusy
from bot.storage.dialect import POSTGRES, SQLITE
from bot.storage.migrations import MIGRATIONS
from bot.storage.retry import Retry


def test_placeholders_are_numbered_for_postgres_only() -> None:
    sql = "UPDATE t SET a = ?, b = b + ? WHERE c IN (?, ?)"
    assert SQLITE.sql(sql) == sql
    assert POSTGRES.sql(sql) == "UPDATE t SET a = $1, b = b + $2 WHERE c IN ($3, $4)"
    assert POSTGRES.sql("SELECT 1") == "SELECT 1"


def test_column_roles_are_spelled_per_database() -> None:
    ddl = "CREATE TABLE x (k {key} PRIMARY KEY, g {id}, at {time}, r {real})"
    assert SQLITE.ddl(ddl) == "CREATE TABLE x (k TEXT PRIMARY KEY, g INTEGER, at TEXT, r REAL)"
    assert POSTGRES.ddl(ddl) == (
        'CREATE TABLE x (k TEXT COLLATE "C" PRIMARY KEY, g BIGINT, at TIMESTAMPTZ,'
        " r DOUBLE PRECISION)"
    )
    # Every migration renders on both: no role is left unspelled.
    for m in MIGRATIONS:
        for dialect in (SQLITE, POSTGRES):
            assert all("{" not in stmt for stmt in m.render(dialect)), m.name


def test_times_are_iso_text_on_sqlite_and_datetimes_on_postgres() -> None:
    moscow = datetime(2026, 11, 1, 15, 0, 0, 5, tzinfo=timezone(timedelta(hours=3)))
    # Fixed-width UTC text: it sorts as time.
    assert SQLITE.time(moscow) == "2026-11-01T12:00:00.000005+00:00"
    assert POSTGRES.time(moscow) is moscow
    assert (SQLITE.for_update, POSTGRES.for_update) == ("", " FOR UPDATE")


class Locked(Exception):
    pass


class Flaky:
    """An operation that raises ``error`` on its first ``failures`` calls, then returns."""

    def __init__(self, failures: int, error: Exception) -> None:
        self.failures, self.error, self.calls = failures, error, 0

    async def __call__(self) -> str:
        self.calls += 1
        if self.calls <= self.failures:
            raise self.error
        return "done"


def _retry(busy: str = "{budget:g}s") -> Retry:
    return Retry(lambda e: isinstance(e, Locked), first_wait=0.001, max_wait=0.002, busy=busy)


async def test_retry_runs_again_until_it_succeeds() -> None:
    op = Flaky(3, Locked())
    assert await _retry().run(op, budget_seconds=5.0) == "done"
    assert op.calls == 4


async def test_retry_gives_up_after_its_budget_with_storage_busy() -> None:
    op = Flaky(10**9, Locked("still locked"))
    with pytest.raises(StorageBusy, match=r"^locked for 0.05s: still locked$") as info:
        await _retry("locked for {budget:g}s: {error}").run(op, budget_seconds=0.05)
    assert isinstance(info.value.__cause__, Locked)
    assert op.calls > 2


async def test_retry_raises_anything_else_at_once() -> None:
    op = Flaky(1, ValueError("a bug, not a lock"))
    with pytest.raises(ValueError, match="a bug"):
        await _retry().run(op, budget_seconds=5.0)
    assert op.calls == 1
