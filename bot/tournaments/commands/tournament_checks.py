"""What a tournament needs of its channel, checked when it is created and when it starts: a
text channel (its tables open in threads under it, and Discord has no threads in threads) and
the bot's permissions there to open those threads and write in them; and the warning for a
field its tables do not hold well."""

from __future__ import annotations

import discord

from bot.tables.refusals import Refusal, Rejected
from bot.text import t
from bot.tournaments.logic import SeatingFit

#: The bot's permissions a tournament's channel must grant, by their ``discord.Permissions``
#: names (their catalogue names: ``tournament.permission.<name>``).
NEEDED = ("create_public_threads", "send_messages_in_threads")
TEXT_CHANNELS = (discord.ChannelType.text, discord.ChannelType.news)


def check_opener(interaction: discord.Interaction, loc: str) -> tuple[int, int]:
    """The guild and channel a new tournament opens in; raises ``Rejected`` unless this member
    may open one there (Manage Events) and the channel can hold it."""
    if interaction.guild_id is None or interaction.channel_id is None:
        raise Rejected(Refusal.GUILD_ONLY)
    if not interaction.permissions.manage_events:
        raise Rejected(Refusal.TOURNAMENT_DENIED)
    check_channel(interaction, loc)
    return interaction.guild_id, interaction.channel_id


def check_channel(interaction: discord.Interaction, loc: str) -> None:
    """Raise ``Rejected`` unless the tournament can run in the interaction's channel."""
    channel = interaction.channel
    if channel is None or channel.type not in TEXT_CHANNELS:
        raise Rejected(Refusal.TOURNAMENT_CHANNEL)
    perms = interaction.app_permissions
    missing = [name for name in NEEDED if not getattr(perms, name)]
    if missing:
        names = ", ".join(t(f"tournament.permission.{name}", loc) for name in missing)
        raise Rejected(Refusal.TOURNAMENT_PERMISSIONS, {"permissions": names})


def fit_warning(fit: SeatingFit, entrants: int, size: int, loc: str) -> str:
    """The warning for a field its tables do not hold well, and what would."""
    if fit.better_size is None:
        return t("tournament.warn.byes", loc, n=entrants, size=size, byes=fit.byes)
    return t(
        "tournament.warn.byes_size",
        loc,
        n=entrants,
        size=size,
        byes=fit.byes,
        better=fit.better_size,
    )
