"""The ``/durak`` and ``/durak-tournament`` commands: one cog assembled from its parts (lobby,
play, records and server, in ``bot.cogs``; review, puzzle and hint, in ``bot.coach.commands``;
tournament, in ``bot.tournaments.commands``),
with one answer for every failing command (``CogBase._failed``, which the tournament commands
extend). Assembled here, above both, so that none imports another's package.

Discord counts a slash command's size over its whole tree, at most 8,000 characters
(docs/bot.md, "What Discord accepts"): ``/durak`` with the tournament group inside was over it,
so the group is its own top-level command (:meth:`DurakCog.own_commands`), still served by this
one cog, whose click handlers and failure answers both share.

Nothing here decides legality: clicks become engine actions that the table re-checks under its
lock; answers are rendered from views.
"""

from __future__ import annotations

from typing import Protocol

import discord
from discord import app_commands
from discord.ext import commands

from bot.coach.commands.coach_client import CoachClient
from bot.coach.commands.hint_commands import HintCommands
from bot.coach.commands.puzzle_commands import PuzzleCommands
from bot.coach.commands.review_commands import ReviewCommands
from bot.cogs.lobby_commands import LobbyCommands
from bot.cogs.play_commands import PlayCommands
from bot.cogs.records_commands import RecordsCommands
from bot.cogs.server_commands import ServerCommands
from bot.text.translator import DurakTranslator, ls
from bot.tournaments.commands.tournament_client import TournamentClient
from bot.tournaments.commands.tournament_commands import TournamentCommands


class CogClient(TournamentClient, CoachClient, Protocol):
    """What the assembled cog needs of the bot: the tournament commands' and the coach's."""


@app_commands.guild_only()
class DurakCog(  # listed base first: lobby, play, records, puzzle, server, tournament, review, hint
    HintCommands,
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
    bot: CogClient  # what every part needs of the bot, the tournament commands' and coach's too

    def __init__(self, bot: CogClient) -> None:
        self.bot = bot
        super().__init__()

    async def cog_load(self) -> None:
        # Before any sync: command names and descriptions go out in every catalogue language.
        await self.bot.tree.set_translator(DurakTranslator())

    def own_commands(self) -> list[app_commands.Group]:
        """The groups that are top-level commands of their own besides ``/durak``: taken out of
        the cog's ``/durak`` group (a ``GroupCog`` nests every group it declares), bound to this
        cog as before, so their errors and checks stay the cog's. Add them to the tree after
        the cog."""
        durak = self.app_command
        assert durak is not None
        tournament = durak.get_command(TournamentCommands.tournament.name)
        assert isinstance(tournament, app_commands.Group)
        durak.remove_command(tournament.name)
        tournament.parent = None
        tournament.guild_only = durak.guild_only
        tournament.allowed_contexts = durak.allowed_contexts
        tournament.default_permissions = durak.default_permissions
        return [tournament]

    async def cog_app_command_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError
    ) -> None:
        """Every slash command's failure gets an answer (refusals and failures alike)."""
        cause = error.original if isinstance(error, app_commands.CommandInvokeError) else error
        await self._failed(interaction, cause)
