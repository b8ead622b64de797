"""What every part of the ``/durak`` cog shares: the bot it serves, answers in the user's
language, hand messages, and the one mapping of a failure to its answer (:meth:`_failed`),
used by slash commands (``cog_app_command_error``) and clicks (:func:`click`, :func:`hand_click`).
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Awaitable, Callable
from enum import StrEnum
from typing import Concatenate, ParamSpec, TypeVar

import discord
from discord.ext import commands

from bot.delivery.interaction_limits import answer_lost
from bot.delivery.message_writes import update_clicked_message
from bot.delivery.refresher import updates_until
from bot.domain import TableStatus
from bot.tables.refusals import Refusal, Rejected
from bot.tables.table import Table
from bot.text import language as lang_of
from bot.text import t
from bot.ui.hand_view import table_hand
from bot.ui.rules_text import refusal_text
from durak_core import Card

from .client import DurakClient
from .guild_settings import load_guild_settings

log = logging.getLogger("bot.cogs.durak")

#: Refusals of a hand click shown in the re-rendered hand itself (the hand is still current):
#: a click no longer legal, a Take on more cards than shown, or "done for this bout" out of
#: turn, twice, or taken back after it lapsed.
HAND_NOTICES = frozenset(
    {
        Refusal.STALE,
        Refusal.TAKE_GREW,
        Refusal.ILLEGAL,
        Refusal.NO_AUTO_PASS,
        Refusal.AUTO_PASS_SET,
        Refusal.AUTO_PASS_LAPSED,
    }
)


def loc_of(interaction: discord.Interaction) -> str:
    """The clicking user's language: every ephemeral answer follows it."""
    return lang_of(interaction.locale)


class CogBase(commands.Cog):
    """The parts of the cog are cogs only to type-check as such: ``DurakCog`` is the one added."""

    bot: DurakClient

    async def _say(self, interaction: discord.Interaction, key: str, **params: object) -> None:
        """An ephemeral line: the answer to anything refused, and short confirmations."""
        await _reply(interaction, t(key, loc_of(interaction), **params))

    def _table_here(self, interaction: discord.Interaction) -> Table | None:
        if interaction.channel_id is None:
            return None
        return self.bot.service.registry.in_channel(interaction.channel_id)

    async def _table_or_say(self, interaction: discord.Interaction) -> Table | None:
        """This channel's table, or None after telling the user there is none."""
        table = self._table_here(interaction)
        if table is None:
            await self._say(interaction, "err.no_table")
        return table

    # -- failures ---------------------------------------------------------------------------

    async def _failed(
        self, interaction: discord.Interaction, cause: BaseException, hand: HandRef | None = None
    ) -> None:
        """The answer to any failure: a refusal in the user's language — in the clicked hand
        itself when it is one of ``HAND_NOTICES`` — or "something went wrong" (logged) when
        storage or anything else failed. An answer Discord no longer takes (after its 3
        seconds, or its token's 15 minutes) is told to nobody: the player's hand catches up
        through the refresher, or the table message asks them to press "My hand"."""
        if answer_lost(cause):
            self._answer_lost(interaction, cause)
            return
        if not isinstance(cause, Rejected):
            name = getattr(interaction.command, "name", None) or "button"
            error_id = self.bot.health.new_error_id()  # the player's words find this line
            log.error("/durak %s failed (error id %s)", name, error_id, exc_info=cause)
            await self._say(interaction, "err.internal_id", id=error_id)
            return
        text = refusal_text(cause, loc_of(interaction))
        if hand is not None and cause.kind in HAND_NOTICES:
            table = self.bot.service.registry.get(hand.table_id)
            if table is not None and table.state is not None:
                await self._show_hand(interaction, table, hand.seat, notice=text)
                return
        await _reply(interaction, text)

    def _answer_lost(self, interaction: discord.Interaction, cause: BaseException) -> None:
        name = getattr(interaction.command, "name", None) or "button"
        log.warning("/durak %s: Discord no longer takes this answer (%s)", name, cause)
        table = self._table_here(interaction)
        seated = table is not None and table.seat_of(interaction.user.id) is not None
        if seated and table is not None and table.state is not None:
            self.bot.notifier.answer_lost(table, interaction.user.id)

    # -- hand messages ------------------------------------------------------------------------

    async def _hint(
        self, interaction: discord.Interaction, table: Table, seat: int, seen: int
    ) -> None:
        """A practice table's "Hint" clicked on the hand of version ``seen``: the coach's
        (``bot.coach.commands.hint_commands``), which the assembled cog puts before this."""
        raise NotImplementedError

    async def _take_seat_back(self, interaction: discord.Interaction, table: Table) -> None:
        """The owner of a seat an AI plays (after leaving, or idle) plays it again: `/durak
        back` or the table's "I'm back" button."""
        await self.bot.service.lobby.back(table, interaction.user.id)
        await self._send_hand(interaction, table)

    async def _send_hand(self, interaction: discord.Interaction, table: Table) -> None:
        seat = table.seat_of(interaction.user.id)
        if seat is None:
            raise Rejected(Refusal.NOT_SEATED)
        if table.state is None:
            lobby = table.status == TableStatus.LOBBY
            await self._say(interaction, "err.lobby_hand" if lobby else "err.not_running")
            return
        await load_guild_settings(self.bot, table.guild_id)
        await self._show_hand(interaction, table, seat)

    async def _show_hand(
        self,
        interaction: discord.Interaction,
        table: Table,
        seat: int,
        *,
        focus: Card | None = None,
        notice: str | None = None,
    ) -> None:
        """The hand of ``seat`` as the clicking user sees it (language, pictures, how long the
        message can still be refreshed): a hand click edits that hand message in place (type
        7); anything else gets a new ephemeral hand message."""
        hand = table_hand(
            table,
            seat,
            loc=loc_of(interaction),
            images=self.bot.notifier.images_on(table.guild_id),
            updates_until=updates_until(interaction),
            focus=focus,
            notice=notice,
        )
        message = interaction.message
        user = interaction.user.id
        if message is None or not message.flags.ephemeral:
            # A command, the table message's "hand" button, or a hand id forged onto a public
            # message: never turn that message into a hand.
            await interaction.response.send_message(
                content=hand.content,
                view=hand.view.as_view(),
                files=hand.files(),
                ephemeral=True,
            )
            answered: int | None = None
        else:
            # The clicked hand keeps its picture when it would be the same one again.
            shown = self.bot.notifier.shown_picture(table, user, message.id)
            await update_clicked_message(
                interaction, content=hand.content, view=hand.view, **hand.attachments(shown)
            )
            answered = message.id
        self.bot.notifier.remember(table, user, interaction, hand, focus=focus, message_id=answered)


async def _reply(interaction: discord.Interaction, text: str) -> None:
    """An ephemeral answer, or a follow-up when the interaction was answered already."""
    if interaction.response.is_done():
        await interaction.followup.send(text, ephemeral=True)
    else:
        await interaction.response.send_message(text, ephemeral=True)


class HandRef:
    """The hand a click came from: its table and seat (parsed from the custom id)."""

    __slots__ = ("seat", "table_id")

    def __init__(self, table_id: str, seat: int) -> None:
        self.table_id, self.seat = table_id, seat


C = TypeVar("C", bound=CogBase)
P = ParamSpec("P")
Handler = Callable[Concatenate[C, discord.Interaction, P], Awaitable[None]]


def click(method: Handler[C, P]) -> Handler[C, P]:
    """A component's handler: a refusal or failure gets the answer a slash command's gets."""

    @functools.wraps(method)
    async def handle(
        self: C, interaction: discord.Interaction, /, *args: P.args, **kwargs: P.kwargs
    ) -> None:
        try:
            await method(self, interaction, *args, **kwargs)
        except Exception as exc:
            await self._failed(interaction, exc)

    return handle


HandHandler = Callable[[C, discord.Interaction, str, int, int, str], Awaitable[None]]


def hand_click(method: HandHandler[C]) -> HandHandler[C]:
    """A hand component's handler (table, seat, version, value): as :func:`click`, and a
    stale or illegal click is answered in the hand itself."""

    @functools.wraps(method)
    async def handle(
        self: C, interaction: discord.Interaction, table_id: str, seat: int, version: int, v: str
    ) -> None:
        try:
            await method(self, interaction, table_id, seat, version, v)
        except Exception as exc:
            await self._failed(interaction, exc, HandRef(table_id, seat))

    return handle


E = TypeVar("E", bound=StrEnum)


def parse_op(kind: type[E], op: str) -> E:
    """A button's op; one that is not ours is refused, never taken for another."""
    try:
        return kind(op)
    except ValueError:
        raise Rejected(Refusal.FORGED) from None
