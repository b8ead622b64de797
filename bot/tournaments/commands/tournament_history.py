"""``/durak-tournament history``: the server's tournaments, newest first, one line each."""

from __future__ import annotations

from collections.abc import Sequence

import discord

from bot.text import t
from bot.text.names import shown_name
from bot.tournaments.messages.tournament_signup import COLOUR
from bot.tournaments.storage import TournamentRecord


def history_embed(past: Sequence[TournamentRecord], loc: str) -> discord.Embed:
    embed = discord.Embed(title=t("tournament.history.title", loc), colour=COLOUR)
    lines = [
        t(
            "tournament.history.line",
            loc,
            name=shown_name(tr.name),
            state=t(f"tournament.state.{tr.status}", loc),
            when=f"<t:{int(tr.created_at.timestamp())}:d>",
        )
        for tr in past
    ]
    embed.description = "\n".join(lines)[:4096] or t("tournament.history.empty", loc)
    return embed
