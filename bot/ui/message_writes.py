"""Edits of messages the bot keeps in step (table, lobby, hands), sent without building
discord.py's ``Message`` objects from the answers.

``PartialMessage.edit`` and ``Interaction.edit_original_response`` parse Discord's answer into
a full ``Message`` (author, embeds, components, attachments) and store the view for dispatch;
the refresher needs neither (its buttons are dynamic items, registered once, and only a hand's
message id is kept), and under load that parsing was a tenth of the bot's interpreter time
(docs/performance.md, "Bot under load"). The request itself is discord.py's: the same payload,
rate limits and errors (``discord.HTTPException``, ``discord.NotFound``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import discord
from discord.http import handle_message_parameters
from discord.utils import MISSING
from discord.webhook.async_ import async_context


async def edit_channel_message(
    client: discord.Client,
    channel_id: int,
    message_id: int,
    *,
    embed: discord.Embed | None = MISSING,
    view: discord.ui.View | None = MISSING,
    attachments: Sequence[discord.File] = MISSING,
) -> None:
    """Edit a message the bot posted in a channel (``PartialMessage.edit`` without its
    answer parsed)."""
    with handle_message_parameters(embed=embed, view=view, attachments=attachments) as params:
        await client.http.edit_message(channel_id, message_id, params=params)


async def edit_interaction_answer(
    interaction: discord.Interaction,
    *,
    content: str,
    view: discord.ui.View,
    attachments: Sequence[discord.File] = MISSING,
) -> int:
    """Edit the message that answered ``interaction`` through its token (an ephemeral hand);
    returns that message's id."""
    state: Any = interaction._state  # discord.py's own path (Interaction.edit_original_response)
    with handle_message_parameters(
        content=content,
        view=view,
        attachments=attachments,
        previous_allowed_mentions=state.allowed_mentions,
    ) as params:
        http = state.http
        data = await async_context.get().edit_original_interaction_response(
            interaction.application_id,
            interaction.token,
            session=interaction._session,
            proxy=http.proxy,
            proxy_auth=http.proxy_auth,
            payload=params.payload,
            multipart=params.multipart,
            files=params.files,
        )
    return int(data["id"])
