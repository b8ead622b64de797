"""Opening a table and its lobby: ``/durak new``, ``join``, ``leave``, ``start``, ``cancel``,
``back``, and the lobby's buttons."""

from __future__ import annotations

from typing import Any, cast

import discord
from discord import app_commands

from bot.delivery.interaction_limits import answer_lost
from bot.domain import TableStatus
from bot.tables.refusals import Refusal, Rejected
from bot.tables.table import STAND_IN_LEVEL, Table
from bot.text import t
from bot.text.translator import ls
from bot.ui.buttons import LobbyOp
from bot.ui.lobby import render_lobby, render_lobby_done
from bot.ui.rules_text import reason_text
from durak_core import RulesError

from .base import CogBase, click, loc_of, log, parse_op
from .guild_settings import load_guild_settings
from .new_table import (
    LANGUAGE_CHOICES,
    LEVEL_CHOICES,
    NEW_OPTIONS,
    OPTION_FACTS,
    PRESET_CHOICES,
    NewTable,
    new_table_options,
)
from .table_opening import add_ai, avatar_hash, lobby_posted, open_table
from .variant_names import VariantsError, suggest, valid_names

#: The confirmation of each lobby operation done by a slash command.
OK_KEYS = {
    LobbyOp.JOIN: "ok.joined",
    LobbyOp.AI_REMOVE: "ok.ai_removed",
    LobbyOp.AI_OPEN: "ok.ai_open",
    LobbyOp.AI_HOST: "ok.ai_host",
    LobbyOp.LEAVE: "ok.left",
    LobbyOp.START: "ok.started",
    LobbyOp.CANCEL: "ok.cancelled",
    LobbyOp.AI_EASY: "ok.ai_added",
    LobbyOp.AI_NORMAL: "ok.ai_added",
    LobbyOp.AI_HARD: "ok.ai_added",
}


def _lobby_command(name: str, op: LobbyOp) -> Any:
    """``/durak <name>``: the lobby operation ``op`` on this channel's table."""

    async def command(self: LobbyCommands, interaction: discord.Interaction) -> None:
        await self._lobby_op(interaction, op)

    # discord.py takes a callback for a method (with ``self``) by its qualified name
    command.__qualname__ = f"LobbyCommands.{name}"
    return app_commands.command(name=ls(f"name.{name}"), description=ls(f"cmd.{name}"))(command)


async def _variant_choices(
    interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[str]]:
    """``variants`` while it is typed: its last piece completed, in the user's language."""
    return [app_commands.Choice(name=s, value=s) for s in suggest(current, loc_of(interaction))]


class LobbyCommands(CogBase):
    @app_commands.command(name=ls("name.new"), description=ls("cmd.new"))
    @app_commands.rename(**{name: ls(f"pname.{name}") for name in NEW_OPTIONS})
    @app_commands.describe(**{n: ls(f"opt.{n}", **OPTION_FACTS.get(n, {})) for n in NEW_OPTIONS})
    @app_commands.choices(preset=PRESET_CHOICES, language=LANGUAGE_CHOICES, ai_level=LEVEL_CHOICES)
    @app_commands.autocomplete(variants=_variant_choices)
    @new_table_options
    async def new(self, interaction: discord.Interaction, /, **answers: Any) -> None:
        try:
            asked = NewTable.asked(**answers)
        except VariantsError as exc:  # nothing is opened: the names it takes, to try again
            lang = loc_of(interaction)
            names = valid_names(lang)
            await self._say(interaction, exc.key, piece=exc.piece, other=exc.other, names=names)
            return
        await self._open_table(interaction, asked)

    async def _open_table(self, interaction: discord.Interaction, asked: NewTable) -> None:
        if interaction.guild_id is None or interaction.channel is None:
            await self._say(interaction, "err.guild_only")
            return
        await load_guild_settings(self.bot, interaction.guild_id)
        if await self._refer_to_existing(interaction):
            return
        cap = self.bot.settings.tables_per_user
        if self.bot.service.registry.hosted_by(interaction.user.id) >= cap:
            await self._say(interaction, "err.table_cap", count=cap)
            return
        try:
            rules = asked.rules()
        except RulesError as exc:
            reason = reason_text(str(exc), None, loc_of(interaction))
            await self._say(interaction, "err.bad_rules", reason=reason)
            return
        public = asked.public_language(interaction.guild_locale)
        channel, thread_id = await self._table_channel(interaction, asked.thread, public)
        user = interaction.user
        table = await open_table(
            self.bot,
            asked,
            rules,
            guild_id=interaction.guild_id,
            channel_id=thread_id or interaction.channel.id,
            host=(user.id, user.display_name, avatar_hash(user)),
            public=public,
            thread_id=thread_id,
        )
        await self._post_lobby(interaction, table, channel, thread_id)

    async def _refer_to_existing(self, interaction: discord.Interaction) -> bool:
        """If this channel has a table, answer with a link to it (True)."""
        existing = self._table_here(interaction)
        if existing is None or not existing.active:
            return False
        mid = existing.table_message_id or existing.lobby_message_id
        # The first /durak new may still be posting its lobby: link the channel meanwhile.
        link = f"https://discord.com/channels/{interaction.guild_id}/{existing.channel_id}"
        if mid is not None:
            link += f"/{mid}"
        await self._say(interaction, "err.table_exists_link", link=link)
        return True

    async def _table_channel(
        self, interaction: discord.Interaction, thread: bool, public: str
    ) -> tuple[discord.abc.Messageable, int | None]:
        """Where the table lives: a new public thread if asked for (and possible), else here."""
        here = cast(discord.abc.Messageable, interaction.channel)
        if not (thread and isinstance(interaction.channel, discord.TextChannel)):
            return here, None
        try:
            created = await interaction.channel.create_thread(
                name=t("table.thread", public, name=interaction.user.display_name)[:100],
                type=discord.ChannelType.public_thread,
            )
        except discord.HTTPException:
            log.warning("could not create a thread in %s", interaction.channel_id)
            return here, None
        return created, created.id

    async def _post_lobby(
        self,
        interaction: discord.Interaction,
        table: Table,
        channel: discord.abc.Messageable,
        thread_id: int | None,
    ) -> None:
        embed, view = render_lobby(table)
        version = table.version
        if thread_id is not None:
            message = await channel.send(embed=embed, view=view)
            await self._say(interaction, "ok.created", where=f"<#{thread_id}>")
        else:
            try:
                await interaction.response.send_message(embed=embed, view=view)
                message = await interaction.original_response()
            except discord.HTTPException as exc:
                if not answer_lost(exc):
                    raise
                # Past Discord's 3 seconds the answer is refused: the lobby is posted anyway.
                log.warning("/durak new answered too late; the lobby is posted as a message")
                message = await channel.send(embed=embed, view=view)
        await lobby_posted(self.bot, table, message.id, version)

    async def _lobby_op(self, interaction: discord.Interaction, op: LobbyOp) -> None:
        """join / leave / start / cancel from a slash command: answer, the lobby refreshes."""
        table = self._table_here(interaction)
        if table is None or not (table.active or table.status == TableStatus.FINISHED):
            await self._say(interaction, "err.no_table")
            return
        seat = table.seat_of(interaction.user.id)
        in_game = seat if table.status == TableStatus.RUNNING else None
        if op is LobbyOp.JOIN and in_game is not None and table.stand_in(in_game):
            await self._take_seat_back(interaction, table)  # as "I'm back": with the hand
            return
        await self._run_lobby_op(interaction, table, op)
        if op is LobbyOp.LEAVE and in_game is not None:  # an AI plays it now: how to come back
            level = t(f"level.{STAND_IN_LEVEL}", loc_of(interaction))
            await self._say(interaction, "ok.left_game", level=level)
            return
        await self._say(interaction, OK_KEYS[op])

    async def _run_lobby_op(
        self, interaction: discord.Interaction, table: Table, op: LobbyOp
    ) -> None:
        user = interaction.user
        lobby = self.bot.service.lobby
        level = op.ai_level
        if level is not None:
            await add_ai(self.bot, table, user.id, level)
        elif op is LobbyOp.JOIN:
            await lobby.join(table, user.id, user.display_name, avatar_hash(user))
        elif op is LobbyOp.LEAVE:
            await lobby.leave(table, user.id)
        elif op is LobbyOp.START:
            await lobby.start(table, user.id)
        elif op is LobbyOp.CANCEL:
            may = bool(interaction.permissions.manage_messages)
            await lobby.cancel(table, user.id, may_manage=may)
        elif op is LobbyOp.AI_REMOVE:
            await lobby.remove_ai(table, user.id)
        elif op in (LobbyOp.AI_OPEN, LobbyOp.AI_HOST):
            await lobby.set_anyone_adds_ai(table, user.id, op is LobbyOp.AI_OPEN)
        else:  # every op is handled above; a new one is refused until it is, never mapped
            raise Rejected(Refusal.FORGED)

    join = _lobby_command("join", LobbyOp.JOIN)
    leave = _lobby_command("leave", LobbyOp.LEAVE)
    start = _lobby_command("start", LobbyOp.START)
    cancel = _lobby_command("cancel", LobbyOp.CANCEL)

    @app_commands.command(name=ls("name.back"), description=ls("cmd.back"))
    async def back(self, interaction: discord.Interaction) -> None:
        table = await self._table_or_say(interaction)
        if table is not None:
            await self._take_seat_back(interaction, table)

    @click
    async def on_lobby_button(
        self, interaction: discord.Interaction, table_id: str, op: str
    ) -> None:
        table = self.bot.service.registry.get(table_id)
        if table is None or table.status != TableStatus.LOBBY:
            await self._say(interaction, "err.gone")
            return
        await self._run_lobby_op(interaction, table, parse_op(LobbyOp, op))
        version = table.version
        if table.status == TableStatus.LOBBY:
            embed, view = render_lobby(table)
        else:
            key = "lobby.started" if table.status == TableStatus.RUNNING else "lobby.cancelled"
            embed, view = render_lobby_done(table, key)
        await interaction.response.edit_message(embed=embed, view=view)
        if table.status == TableStatus.LOBBY:
            self.bot.notifier.shown(table, version)
