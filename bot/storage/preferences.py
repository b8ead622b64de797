"""Guild and user settings: small key–value tables, the same for every backend, and the cached
read of the one the game asks for at every turn (``/durak settings notify:``)."""

from __future__ import annotations

import logging
from abc import ABC, abstractmethod
from typing import Literal

from .interface import SettingsTable, Storage

log = logging.getLogger(__name__)

NotifyMode = Literal["mention", "dm", "off"]
NOTIFY_MODES: tuple[NotifyMode, ...] = ("mention", "dm", "off")
#: A mention reaches everyone who can see the table, also users who do not accept DMs from
#: server members (a DM then fails, and the bot cannot tell beforehand); see docs/bot.md.
DEFAULT_NOTIFY_MODE: NotifyMode = "mention"
NOTIFY_KEY = "notify"


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


class NotifyPrefs:
    """Each user's ``/durak settings notify:`` choice, stored per user and cached."""

    def __init__(self) -> None:
        #: Set by the bot once storage is open.
        self.storage: Storage | None = None
        self._cache: dict[int, NotifyMode] = {}

    async def get(self, user_id: int) -> NotifyMode:
        found = self._cache.get(user_id)
        if found is not None:
            return found
        if self.storage is None:
            return DEFAULT_NOTIFY_MODE
        try:
            stored = (await self.storage.user_settings(user_id)).get(NOTIFY_KEY)
        except Exception as exc:  # a busy or lost database must not stop the game
            log.warning("could not load the settings of user %s (%s): default", user_id, exc)
            return DEFAULT_NOTIFY_MODE
        mode = next((m for m in NOTIFY_MODES if m == stored), DEFAULT_NOTIFY_MODE)
        self._cache[user_id] = mode
        return mode

    async def set(self, user_id: int, mode: NotifyMode) -> None:
        if self.storage is not None:
            await self.storage.set_user_setting(user_id, NOTIFY_KEY, mode)
        self._cache[user_id] = mode
