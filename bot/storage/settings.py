"""Guild and user settings: small key–value tables, the same for every backend."""

from __future__ import annotations

from abc import ABC, abstractmethod

from .interface import SettingsTable


class SettingsStore(ABC):
    """The settings half of the storage interface, written once: a backend supplies the two
    queries over a settings table."""

    async def guild_settings(self, guild_id: int) -> dict[str, str]:
        return await self._settings("guild_settings", guild_id)

    async def set_guild_setting(self, guild_id: int, key: str, value: str) -> None:
        await self._set_setting("guild_settings", guild_id, key, value)

    async def user_settings(self, user_id: int) -> dict[str, str]:
        return await self._settings("user_settings", user_id)

    async def set_user_setting(self, user_id: int, key: str, value: str) -> None:
        await self._set_setting("user_settings", user_id, key, value)

    @abstractmethod
    async def _settings(self, table: SettingsTable, owner_id: int) -> dict[str, str]: ...

    @abstractmethod
    async def _set_setting(
        self, table: SettingsTable, owner_id: int, key: str, value: str
    ) -> None: ...
