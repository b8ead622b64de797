"""The tables the bot runs: by id (buttons) and by channel (commands), one active per channel."""

from __future__ import annotations

import secrets
from collections.abc import Iterator

from .table import Table

TABLE_ID_HEX = 8  # 32 bits: plenty for the live tables, short enough for custom_ids


class Registry:
    def __init__(self) -> None:
        self._by_id: dict[str, Table] = {}
        self._by_channel: dict[int, str] = {}

    def new_id(self) -> str:
        while True:
            table_id = secrets.token_hex(TABLE_ID_HEX // 2)
            if table_id not in self._by_id:
                return table_id

    def add(self, table: Table) -> None:
        old = self.in_channel(table.channel_id)
        if old is not None and old.active:
            raise ValueError(f"channel {table.channel_id} already has table {old.table_id}")
        if old is not None:
            self._by_id.pop(old.table_id, None)
        self._by_id[table.table_id] = table
        self._by_channel[table.channel_id] = table.table_id

    def get(self, table_id: str) -> Table | None:
        return self._by_id.get(table_id)

    def in_channel(self, channel_id: int) -> Table | None:
        table_id = self._by_channel.get(channel_id)
        return self._by_id.get(table_id) if table_id is not None else None

    def active_in_channel(self, channel_id: int) -> Table | None:
        table = self.in_channel(channel_id)
        return table if table is not None and table.active else None

    def hosted_by(self, user_id: int) -> int:
        """How many unfinished tables (lobby or game) ``user_id`` hosts."""
        return sum(1 for t in self._by_id.values() if t.host_id == user_id and t.active)

    def remove(self, table: Table) -> None:
        self._by_id.pop(table.table_id, None)
        if self._by_channel.get(table.channel_id) == table.table_id:
            del self._by_channel[table.channel_id]

    def __iter__(self) -> Iterator[Table]:
        return iter(list(self._by_id.values()))

    def __len__(self) -> int:
        return len(self._by_id)
