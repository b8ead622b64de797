"""What the games left behind: ``/durak leaderboard`` (and its page buttons), ``stats`` (with
the daily puzzles' streak), ``history`` and ``verify`` (a finished game recomputed from its
revealed seed, R4)."""

from __future__ import annotations

from typing import cast

import discord
from discord import app_commands

from bot.storage import GameNotFound, GameRecord, LeaderboardQuery, LeaderboardSort
from bot.storage.puzzle_queries import day_of
from bot.tables.records import game_log
from bot.text import t
from bot.text.names import shown_name
from bot.text.translator import ls
from bot.ui.leaderboard import render_board, render_history, render_stats
from durak_core.verify import GameLog, Verdict, verify_game

from .base import CogBase, click, loc_of

SORTS = ("wins", "win_rate", "rating")


class RecordsCommands(CogBase):
    @app_commands.command(name=ls("name.leaderboard"), description=ls("cmd.leaderboard"))
    @app_commands.rename(sort=ls("pname.sort"))
    @app_commands.describe(sort=ls("opt.sort"))
    @app_commands.choices(sort=[app_commands.Choice(name=ls(f"sort.{s}"), value=s) for s in SORTS])
    async def leaderboard(self, interaction: discord.Interaction, sort: str = "wins") -> None:
        await self._board(interaction, sort, 1, edit=False)

    @click
    async def on_board_page(self, interaction: discord.Interaction, sort: str, page: int) -> None:
        await self._board(interaction, sort, page, edit=True)

    async def _board(
        self, interaction: discord.Interaction, sort: str, page: int, *, edit: bool
    ) -> None:
        if interaction.guild_id is None:
            await self._say(interaction, "err.guild_only")
            return
        query = LeaderboardQuery(interaction.guild_id, cast(LeaderboardSort, sort), max(page, 1))
        board = await self.bot.service.storage.leaderboard(query)
        embed, view = render_board(board, sort, loc_of(interaction))
        if edit:
            await interaction.response.edit_message(embed=embed, view=view)
        else:
            await interaction.response.send_message(embed=embed, view=view, ephemeral=True)

    @app_commands.command(name=ls("name.stats"), description=ls("cmd.stats"))
    @app_commands.rename(user=ls("pname.user"))
    @app_commands.describe(user=ls("opt.user"))
    async def stats(
        self, interaction: discord.Interaction, user: discord.User | None = None
    ) -> None:
        who = user or interaction.user
        stats = await self.bot.service.storage.user_stats(who.id, interaction.guild_id)
        name = shown_name(stats.display_name or who.display_name)
        loc = loc_of(interaction)
        embed = render_stats(stats, name, loc)
        # The daily puzzles' streak (/durak puzzle daily), across servers, as of today (UTC).
        today = day_of(self.bot.service.core.clock())
        streak = await self.bot.service.storage.puzzle_streak(who.id, today)
        value = t("stats.puzzle_streak_value", loc, n=streak.current, best=streak.best,
                  solved=streak.solved)  # fmt: skip
        embed.add_field(name=t("stats.puzzle_streak", loc), value=value)
        await interaction.response.send_message(embed=embed, ephemeral=True)

    @app_commands.command(name=ls("name.history"), description=ls("cmd.history"))
    async def history(self, interaction: discord.Interaction) -> None:
        if interaction.guild_id is None or interaction.channel_id is None:
            await self._say(interaction, "err.guild_only")
            return
        games = await self.bot.service.storage.channel_history(
            interaction.guild_id, interaction.channel_id
        )
        await interaction.response.send_message(
            embed=render_history(games, loc_of(interaction)), ephemeral=True
        )

    @app_commands.command(name=ls("name.verify"), description=ls("cmd.verify"))
    @app_commands.rename(game=ls("pname.game"))
    @app_commands.describe(game=ls("opt.game"))
    async def verify(
        self, interaction: discord.Interaction, game: app_commands.Range[str, 1, 100]
    ) -> None:
        """Recompute a finished game from its revealed seed and replay its log (R4)."""
        game_id = game.strip().strip("`")
        try:
            record = await self.bot.service.storage.get_game(game_id)
        except GameNotFound:
            await self._say(interaction, "verify.not_found", id=game_id)
            return
        verdict = await self._verdict(record)
        await interaction.response.send_message(
            embed=verdict_embed(record, verdict, loc_of(interaction)), ephemeral=True
        )

    async def _verdict(self, record: GameRecord) -> Verdict:
        storage = self.bot.service.storage
        earlier: list[GameLog] = []
        for number in range(1, record.game_number):  # R22: earlier games fix the dealer
            try:
                earlier.append(game_log(await storage.get_game(f"{record.series_id}.{number}")))
            except GameNotFound:
                return Verdict(False, "earlier", {"n": number})
        return verify_game(game_log(record), earlier)


def verdict_embed(record: GameRecord, verdict: Verdict, loc: str) -> discord.Embed:
    embed = discord.Embed(
        title=t("verify.title", loc, id=record.game_id),
        colour=0x2E7D32 if verdict.ok else 0xC62828,
    )
    if verdict.ok:
        embed.description = t("verify.ok", loc, n=verdict.moves)
    else:
        reason = t(f"verify.r.{verdict.reason}", loc, **verdict.detail)
        embed.description = t("verify.fail", loc, reason=reason)
    embed.add_field(name=t("verify.commitment", loc), value=f"`{record.seed_commitment}`")
    embed.add_field(name=t("verify.seed", loc), value=f"`{record.seed}`", inline=False)
    return embed
