"""Playing at a table: ``/durak hand`` and ``rules``, the table message's buttons, and the
hand's buttons and select menus. A click becomes an engine action that the table re-checks
under its lock; nothing here decides legality."""

from __future__ import annotations

import discord
from discord import app_commands

from bot.tables.refusals import Refusal, Rejected
from bot.tables.table import Table
from bot.tables.timers import expiries_before_ai
from bot.text import t
from bot.text.translator import ls
from bot.ui.buttons import TableOp
from bot.ui.hand_view import AUTO_PASS_OFF, AUTO_PASS_ON, HINT
from bot.ui.rules_text import rules_text
from durak_core import Action, Card
from durak_core.cards import NUM_CARD_IDS
from durak_core.errors import ActionNotationError

from .base import CogBase, click, hand_click, loc_of, parse_op


class PlayCommands(CogBase):
    @app_commands.command(name=ls("name.hand"), description=ls("cmd.hand"))
    async def hand(self, interaction: discord.Interaction) -> None:
        table = await self._table_or_say(interaction)
        if table is not None:
            await self._send_hand(interaction, table)

    @app_commands.command(name=ls("name.rules"), description=ls("cmd.rules"))
    async def rules(self, interaction: discord.Interaction) -> None:
        table = await self._table_or_say(interaction)
        if table is not None:
            await self._send_rules(interaction, table)

    async def _send_rules(self, interaction: discord.Interaction, table: Table) -> None:
        loc = loc_of(interaction)
        embed = discord.Embed(
            title=t("rules.title", loc),
            description=rules_text(table.rules, table.turn_timer, loc, expiries_before_ai(table)),
        )
        await interaction.response.send_message(embed=embed, ephemeral=True)

    @click
    async def on_table_button(
        self, interaction: discord.Interaction, table_id: str, op: str
    ) -> None:
        table = self.bot.service.registry.get(table_id)
        if table is None:
            await self._say(interaction, "err.gone")
            return
        match parse_op(TableOp, op):
            case TableOp.RULES:
                await self._send_rules(interaction, table)
            case TableOp.HAND:
                await self._send_hand(interaction, table)
            case TableOp.PLAY:  # the Activity opens in this channel, on its table
                if self.bot.activity_built:
                    await interaction.response.launch_activity()
                else:  # a button from before the Activity was turned off
                    await self._say(interaction, "activity.not_built")
            case TableOp.BACK:  # a player takes the seat back from the AI
                await self._take_seat_back(interaction, table)
            case TableOp.REMATCH:
                await self.bot.service.lobby.rematch(table, interaction.user.id)
                await self._send_hand(interaction, table)

    @hand_click
    async def on_hand_select(
        self, interaction: discord.Interaction, table_id: str, seat: int, version: int, value: str
    ) -> None:
        """A menu's choice: the click of the action code it offers."""
        if not value.isdigit() or len(value) > 5:
            raise Rejected(Refusal.FORGED)
        await self.on_hand_click(interaction, table_id, seat, version, value)

    @hand_click
    async def on_hand_click(
        self, interaction: discord.Interaction, table_id: str, seat: int, version: int, code: str
    ) -> None:
        table = await self._checked_table(interaction, table_id, seat)
        if table is None:
            return
        if code in (AUTO_PASS_ON, AUTO_PASS_OFF):  # "done for this bout", or taking it back
            await self.bot.service.play.set_auto_pass(
                table, seat, code == AUTO_PASS_ON, seen=version, user_id=interaction.user.id
            )
            await self._show_hand(interaction, table, seat)
        elif code == HINT:
            await self._hint(interaction, table, seat, version)
        elif code.startswith("a"):  # aim at an open attack card: a view change, not an action
            index = int(code[1:])
            if index >= NUM_CARD_IDS:
                raise Rejected(Refusal.FORGED)
            await self._show_hand(interaction, table, seat, focus=Card.from_index(index))
        else:
            await self._act(interaction, table, seat, version, code)

    async def _checked_table(
        self, interaction: discord.Interaction, table_id: str, seat: int
    ) -> Table | None:
        table = self.bot.service.registry.get(table_id)
        if table is None or table.state is None:
            await self._say(interaction, "err.gone")
            return None
        mine = table.seat_of(interaction.user.id)
        if mine is None:
            raise Rejected(Refusal.NOT_SEATED)
        if mine != seat:
            raise Rejected(Refusal.NOT_YOUR_SEAT)
        return table

    async def _act(
        self, interaction: discord.Interaction, table: Table, seat: int, seen: int, code: str
    ) -> None:
        """``seen``: the version of the hand clicked (``Play.act``)."""
        try:
            action = Action.from_code(int(code))
        except ActionNotationError:
            raise Rejected(Refusal.FORGED) from None
        await self.bot.service.play.act(
            table, seat, action, version=None, seen=seen, user_id=interaction.user.id
        )
        await self._show_hand(interaction, table, seat)
