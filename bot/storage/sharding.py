"""Which guilds a process owns when the bot runs as several shards or processes.

Discord routes a guild to shard ``(guild_id >> 22) % shard_count``. A process
running ``shard_ids`` restores only the saved tables of its own guilds, so two
processes never resume the same table. The same formula is evaluated in SQL
(:func:`fetch_owned`) when the backends load tables and tournaments.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .connection import Connection, Row


def shard_of(guild_id: int, shard_count: int) -> int:
    return (guild_id >> 22) % shard_count


@dataclass(frozen=True, slots=True)
class ShardScope:
    shard_count: int
    shard_ids: tuple[int, ...]

    def __post_init__(self) -> None:
        if self.shard_count < 1:
            raise ValueError(f"shard_count must be >= 1, got {self.shard_count}")
        bad = [s for s in self.shard_ids if not 0 <= s < self.shard_count]
        if bad or not self.shard_ids:
            raise ValueError(f"shard ids must be in 0..{self.shard_count - 1}, got {bad or '[]'}")

    @classmethod
    def of(cls, shard_count: int | None, shard_ids: Iterable[int] | None) -> ShardScope | None:
        """The scope of a process, or None when it runs every shard (owns every guild)."""
        if shard_count is None:
            return None
        ids = tuple(sorted(set(shard_ids))) if shard_ids else tuple(range(shard_count))
        scope = cls(shard_count, ids)
        return None if len(ids) == shard_count else scope

    def owns(self, guild_id: int) -> bool:
        return shard_of(guild_id, self.shard_count) in self.shard_ids


async def fetch_owned(
    conn: Connection,
    shards: ShardScope | None,
    table: str,
    where: str,
    params: Sequence[object],
    order: str,
) -> list[Row]:
    """Every column of ``table``'s rows that match ``where`` (``?`` marks for ``params``), in
    ``order``: only those of the guilds of ``shards`` (:meth:`ShardScope.owns`, in SQL) when
    the process runs some of the shards."""
    if shards is not None:
        marks = ", ".join("?" * len(shards.shard_ids))
        where += f" AND ((guild_id >> 22) % ?) IN ({marks})"
        params = [*params, shards.shard_count, *shards.shard_ids]
    return await conn.fetch(f"SELECT * FROM {table} WHERE {where} ORDER BY {order}", *params)
