"""Signing in to the Activity (``POST /api/token``): the request's shape, the refusals it can
get, and the answer once Discord has vouched for the user and the instance
(:meth:`bot.activity.server.ActivityServer.token` does the asking)."""

from __future__ import annotations

from aiohttp import web
from pydantic import BaseModel, ConfigDict, Field

from bot.text import t

from .discord_api import ActivityInstance, DiscordUser
from .session_tokens import SessionSigner

#: Activity instance ids are short and URL-safe (``i-<launch>-gc-<guild>-<channel>``).
INSTANCE_ID = r"^[A-Za-z0-9_-]{1,128}$"


class TokenRequest(BaseModel):
    """The body of ``POST /api/token``: the SDK's code and ``sdk.instanceId``, nothing else."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)

    code: str = Field(min_length=1, max_length=256)
    instance_id: str = Field(pattern=INSTANCE_ID)


def refusal(status: int, key: str, locale: str, **extra: object) -> web.Response:
    body = {"error": key, "message": t(key, locale), **extra}
    return web.json_response(body, status=status)


def signed_in(
    signer: SessionSigner, access_token: str, user: DiscordUser, instance: ActivityInstance
) -> web.Response:
    """The answer to a sign-in: Discord's access token and the server's session."""
    session = signer.issue(
        user_id=user.id,
        instance_id=instance.instance_id,
        channel_id=instance.channel_id,
        guild_id=instance.guild_id,
        locale=user.locale,
        name=user.global_name or user.username,
        avatar=user.avatar,
    )
    return web.json_response(
        {
            "access_token": access_token,
            "session": session,
            "session_expires_in": round(signer.lifetime),
            "user": {
                "id": str(user.id),
                "username": user.username,
                "global_name": user.global_name,
                "avatar": user.avatar,
                "locale": user.locale,
            },
            "channel_id": str(instance.channel_id),
        }
    )
