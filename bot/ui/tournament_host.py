"""The Discord side of the tournament runner (:class:`~bot.events.host.EventHost`): a thread per
table, the ping, who is still in the server, and the public sign-up and standings messages,
refreshed in place, within the channel's write pacing and the process's request budget."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Sequence
from typing import Final

import discord

from bot.events.options import TableOptions
from bot.storage import (
    EntrantRecord,
    PairedTable,
    Storage,
    StoredRound,
    TournamentRecord,
    TournamentStatus,
)
from bot.text import t
from bot.tournaments import PlayedGame

from .channel_limits import ChannelLimiter
from .tournament_board import standings_board
from .tournament_signup import mention, signup_message

log = logging.getLogger(__name__)

#: Threads of a round's tables archive after a day without messages (Discord's choices).
THREAD_ARCHIVE_MINUTES: Final = 1440


class DiscordEventHost:
    def __init__(self, client: discord.Client, limits: ChannelLimiter, storage: Storage) -> None:
        self.client = client
        self.limits = limits
        self.storage = storage
        #: Display names seen (sign-ups, member look-ups): a table seats players by name.
        self.known: dict[int, str] = {}
        self._wanted: set[str] = set()
        self._tasks: dict[str, asyncio.Task[None]] = {}

    # -- threads and pings ------------------------------------------------------------------

    async def open_thread(self, tr: TournamentRecord, round: int, table: int) -> int | None:
        channel = self.client.get_channel(tr.channel_id)
        if not isinstance(channel, discord.TextChannel):
            log.warning("tournament %s: channel %s is not a text channel", tr.tournament_id,
                        tr.channel_id)  # fmt: skip
            return None
        lang = TableOptions.of(tr.options).language
        name = t("tournament.thread", lang, name=tr.name, round=round, table=table)[:100]
        try:
            async with self.limits.write(tr.channel_id, "post"):
                thread = await channel.create_thread(
                    name=name,
                    type=discord.ChannelType.public_thread,
                    auto_archive_duration=THREAD_ARCHIVE_MINUTES,
                )
        except discord.HTTPException:
            log.exception("tournament %s: could not create a thread", tr.tournament_id)
            return None
        return thread.id

    async def welcome(
        self, tr: TournamentRecord, thread_id: int, round: int, table: PairedTable
    ) -> None:
        players = [p for p in table.seats if p is not None]
        if not players:
            return
        lang = TableOptions.of(tr.options).language
        text = t(
            "tournament.ping",
            lang,
            players=" ".join(mention(p, lang) for p in players),
            name=tr.name,
            round=round,
        )
        channel = self.client.get_partial_messageable(thread_id)
        with contextlib.suppress(discord.HTTPException):
            async with self.limits.write(thread_id, "post"):
                await channel.send(
                    text[:2000], allowed_mentions=discord.AllowedMentions(users=True)
                )

    # -- members ----------------------------------------------------------------------------

    async def present(self, guild_id: int, users: Sequence[int]) -> set[int]:
        guild = self.client.get_guild(guild_id)
        if guild is None:
            return set(users)
        here: set[int] = set()
        for user in users:
            try:
                await self.limits.budget.acquire()
                member = await guild.fetch_member(user)
            except discord.NotFound:
                continue
            except discord.HTTPException:  # Discord unsure: keep them rather than drop them
                here.add(user)
                continue
            self.known[user] = member.display_name
            here.add(user)
        return here

    async def names(self, guild_id: int, users: Sequence[int]) -> dict[int, str]:
        missing = [u for u in users if u not in self.known]
        if missing:
            await self.present(guild_id, missing)
        return {u: self.known.get(u, str(u)) for u in users}

    # -- the public messages ----------------------------------------------------------------

    def changed(self, tournament_id: str) -> None:
        self._wanted.add(tournament_id)
        task = self._tasks.get(tournament_id)
        if task is None or task.done():
            self._tasks[tournament_id] = asyncio.create_task(
                self._refresh_while_wanted(tournament_id), name=f"durak-board-{tournament_id}"
            )

    async def _refresh_while_wanted(self, tournament_id: str) -> None:
        while tournament_id in self._wanted:
            self._wanted.discard(tournament_id)
            try:
                await self.refresh(tournament_id)
            except Exception:
                log.exception("tournament %s: could not refresh its messages", tournament_id)

    async def refresh(self, tournament_id: str) -> None:
        """Edit the sign-up message; post the standings message once the tournament runs, and
        edit it from then on."""
        storage = self.storage
        tr = await storage.get_tournament(tournament_id)
        entrants = await storage.tournament_entrants(tournament_id)
        lang = TableOptions.of(tr.options).language
        channel = self.client.get_partial_messageable(tr.channel_id)
        if tr.signup_message_id is not None:
            embed, view = signup_message(tr, entrants, lang)
            with contextlib.suppress(discord.HTTPException):
                async with self.limits.write(tr.channel_id, "edit"):
                    await channel.get_partial_message(tr.signup_message_id).edit(
                        embed=embed, view=view
                    )
        if tr.status is TournamentStatus.SIGNUP or (
            tr.status is TournamentStatus.CANCELLED and tr.standings_message_id is None
        ):
            return
        rounds = await storage.tournament_rounds(tournament_id)
        games = await storage.tournament_games(tournament_id)
        embed, files = standings_of(tr, entrants, rounds, games, lang)
        if tr.standings_message_id is None:
            async with self.limits.write(tr.channel_id, "post"):
                message = await channel.send(embed=embed, files=files)
            await storage.set_tournament_message(tournament_id, "standings", message.id)
            return
        with contextlib.suppress(discord.HTTPException):
            async with self.limits.write(tr.channel_id, "edit"):
                await channel.get_partial_message(tr.standings_message_id).edit(
                    embed=embed, attachments=files
                )

    async def close(self) -> None:
        for task in self._tasks.values():
            task.cancel()
        for task in self._tasks.values():
            with contextlib.suppress(BaseException):
                await task


def standings_of(
    tr: TournamentRecord,
    entrants: Sequence[EntrantRecord],
    rounds: Sequence[StoredRound],
    games: Sequence[PlayedGame],
    loc: str,
) -> tuple[discord.Embed, list[discord.File]]:
    """The standings message: the one place that chooses how it looks."""
    return standings_board(tr, entrants, rounds, games, loc), []
