"""The sign-up message's **Check in** button (issue #30, check-in): a DynamicItem, rebuilt from
its custom id alone, so it works after a restart. It lives beside the other items of
``bot.ui.buttons`` (which another change owns) and is registered with them by the bot."""

from __future__ import annotations

import re
from typing import Any, Protocol, Self

import discord

from bot.ui.buttons import FromCustomId

TEMPLATE = r"dkq:(?P<tournament>[0-9a-f]{8}):checkin"


class CheckInHandler(Protocol):
    async def on_check_in(self, interaction: discord.Interaction, tournament: str) -> None: ...


class CheckInButton(
    FromCustomId,
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=TEMPLATE,
):
    def __init__(self, tournament: str, *, label: str = "?") -> None:
        super().__init__(
            discord.ui.Button(
                label=label,
                style=discord.ButtonStyle.primary,
                custom_id=f"dkq:{tournament}:checkin",
            )
        )
        self.tournament = tournament

    @classmethod
    def from_match(cls, match: re.Match[str]) -> Self:
        return cls(match["tournament"])

    async def answer(self, interaction: discord.Interaction) -> None:
        found: CheckInHandler | None = getattr(interaction.client, "clicks", None)
        if found is None:  # the bot is starting: the cog is not there yet
            raise RuntimeError("no click handler")
        await found.on_check_in(interaction, self.tournament)


#: The tournament's items the bot registers besides ``bot.ui.buttons.DYNAMIC_ITEMS``.
TOURNAMENT_ITEMS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (CheckInButton,)


def is_tournament_item(custom_id: str) -> bool:
    return re.fullmatch(TEMPLATE, custom_id) is not None
