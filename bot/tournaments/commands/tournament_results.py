"""The organiser's results of tables (``override`` and ``undo``): the bodies of the commands
that ``tournament_commands`` declares. A result may be replaced or taken back until the next
round is paired; after that the refusal says why (issue #47, "undo a result")."""

from __future__ import annotations

from typing import Protocol

import discord
from discord import app_commands

from bot.cogs.base import loc_of
from bot.tables.refusals import Rejected
from bot.text import t
from bot.text.names import shown_name
from bot.tournaments.logic import OverrideKind, ResultError
from bot.tournaments.messages.tournament_host import override_line
from bot.tournaments.storage import TournamentRecord

from .tournament_client import TournamentClient
from .tournament_pick import table_choices, table_number


class Organising(Protocol):
    """What these commands ask of the cog (``TournamentCommands``): the bot, and the
    tournament a command names (any open one, or one its user organises)."""

    bot: TournamentClient

    async def _current(
        self, interaction: discord.Interaction, wanted: str | None = None
    ) -> TournamentRecord: ...

    async def _organised(
        self, interaction: discord.Interaction, wanted: str | None = None
    ) -> TournamentRecord: ...


async def suggest_tables(
    cog: Organising, interaction: discord.Interaction, typed: str, *, recorded: bool
) -> list[app_commands.Choice[str]]:
    """The tables of the last round of the tournament the command names (``recorded``: only
    those with a result the organiser recorded)."""
    try:
        tr = await cog._current(interaction, interaction.namespace.tournament)
    except Rejected:
        return []
    store = cog.bot.tournaments.store
    rounds = await store.tournament_rounds(tr.tournament_id)
    entrants = await store.tournament_entrants(tr.tournament_id)
    names = await cog.bot.event_host.names(tr.guild_id, [e.user_id for e in entrants])
    return table_choices(rounds, names, typed, loc_of(interaction), recorded=recorded)


async def record_result(
    cog: Organising,
    interaction: discord.Interaction,
    table: str,
    winner: discord.User | None,
    forfeit: discord.User | None,
    tournament: str | None,
) -> None:
    """Issue #30 control 4: the organiser decides a table that went wrong (or replaces the
    result they recorded, until the next round is paired)."""
    tr = await cog._organised(interaction, tournament)
    if (winner is None) == (forfeit is None):
        raise ResultError("override_who", "name the winner or the one who forfeits")
    round_number, number = table_number(table)
    kind = OverrideKind.WINNER if winner is not None else OverrideKind.FORFEIT
    player = winner or forfeit
    assert player is not None
    await interaction.response.defer(ephemeral=True, thinking=True)
    tr, o, label, replaced = await cog.bot.tournaments.override(
        tr.tournament_id, number, kind, player.id, interaction.user.id, round_number
    )
    key = "tournament.ok.replaced" if replaced else "tournament.ok.overridden"
    text = override_line(key, loc_of(interaction), tr, o, label)
    await interaction.followup.send(text, ephemeral=True)


async def take_back(
    cog: Organising, interaction: discord.Interaction, table: str, tournament: str | None
) -> None:
    """The organiser takes back a table's recorded result (refused once the next round is
    paired)."""
    tr = await cog._organised(interaction, tournament)
    round_number, number = table_number(table)
    await interaction.response.defer(ephemeral=True, thinking=True)
    tr, rnd, label = await cog.bot.tournaments.undo_override(
        tr.tournament_id, number, interaction.user.id, round_number
    )
    text = t(
        "tournament.ok.undone", loc_of(interaction), name=shown_name(tr.name), round=rnd,
        table=label,
    )  # fmt: skip
    await interaction.followup.send(text, ephemeral=True)
