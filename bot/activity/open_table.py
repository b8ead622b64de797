"""A browser opens a table (docs/activity.md, "Opening a table"): ``/durak new``'s path, for the
session's user in the session's channel. Nothing of the frame names either.

The opener is the chat side's (``bot.cogs.table_opening.ActivityTables``, wired by the bot): the
same lobby service, the same checks and refusals, and the same public lobby message, posted in
the channel. Opening posts in the channel, so the user's place in the activity instance is
checked with Discord again first (a user who left it opens nothing).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from .discord_api import DiscordApi
from .protocol import OpenTable
from .session_tokens import Session

if TYPE_CHECKING:
    from bot.tables.table import Table


class TableOpener(Protocol):
    async def __call__(
        self,
        *,
        guild_id: int | None,
        channel_id: int,
        user: tuple[int, str, str | None],
        preset: str,
        seats: int,
        timer: int | None,
        ai_seats: int,
        ai_level: str,
        language: str | None,
    ) -> Table:
        """Open the table (``user``: id, name, avatar hash) or raise the chat's ``Rejected``."""
        ...


class LeftInstance(Exception):
    """The user is no longer in the activity instance (or it ended)."""


async def open_from_browser(
    opener: TableOpener, discord: DiscordApi, session: Session, frame: OpenTable
) -> Table:
    """The table ``frame`` asks for, opened for ``session``'s user in its channel. Raises
    :class:`LeftInstance`, ``DiscordRefused`` (Discord did not answer) or the opener's
    ``Rejected``."""
    instance = await discord.instance(session.instance_id)
    if session.user_id not in instance.users or instance.channel_id != session.channel_id:
        raise LeftInstance(session.instance_id)
    return await opener(
        guild_id=session.guild_id,
        channel_id=session.channel_id,
        user=(session.user_id, session.name or str(session.user_id), session.avatar),
        preset=frame.preset,
        seats=frame.seats,
        timer=frame.timer,
        ai_seats=frame.ai_seats,
        ai_level=frame.ai_level,
        language=frame.language,
    )
