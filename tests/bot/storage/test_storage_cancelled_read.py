"""Issue #30, bug 14: a read cancelled while it waited for its BEGIN left SQLite's read
connection inside that transaction, and every later read failed ("cannot start a transaction
within a transaction"): the tournament runner could no longer see a round end. A cancelled
read now leaves the connection as it found it."""

from __future__ import annotations

import asyncio
from pathlib import Path

from bot.storage import open_storage, sqlite_url
from bot.tournaments.storage import TournamentStore


async def test_a_read_cancelled_at_its_begin_leaves_the_connection_usable(tmp_path: Path) -> None:
    storage = await open_storage(sqlite_url(tmp_path / "durak.sqlite3"))
    store = TournamentStore(storage)
    try:
        for turns in range(4):  # cancelled at its first suspensions, whichever is BEGIN's
            read = asyncio.create_task(store.guild_tournaments(1))
            for _ in range(turns):
                await asyncio.sleep(0)
            read.cancel()
            await asyncio.gather(read, return_exceptions=True)
            assert await store.guild_tournaments(1) == []  # raised before the fix
    finally:
        await storage.close()
