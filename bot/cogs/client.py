"""What the cog needs of the bot, as a protocol: the cog never imports ``bot.app`` (which adds
the cog), so the two do not import each other."""

from __future__ import annotations

from typing import Any, Protocol

import discord
from discord import app_commands

from bot.delivery.refresher import DiscordNotifier
from bot.health import Health
from bot.settings import Settings
from bot.tables.service import TableService


class DurakClient(Protocol):
    """What the cog needs of the bot (``bot.app.DurakBot``), so the cog does not import it
    (the tournament commands need more: ``bot.tournaments.commands.tournament_client``)."""

    @property
    def service(self) -> TableService: ...

    @property
    def notifier(self) -> DiscordNotifier: ...

    @property
    def activity_built(self) -> bool | None:
        """None when the Activity is off, else whether its browser client is built."""
        ...

    @property
    def health(self) -> Health: ...

    @property
    def settings(self) -> Settings: ...

    @property
    def tree(self) -> app_commands.CommandTree[Any]: ...

    async def is_owner(self, user: discord.abc.User, /) -> bool: ...

    def get_guild(self, id: int, /) -> discord.Guild | None: ...

    def get_partial_messageable(
        self, id: int, *, guild_id: int | None = None, type: discord.ChannelType | None = None
    ) -> discord.PartialMessageable: ...

    async def sync_commands(self, guild_id: int | None) -> int: ...
