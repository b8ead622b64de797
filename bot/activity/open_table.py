"""A browser opens a table (docs/activity.md, "Opening a table"): ``/durak new``'s path, for the
session's user in the session's channel. Nothing of the frame names either.

The opener is the chat side's (``bot.cogs.table_opening.ActivityTables``, wired by the bot): the
same lobby service, the same checks and refusals, and the same public lobby message, posted in
the channel. Opening posts in the channel, so the user's place in the activity instance is
checked with Discord again first (a user who left it opens nothing).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

from bot.tables.open_request import OpenRequest

from .discord_api import DiscordApi
from .protocol import OpenTable
from .session_tokens import Session

if TYPE_CHECKING:
    from bot.tables.table import Table


#: Opens the table asked for, or raises the chat's ``Rejected``.
TableOpener = Callable[[OpenRequest], Awaitable["Table"]]


class LeftInstance(Exception):
    """The user is no longer in the activity instance (or it ended)."""


def blocks_new_table(table: Table) -> bool:
    """Whether ``table`` keeps its channel from another one, as ``Lobby.create`` decides (a
    finished game gives way; a tournament's table keeps its thread): checked before Discord
    is asked anything."""
    return table.active or table.match is not None


async def open_from_browser(
    opener: TableOpener, discord: DiscordApi, session: Session, frame: OpenTable
) -> Table:
    """The table ``frame`` asks for, opened for ``session``'s user in its channel. Raises
    :class:`LeftInstance`, ``DiscordRefused`` (Discord did not answer) or the opener's
    ``Rejected``."""
    instance = await discord.instance(session.instance_id)
    if session.user_id not in instance.users or instance.channel_id != session.channel_id:
        raise LeftInstance(session.instance_id)
    host = (session.user_id, session.name or str(session.user_id), session.avatar)
    options = frame.model_dump(exclude={"v", "type", "ref", "rules"})
    rules = tuple(frame.rules.items())  # by name, as /durak new's (durak_core.rules.OPTIONS)
    return await opener(
        OpenRequest(session.guild_id, session.channel_id, host, **options, options=rules)
    )
