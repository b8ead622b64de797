"""Discord's two lifetimes of an interaction, and how its refusals tell them (docs/bot.md):
the first answer must come within 3 seconds (later: 404 ``10062 Unknown interaction``), and the
token that edits that answer and sends followups lives 15 minutes (later: 401 ``50027 Invalid
Webhook Token``; an interaction never answered has no webhook: 404 ``10015``)."""

from __future__ import annotations

import discord

UNKNOWN_WEBHOOK, UNKNOWN_INTERACTION, INVALID_WEBHOOK_TOKEN = 10015, 10062, 50027


def answer_lost(error: BaseException) -> bool:
    """Whether ``error`` says the interaction can no longer be answered or edited (too late,
    token expired): nobody can be told through it, and it is no fault of the bot's code."""
    return isinstance(error, discord.HTTPException) and error.code in (
        UNKNOWN_WEBHOOK,
        UNKNOWN_INTERACTION,
        INVALID_WEBHOOK_TOKEN,
    )
