"""Fixtures for the storage tests (of bot/storage/ and bot/tournaments/storage/, a plugin that
tests/conftest.py loads): every repository test runs once on SQLite (a real file under pytest's
tmp_path) and once on PostgreSQL (a fresh schema in a real server)."""

from __future__ import annotations

import asyncio
import itertools
import warnings
from collections.abc import AsyncIterator, Callable, Coroutine, Iterator
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any, TypeVar

import pytest

from bot.storage import (
    GameRecord,
    SeatRecord,
    Storage,
    open_storage,
    sqlite_url,
)
from tests.bot.storage.pg_server import drop_schema, fresh_schema, pg_server, warn_skipped

T = TypeVar("T")
T0 = datetime(2026, 11, 1, 12, 0, tzinfo=UTC)
BACKENDS = ["sqlite", "postgresql"]
_SKIPPED: list[str] = []


@pytest.fixture(scope="session")
def pg_base_url() -> Iterator[str | None]:
    """The test server's URL, or None (and a loud warning) when no server can be had."""
    with pg_server() as (url, how):
        if url is None:
            _SKIPPED.append(how)
            warn_skipped(how)
            warnings.warn(f"PostgreSQL tests skipped: {how}", stacklevel=1)
        yield url


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    for reason in _SKIPPED[:1]:
        terminalreporter.write_line(
            f"WARNING: PostgreSQL storage tests SKIPPED: {reason}", red=True, bold=True
        )


def _run(coro: Coroutine[Any, Any, T]) -> T:
    # Sync fixtures cannot await, and the test's loop is already running: use a thread.
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coro).result()


@pytest.fixture
def pg_url(pg_base_url: str | None) -> Iterator[str]:
    """A URL on a fresh, empty schema of the test server (dropped afterwards)."""
    if pg_base_url is None:
        pytest.skip(f"PostgreSQL unavailable: {_SKIPPED[0] if _SKIPPED else 'no server'}")
    url, schema = _run(fresh_schema(pg_base_url))
    yield url
    _run(drop_schema(pg_base_url, schema))


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "data" / "durak.sqlite3"


@pytest.fixture(params=BACKENDS)
def storage_url(request: pytest.FixtureRequest, db_path: Path) -> str:
    """``DATABASE_URL`` of an empty database, once per backend."""
    if request.param == "sqlite":
        return sqlite_url(db_path)
    return str(request.getfixturevalue("pg_url"))


@pytest.fixture
async def storage(storage_url: str) -> AsyncIterator[Storage]:
    s = await open_storage(storage_url)
    try:
        yield s
    finally:
        await s.close()


@pytest.fixture
def make_game() -> Callable[..., GameRecord]:
    """Build a valid GameRecord: ints are Discord users, strings are AI levels.

    Each call gets the next game id and a later end time, so "recent" order is
    the call order.
    """
    counter = itertools.count(1)

    def build(
        players: list[int | str],
        order: list[int],
        durak: int | None,
        *,
        teams: list[int] | None = None,
        guild_id: int = 1,
        channel_id: int = 100,
        game_id: str | None = None,
        series_id: str = "series-1",
    ) -> GameRecord:
        n = next(counter)
        seats = [
            SeatRecord(
                seat=i,
                kind="human" if isinstance(p, int) else "ai",
                user_id=p if isinstance(p, int) else None,
                ai_level=p if isinstance(p, str) else None,
                display_name=f"player-{p}",
                team=teams[i] if teams else None,
            )
            for i, p in enumerate(players)
        ]
        if durak is None:
            losing: list[int] = []
        elif teams:
            losing = [i for i, t in enumerate(teams) if t == teams[durak]]
        else:
            losing = [durak]
        return GameRecord(
            game_id=game_id or f"game-{n}",
            guild_id=guild_id,
            channel_id=channel_id,
            table_id=f"table-{channel_id}",
            series_id=series_id,
            game_number=n,
            rules={"preset": "classic", "options": {"transfer": True}},
            seats=seats,
            finishing_order=order,
            durak_seat=durak,
            losing_seats=losing,
            started_at=T0 + timedelta(minutes=n),
            ended_at=T0 + timedelta(minutes=n, seconds=30),
            seed_commitment="ab" * 32,
            seed="cd" * 32,
            card_order=["6H", "10S", "AD"],
            actions=["0 attack 6H", "1 take"],
        )

    return build
