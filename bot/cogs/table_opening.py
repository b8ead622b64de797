"""Opening a table, as ``/durak new`` does it and as the Activity's lobby form asks for it: the
lobby service's new table, its language, its first AI seats, and its public lobby message.

The Activity (bot/activity/open_table.py) has no interaction to answer: the lobby message is
posted in the instance's channel over REST, like a table's other messages. Posting it is the
last step; if Discord refuses (the bot may not write there), the table is closed again and the
browser is told so.
"""

from __future__ import annotations

import logging

import discord

from bot.tables.open_request import OpenRequest
from bot.tables.refusals import Refusal, Rejected
from bot.tables.table import Table
from bot.ui.lobby import ai_seat_name, render_lobby
from durak_core import RulesError, RuleSet
from durak_core.ai import Level

from .client import DurakClient
from .guild_settings import load_guild_settings
from .new_table import NewTable

log = logging.getLogger(__name__)


def avatar_hash(user: discord.abc.User) -> str | None:
    """The user's own avatar hash (not a server avatar): what the Activity's seat shows."""
    return user.avatar.key if user.avatar is not None else None


async def add_ai(bot: DurakClient, table: Table, user_id: int, level: Level) -> None:
    await bot.service.lobby.add_ai(table, user_id, level, ai_seat_name(table, level))


async def open_table(
    bot: DurakClient,
    asked: NewTable,
    rules: RuleSet,
    *,
    guild_id: int,
    channel_id: int,
    host: tuple[int, str, str | None],
    public: str,
    thread_id: int | None = None,
) -> Table:
    """The lobby service's new table for ``asked`` (``host``: user id, name, avatar hash), with
    its public language and first AI seats; raises the service's refusals (a table is open)."""
    table = await bot.service.lobby.create(
        guild_id=guild_id,
        channel_id=channel_id,
        host=host,
        rules=rules,
        max_seats=asked.seats,
        turn_timer=asked.timer,
        thread_id=thread_id,
    )
    table.language = public
    table.anyone_adds_ai = asked.anyone_adds_ai
    table.practice = asked.practice
    for _ in range(asked.ai_count):
        await add_ai(bot, table, table.host_id, asked.level)
    return table


async def lobby_posted(bot: DurakClient, table: Table, message_id: int, version: int) -> None:
    """The lobby message is out: remember it (saved), and that it shows ``version``."""
    table.lobby_message_id = message_id
    await bot.service.save_locked(table)
    bot.notifier.shown(table, version)


class ActivityTables:
    """The Activity's "open a table" (``bot.activity.open_table.TableOpener``)."""

    def __init__(self, bot: DurakClient) -> None:
        self.bot = bot

    async def __call__(self, request: OpenRequest) -> Table:
        """``/durak new`` with the request's options, for its host, in its channel; raises
        :class:`Rejected` as the command would answer, with nothing changed."""
        r = request
        guild_id, channel_id = r.guild_id, r.channel_id
        if guild_id is None:
            raise Rejected(Refusal.GUILD_ONLY)
        bot = self.bot
        await load_guild_settings(bot, guild_id)
        asked = NewTable(
            r.preset, seats=r.seats, timer=r.timer, ai_seats=r.ai_seats, ai_level=r.ai_level,
            language=r.language, options=r.options,
        )  # fmt: skip
        try:
            rules = asked.rules()
        except RulesError as exc:
            raise Rejected(Refusal.BAD_RULES, {"reason": str(exc)}) from None
        guild = bot.get_guild(guild_id)
        public = asked.public_language(None if guild is None else guild.preferred_locale)
        table = await open_table(
            bot, asked, rules, guild_id=guild_id, channel_id=channel_id, host=r.host, public=public
        )
        version = table.version
        embed, view = render_lobby(table)
        channel = bot.get_partial_messageable(channel_id, guild_id=guild_id)
        try:
            message = await channel.send(embed=embed, view=view)
        except discord.HTTPException as exc:
            log.warning("could not post the lobby of %s in %s: %s", table.table_id, channel_id, exc)
            async with table.lock:  # as if it had never opened: gone from the channel
                await bot.service.core.close_table(table)
            raise Rejected(Refusal.CANNOT_POST) from None
        await lobby_posted(bot, table, message.id, version)
        return table
