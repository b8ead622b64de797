"""Names that come from Discord (display names, tournament names), as text in a message.

The one place they are neutralised: a member named ``@everyone``, ``<@123>`` or ``**boss**`` is
shown as typed, never pinging, turning into a mention pill or formatting the message around
it. Pictures draw names raw; this is for message text (content, embeds, components).
"""

from __future__ import annotations

from collections.abc import Sequence

import discord

#: After every "@": Discord then parses neither @everyone/@here nor <@id>/<@&id> there.
_DEFUSE = "@\u200b"


def shown_name(name: str) -> str:
    """``name`` as message text shows it as typed.

    >>> shown_name("@everyone")
    '@\\u200beveryone'
    >>> shown_name("<@123> **x**")
    '<@\\u200b123> \\\\*\\\\*x\\\\*\\\\*'
    """
    return discord.utils.escape_markdown(name).replace("@", _DEFUSE)


def shown_names(names: Sequence[str]) -> tuple[str, ...]:
    return tuple(shown_name(n) for n in names)
