"""A practice table's "Hint" button on a hand: Hard's suggestion, computed like a reviewed
decision (``durak_core.coach.hint``) in the reviews' workers, answered in words
(``bot.coach.ui.hint_text``). The hand's click handler (``bot.cogs.play_commands``) hands the
click here through ``CogBase._hint``."""

from __future__ import annotations

import discord

from bot.coach.reviews import review_seed
from bot.coach.ui.hint_text import hint_text
from bot.cogs.base import CogBase, loc_of
from bot.tables.refusals import Refusal, Rejected
from bot.tables.table import Table
from bot.text import t
from durak_core import visible_to

from .coach_client import CoachClient


class HintCommands(CogBase):
    bot: CoachClient

    async def _hint(
        self, interaction: discord.Interaction, table: Table, seat: int, seen: int
    ) -> None:
        """A practice table's "Hint": Hard's suggestion for the hand clicked, from the seat's
        view and the events it saw, in the reviews' worker; answered ephemerally."""
        if not table.practice:
            raise Rejected(Refusal.FORGED)
        loc = loc_of(interaction)
        if seen != table.version:  # the game moved on: the fresh hand, to ask again from
            await self._show_hand(interaction, table, seat, notice=t("hint.stale", loc))
            return
        view = table.seat_view(seat)
        if len(view.legal_actions) < 2:
            await self._say(interaction, "hint.no_choice")
            return
        history = visible_to(table.events, seat)
        await interaction.response.defer(ephemeral=True, thinking=True)
        seed = review_seed(f"{table.table_id}.{table.series_number}")
        hand = (table.table_id, seat, table.version)
        found = await self.bot.reviews.hint(hand, view, history, seed)
        await interaction.followup.send(hint_text(found, loc), ephemeral=True)
