"""Saved tables: upsert, stale-version guard, resume after restart."""

from __future__ import annotations

import pytest

from bot.storage import (
    InvalidQuery,
    PostgresStorage,
    SavedTable,
    ShardScope,
    SqliteStorage,
    StaleTableVersion,
    Storage,
    TableStatus,
    open_storage,
)


def _table(table_id: str = "t1", version: int = 1, **kw: object) -> SavedTable:
    data: dict[str, object] = {
        "table_id": table_id,
        "guild_id": 1,
        "channel_id": 2,
        "thread_id": 3,
        "table_message_id": 4,
        "state_json": f'{{"v": {version}}}',
        "meta": {"seats": {"0": 11, "1": 12}, "score": [1, 0], "turn_deadline": 99.5},
        "status": "running",
        "version": version,
    }
    data.update(kw)
    return SavedTable.model_validate(data)


async def test_restart_resumes_running_tables(storage_url: str) -> None:
    s = await open_storage(storage_url)
    await s.save_table(_table("a", status="lobby", version=0))
    await s.save_table(_table("b"))
    await s.save_table(_table("b", version=2))
    await s.save_table(_table("done", status="finished"))
    await s.close()
    s = await open_storage(storage_url)
    try:
        tables = {t.table_id: t for t in await s.load_tables()}
        assert set(tables) == {"a", "b"}
        assert tables["b"] == _table("b", version=2)
        finished = await s.load_tables([TableStatus.FINISHED, TableStatus.ABANDONED])
        assert [t.table_id for t in finished] == ["done"]
        assert await s.load_tables([]) == []
    finally:
        await s.close()


async def test_stale_version_is_rejected_and_keeps_newer(storage: Storage) -> None:
    await storage.save_table(_table(version=5))
    with pytest.raises(StaleTableVersion) as info:
        await storage.save_table(_table(version=4, state_json="old"))
    assert (info.value.given, info.value.stored) == (4, 5)
    assert (await storage.load_tables())[0].state_json == '{"v": 5}'


async def test_same_version_overwrites_metadata(storage: Storage) -> None:
    # Message ids can change without an engine action, so an equal version is accepted.
    await storage.save_table(_table(version=3))
    await storage.save_table(_table(version=3, table_message_id=77))
    assert (await storage.load_tables())[0].table_message_id == 77


async def test_delete_table(storage: Storage) -> None:
    await storage.save_table(_table())
    assert await storage.delete_table("t1") is True
    assert await storage.delete_table("t1") is False
    assert await storage.load_tables() == []


async def test_unknown_status_filter(storage: Storage) -> None:
    with pytest.raises(InvalidQuery, match="paused"):
        await storage.load_tables(["paused"])  # type: ignore[list-item]


async def test_shard_scope_restores_only_own_guilds(storage_url: str) -> None:
    # Guild ids whose shard (id >> 22) % 2 is 0 and 1.
    even, odd = 10 << 22, (11 << 22) + 5
    async with await _open_scoped(storage_url, None) as s:
        await s.save_table(_table("even", guild_id=even))
        await s.save_table(_table("odd", guild_id=odd))
    for shard, expected in ((0, ["even"]), (1, ["odd"])):
        async with await _open_scoped(storage_url, ShardScope(2, (shard,))) as s:
            assert [t.table_id for t in await s.load_tables()] == expected
    assert ShardScope.of(2, [0, 1]) is None  # every shard: no filter
    assert ShardScope.of(4, [3]) == ShardScope(4, (3,))
    with pytest.raises(ValueError):
        ShardScope(2, (2,))


async def _open_scoped(url: str, scope: ShardScope | None) -> SqliteStorage | PostgresStorage:
    if url.startswith("sqlite:///"):
        return await SqliteStorage.open(url.removeprefix("sqlite:///"), shards=scope)
    return await PostgresStorage.open(url, shards=scope)
