"""Edits of messages the bot keeps in step (table, lobby, hands), sent without building
discord.py's ``Message`` objects from the answers.

``PartialMessage.edit``, ``Interaction.edit_original_response`` and
``InteractionResponse.edit_message`` parse Discord's answer into a full ``Message`` (author,
embeds, components, attachments) and store the view for dispatch; the bot needs neither (its
buttons are dynamic items, registered once, and only a hand's message id is kept), and under
load that parsing was a tenth of the bot's interpreter time (docs/performance.md, "What
keeps it cheap"). The request itself is discord.py's: the same payload, rate limits and errors
(``discord.HTTPException``, ``discord.NotFound``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, cast

import discord
from discord.enums import InteractionResponseType
from discord.errors import InteractionResponded
from discord.http import Route, handle_message_parameters
from discord.utils import MISSING
from discord.webhook.async_ import async_context, interaction_message_response_params

from bot.ui.components import Components
from bot.ui.cycles import release_view


def _transport(interaction: discord.Interaction) -> dict[str, Any]:
    """The session and proxy that discord.py's webhook adapter sends an interaction's requests
    through (as its own ``Interaction`` methods pass them)."""
    http = cast(Any, interaction._state).http
    return {"session": interaction._session, "proxy": http.proxy, "proxy_auth": http.proxy_auth}


async def edit_channel_message(
    client: discord.Client,
    channel_id: int,
    message_id: int,
    *,
    embed: discord.Embed | None = MISSING,
    view: Components | None = MISSING,
    attachments: Sequence[discord.File] = MISSING,
) -> None:
    """Edit a message the bot posted in a channel (``PartialMessage.edit`` without its
    answer parsed). A ``View`` is built for this edit: it is taken apart once sent (rows
    written as JSON, :class:`ComponentRows`, hold no cycles)."""
    try:
        with handle_message_parameters(
            embed=embed,
            view=cast(Any, view),  # discord.py calls only the two methods of Components
            attachments=attachments,
            previous_allowed_mentions=client.allowed_mentions,
        ) as params:
            await client.http.edit_message(channel_id, message_id, params=params)
    finally:
        if isinstance(view, discord.ui.View):
            release_view(view)


async def edit_interaction_answer(
    interaction: discord.Interaction,
    *,
    content: str,
    view: Components,
    attachments: Sequence[discord.File] = MISSING,
) -> int:
    """Edit the message that answered ``interaction`` through its token (an ephemeral hand);
    returns that message's id."""
    state: Any = interaction._state  # discord.py's own path (Interaction.edit_original_response)
    with handle_message_parameters(
        content=content,
        view=cast(Any, view),  # discord.py calls only the two methods above
        attachments=attachments,
        previous_allowed_mentions=state.allowed_mentions,
    ) as params:
        data = await async_context.get().edit_original_interaction_response(
            interaction.application_id,
            interaction.token,
            **_transport(interaction),
            payload=params.payload,
            multipart=params.multipart,
            files=params.files,
        )
    return int(data["id"])


async def update_clicked_message(
    interaction: discord.Interaction,
    *,
    content: str,
    view: Components,
    attachments: Sequence[discord.File] = MISSING,
) -> None:
    """Answer a component click by editing the clicked message (callback type 7: a hand
    updated in place), as ``InteractionResponse.edit_message`` does, but without asking for
    the answer's message (``with_response``): Discord then answers 204 with no body."""
    response: Any = interaction.response
    if response.is_done():
        raise InteractionResponded(interaction)
    state: Any = interaction._state
    params = interaction_message_response_params(
        type=InteractionResponseType.message_update.value,
        content=content,
        view=cast(Any, view),  # discord.py calls only the two methods above
        attachments=attachments,
        previous_allowed_mentions=state.allowed_mentions,
    )
    route = Route(
        "POST",
        "/interactions/{webhook_id}/{webhook_token}/callback",
        webhook_id=interaction.id,
        webhook_token=interaction.token,
    )
    await async_context.get().request(
        route,
        **_transport(interaction),
        payload=None if params.files else params.payload,
        multipart=params.multipart if params.files else None,
        files=params.files or None,
    )
    response._response_type = InteractionResponseType.message_update
