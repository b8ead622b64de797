"""What anyone may look at: the standings and the export of a tournament, as the answers of
``/durak-tournament standings`` and ``export`` (their bodies; ``tournament_commands`` declares
them)."""

from __future__ import annotations

import discord

from bot.cogs.base import loc_of
from bot.text import t
from bot.text.names import shown_name
from bot.tournaments.logic import Format
from bot.tournaments.messages.tournament_export import export_data, export_files
from bot.tournaments.storage import TournamentRecord

from .tournament_client import TournamentClient


async def show_standings(
    client: TournamentClient, interaction: discord.Interaction, tr: TournamentRecord
) -> None:
    store = client.tournaments.store
    tid = tr.tournament_id
    embed, files = await client.event_host.standings(
        tr,
        await store.tournament_entrants(tid),
        await store.tournament_rounds(tid),
        await store.tournament_games(tid),
        loc_of(interaction),
    )
    await interaction.response.send_message(embed=embed, files=files, ephemeral=True)


async def send_export(
    client: TournamentClient, interaction: discord.Interaction, tr: TournamentRecord
) -> None:
    """The results as CSV and JSON, to the one who asks (anyone: they are public)."""
    store = client.tournaments.store
    tid = tr.tournament_id
    entrants = await store.tournament_entrants(tid)
    users = [tr.organiser_id, *(e.user_id for e in entrants)]
    names = await client.event_host.names(tr.guild_id, users)
    data = export_data(
        tr,
        entrants,
        await store.tournament_rounds(tid),
        await store.tournament_games(tid),
        await store.tournament_game_ids(tid),
        names,
    )
    files = export_files(data, tr.settings.format is not Format.SINGLE_ELIMINATION)
    text = t("tournament.ok.exported", loc_of(interaction), name=shown_name(tr.name))
    await interaction.response.send_message(text, files=files, ephemeral=True)
