"""The server's and the user's switches (``/durak settings``), ``/durak help``, the owner's
``sync`` and ``status`` (owner or Manage Server)."""

from __future__ import annotations

import asyncio

import discord
from discord import app_commands

from bot.health import version
from bot.storage.preferences import NOTIFY_MODES
from bot.text import t
from bot.text.translator import ls
from bot.ui.help_text import help_text
from bot.ui.status_text import status_text, storage_megabytes

from .base import CogBase, loc_of
from .guild_settings import load_guild_settings, save_images_setting


class ServerCommands(CogBase):
    @app_commands.command(name=ls("name.settings"), description=ls("cmd.settings"))
    @app_commands.rename(images=ls("pname.images"), notify=ls("pname.notify"))
    @app_commands.describe(images=ls("opt.images"), notify=ls("opt.notify"))
    @app_commands.choices(
        notify=[app_commands.Choice(name=ls(f"notify.{m}"), value=m) for m in NOTIFY_MODES]
    )
    async def settings(
        self,
        interaction: discord.Interaction,
        images: bool | None = None,
        notify: str | None = None,
    ) -> None:
        """Per-guild switches (Manage Server) and the user's own turn notifications (anyone);
        without options, shows the current ones."""
        if interaction.guild_id is None:
            await self._say(interaction, "err.guild_only")
            return
        notifier = self.bot.notifier
        await load_guild_settings(self.bot, interaction.guild_id)
        if images is not None:
            if not interaction.permissions.manage_guild:
                await self._say(interaction, "err.manage_guild")
                return
            await save_images_setting(self.bot, interaction.guild_id, images)
        prefs = notifier.alerts.prefs
        if notify in NOTIFY_MODES:
            await prefs.set(interaction.user.id, notify)
        on = notifier.images_on(interaction.guild_id)
        loc = loc_of(interaction)
        lines = [
            t("settings.images_on" if on else "settings.images_off", loc),
            t(f"settings.notify_{await prefs.get(interaction.user.id)}", loc),
        ]
        await interaction.response.send_message("\n".join(lines), ephemeral=True)

    @app_commands.command(name=ls("name.help"), description=ls("cmd.help"))
    async def help(self, interaction: discord.Interaction) -> None:
        text = help_text(loc_of(interaction), activity_built=self.bot.activity_built)
        await interaction.response.send_message(text, ephemeral=True)

    @app_commands.command(name=ls("name.sync"), description=ls("cmd.sync"))
    async def sync(self, interaction: discord.Interaction) -> None:
        if not await self.bot.is_owner(interaction.user):
            await self._say(interaction, "err.owner_only")
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        synced = await self.bot.sync_commands(interaction.guild_id)
        text = t("ok.synced", loc_of(interaction), n=synced)
        await interaction.followup.send(text, ephemeral=True)

    @app_commands.command(name=ls("name.status"), description=ls("cmd.status"))
    async def status(self, interaction: discord.Interaction) -> None:
        """How the bot is doing, for the people who run it (docs/deploy.md, "Health")."""
        if not (interaction.permissions.manage_guild or await self.bot.is_owner(interaction.user)):
            await self._say(interaction, "err.status_denied")
            return
        size = await asyncio.to_thread(storage_megabytes, self.bot.settings.storage_url)
        text = status_text(
            self.bot.health,
            loc_of(interaction),
            statuses=[table.status for table in self.bot.service.registry],
            storage_mb=size,
            version=await asyncio.to_thread(version),
        )
        await interaction.response.send_message(text, ephemeral=True)
