"""``/durak review [game]`` and the finished table's "Review" button: a player's own decisions
in a finished game, reviewed by Hard's search (docs/ai.md, "Reading a review"), ephemeral.

The review runs in its own worker process (:mod:`bot.coach.reviews`); meanwhile the answer
shows its progress, edited at most every :data:`PROGRESS_EDIT_SECONDS`.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging

import discord
from discord import app_commands

from bot.coach.ui.review_text import progress_text, review_embed
from bot.cogs.base import CogBase, click, loc_of
from bot.storage import GameNotFound, GameRecord
from bot.text import t
from bot.text.translator import ls
from durak_core.coach.review_game import BadRecord, GameReview

from .coach_client import CoachClient

log = logging.getLogger("bot.cogs.durak")

#: The least time between two edits of the progress line (Discord allows 5 edits in 5 s).
PROGRESS_EDIT_SECONDS = 2.0
#: Recent games of the channel searched for the user's latest one.
RECENT_GAMES = 25


class ReviewCommands(CogBase):
    bot: CoachClient

    @app_commands.command(name=ls("name.review"), description=ls("cmd.review"))
    @app_commands.rename(game=ls("pname.game"))
    @app_commands.describe(game=ls("opt.review_game"))
    async def review(
        self, interaction: discord.Interaction, game: app_commands.Range[str, 1, 100] | None = None
    ) -> None:
        game_id = game.strip().strip("`") if game else await self._latest_game(interaction)
        if game_id is not None:
            await self._review(interaction, game_id)

    @click
    async def on_review_button(self, interaction: discord.Interaction, game: str) -> None:
        await self._review(interaction, game)

    async def _latest_game(self, interaction: discord.Interaction) -> str | None:
        """The user's most recent finished game in this channel (None after saying so)."""
        if interaction.guild_id is None or interaction.channel_id is None:
            await self._say(interaction, "err.guild_only")
            return None
        games = await self.bot.service.storage.channel_history(
            interaction.guild_id, interaction.channel_id, RECENT_GAMES
        )
        user = interaction.user.id
        for g in games:
            if any(s.user_id == user for s in g.seats):
                return g.game_id
        await self._say(interaction, "review.no_recent")
        return None

    async def _review(self, interaction: discord.Interaction, game_id: str) -> None:
        storage = self.bot.service.storage
        loc = loc_of(interaction)
        try:
            record = await storage.get_game(game_id)
        except GameNotFound:
            await self._say(interaction, "verify.not_found", id=game_id)
            return
        seat = next((s.seat for s in record.seats if s.user_id == interaction.user.id), None)
        if seat is None:
            await self._say(interaction, "review.not_yours", id=game_id)
            return
        reviews = self.bot.reviews
        done = reviews.cached(game_id, seat)
        if done is not None:
            embed, files = await asyncio.to_thread(review_embed, game_id, done, loc)
            await interaction.response.send_message(embed=embed, files=files, ephemeral=True)
            return
        earlier = await self._earlier(interaction, record)
        if earlier is None:
            return
        await interaction.response.send_message(
            progress_text(game_id, 0, None, loc), ephemeral=True
        )
        review = await self._run(interaction, record, earlier, seat, loc)
        if review is None:
            return
        embed, files = await asyncio.to_thread(review_embed, game_id, review, loc)
        await interaction.edit_original_response(content=None, embed=embed, attachments=files)

    async def _earlier(
        self, interaction: discord.Interaction, record: GameRecord
    ) -> list[GameRecord] | None:
        """The series' games before ``record`` (R22: they fix its dealer); None after saying
        which one is missing."""
        out = []
        for number in range(1, record.game_number):
            try:
                out.append(await self.bot.service.storage.get_game(f"{record.series_id}.{number}"))
            except GameNotFound:
                await self._say(interaction, "review.missing_earlier", id=record.game_id, n=number)
                return None
        return out

    async def _run(
        self,
        interaction: discord.Interaction,
        record: GameRecord,
        earlier: list[GameRecord],
        seat: int,
        loc: str,
    ) -> GameReview | None:
        loop = asyncio.get_running_loop()
        last = loop.time()

        async def progress(done: int, total: int) -> None:
            nonlocal last
            now = loop.time()
            if now - last < PROGRESS_EDIT_SECONDS or done == total:
                return  # bounded edits; the last one is the review itself
            last = now
            text = progress_text(record.game_id, done, total, loc)
            # A missed progress line is no loss: the next one, or the review, follows.
            with contextlib.suppress(discord.HTTPException):
                await interaction.edit_original_response(content=text)

        try:
            return await self.bot.reviews.review(record, earlier, seat, progress)
        except BadRecord:
            text = t("review.bad_record", loc, id=record.game_id)
        except Exception:
            # Said in the progress line itself, which would otherwise wait forever.
            error_id = self.bot.health.new_error_id()
            log.exception("review of %s failed (error id %s)", record.game_id, error_id)
            text = t("err.internal_id", loc, id=error_id)
        await interaction.edit_original_response(content=text)
        return None
