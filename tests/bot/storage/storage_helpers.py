"""Helpers the storage tests import (a module named apart from conftest, which is ambiguous
once several test folders are collected)."""

from __future__ import annotations

from bot.storage import PostgresStorage, SqliteStorage, Storage


async def count_rows(storage: Storage, table: str) -> int:
    """Rows in ``table``, read beside the storage (not through it)."""
    assert table.isidentifier()
    if isinstance(storage, SqliteStorage):
        import sqlite3

        with sqlite3.connect(storage.path) as conn:
            return int(conn.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0])
    assert isinstance(storage, PostgresStorage)
    return await pg_scalar(storage.url, f"SELECT COUNT(*) FROM {table}")


async def pg_scalar(url: str, sql: str) -> int:
    import asyncpg

    conn = await asyncpg.connect(url)
    try:
        return int(await conn.fetchval(sql))
    finally:
        await conn.close()
