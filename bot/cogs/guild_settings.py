"""A guild's switches (storage table ``guild_settings``), cached in the notifier per process."""

from __future__ import annotations

import logging

from bot.storage import StorageError

from .client import DurakClient

log = logging.getLogger(__name__)


async def save_images_setting(bot: DurakClient, guild_id: int, on: bool) -> None:
    """Remember the guild's pictures switch."""
    bot.notifier.images[guild_id] = on
    await bot.service.storage.set_guild_setting(guild_id, "images", "on" if on else "off")


async def load_guild_settings(bot: DurakClient, guild_id: int | None) -> None:
    """Load a guild's switches once per process (the refresher reads the cached value)."""
    if guild_id is None or guild_id in bot.notifier.images:
        return
    try:
        stored = await bot.service.storage.guild_settings(guild_id)
    except StorageError:
        log.warning("could not load the settings of guild %s; using the defaults", guild_id)
        return
    bot.notifier.images[guild_id] = stored.get("images", "on") == "on"
