"""Fixtures for the storage tests: real SQLite files under pytest's tmp_path."""

from __future__ import annotations

import itertools
from collections.abc import AsyncIterator, Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from bot.storage import GameRecord, SeatRecord, SqliteStorage

T0 = datetime(2026, 11, 1, 12, 0, tzinfo=UTC)


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "data" / "durak.sqlite3"


@pytest.fixture
async def storage(db_path: Path) -> AsyncIterator[SqliteStorage]:
    async with await SqliteStorage.open(db_path) as s:
        yield s


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
