"""The ``/durak`` group: one cog assembled from its parts (lobby, play, records, server and
review, in ``bot.cogs``; tournament, in ``bot.tournaments.commands``), with one answer for every
failing command (``CogBase._failed``, which the tournament commands extend). Assembled here,
above both, so that neither imports the other's package.

Nothing here decides legality: clicks become engine actions that the table re-checks under its
lock; answers are rendered from views.
"""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.cogs.lobby_commands import LobbyCommands
from bot.cogs.play_commands import PlayCommands
from bot.cogs.puzzle_commands import PuzzleCommands
from bot.cogs.records_commands import RecordsCommands
from bot.cogs.review_commands import ReviewCommands
from bot.cogs.server_commands import ServerCommands
from bot.text.translator import DurakTranslator, ls
from bot.tournaments.commands.tournament_client import TournamentClient
from bot.tournaments.commands.tournament_commands import TournamentCommands


@app_commands.guild_only()
class DurakCog(  # listed base first: lobby, play, records, puzzle, server, tournament, review
    ReviewCommands,
    TournamentCommands,
    ServerCommands,
    PuzzleCommands,
    RecordsCommands,
    PlayCommands,
    LobbyCommands,
    commands.GroupCog,
    group_name=ls("name.durak"),
    group_description=ls("cmd.group"),
):
    bot: TournamentClient  # what every part needs of the bot, the tournament commands' too

    def __init__(self, bot: TournamentClient) -> None:
        self.bot = bot
        super().__init__()

    async def cog_load(self) -> None:
        # Before any sync: command names and descriptions go out in every catalogue language.
        await self.bot.tree.set_translator(DurakTranslator())

    async def cog_app_command_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError
    ) -> None:
        """Every slash command's failure gets an answer (refusals and failures alike)."""
        cause = error.original if isinstance(error, app_commands.CommandInvokeError) else error
        await self._failed(interaction, cause)
