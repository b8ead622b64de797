"""Builders for the JSON objects Discord sends (shapes checked against discord.py 2.7's parsers)."""

from __future__ import annotations

from typing import Any

from .model import JSON, FakeChannel, FakeGuild, FakeRole, FakeUser

# @everyone's permissions in a fresh guild: view, send, embed, attach, history, reactions,
# external emojis, slash commands, threads.
DEFAULT_PERMISSIONS = (
    (1 << 6)
    | (1 << 10)
    | (1 << 11)
    | (1 << 14)
    | (1 << 15)
    | (1 << 16)
    | (1 << 18)
    | (1 << 31)
    | (1 << 35)
    | (1 << 38)
)
ATTACHMENT_SIZE_LIMIT = 10 * 1024 * 1024


def user_payload(user: FakeUser) -> JSON:
    return {
        "id": str(user.id),
        "username": user.name,
        "global_name": user.global_name,
        "discriminator": "0",
        "avatar": user.avatar,
        "bot": user.bot,
        "public_flags": 0,
        "flags": 0,
        "locale": user.locale,
        "verified": True,
        "mfa_enabled": False,
    }


def member_payload(
    user: FakeUser, joined_at: str, permissions: int | None = None, with_user: bool = True
) -> JSON:
    data: JSON = {
        "roles": [],
        "nick": None,
        "avatar": None,
        "joined_at": joined_at,
        "premium_since": None,
        "deaf": False,
        "mute": False,
        "pending": False,
        "flags": 0,  # discord.py reads data['flags'] unconditionally
        "communication_disabled_until": None,
    }
    if with_user:
        data["user"] = user_payload(user)
    if permissions is not None:
        data["permissions"] = str(permissions)
    return data


def role_payload(role: FakeRole) -> JSON:
    return {
        "id": str(role.id),
        "name": role.name,
        "permissions": str(role.permissions),
        "position": role.position,
        "color": 0,
        "colors": {"primary_color": 0, "secondary_color": None, "tertiary_color": None},
        "hoist": False,
        "icon": None,
        "unicode_emoji": None,
        "managed": False,
        "mentionable": False,
        "flags": 0,
    }


def channel_payload(channel: FakeChannel, users: dict[int, FakeUser] | None = None) -> JSON:
    if channel.is_thread:
        return thread_payload(channel)
    if channel.type == 1:  # DM
        return {
            "id": str(channel.id),
            "type": 1,
            "last_message_id": None,
            "recipients": [user_payload(users[u]) for u in channel.recipient_ids if users],
        }
    return {
        "id": str(channel.id),
        "type": channel.type,
        "guild_id": str(channel.guild_id),
        "name": channel.name,
        "position": channel.position,
        "permission_overwrites": [],
        "parent_id": str(channel.parent_id) if channel.parent_id else None,
        "topic": None,
        "nsfw": False,
        "rate_limit_per_user": 0,
        "last_message_id": None,
        "flags": 0,
    }


def thread_payload(thread: FakeChannel) -> JSON:
    return {
        "id": str(thread.id),
        "type": thread.type,
        "guild_id": str(thread.guild_id),
        "parent_id": str(thread.parent_id),
        "owner_id": str(thread.owner_id),
        "name": thread.name,
        "last_message_id": None,
        "rate_limit_per_user": 0,
        "message_count": 0,
        "member_count": len(thread.member_ids),
        "total_message_sent": 0,
        "flags": 0,
        "thread_metadata": {
            "archived": thread.archived,
            "auto_archive_duration": thread.auto_archive_duration,
            "archive_timestamp": thread.created_at,
            "locked": thread.locked,
            "invitable": True,
            "create_timestamp": thread.created_at,
        },
    }


def guild_create_payload(
    guild: FakeGuild,
    users: dict[int, FakeUser],
    channels: dict[int, FakeChannel],
    member_ids: list[int] | None = None,
) -> JSON:
    """`member_ids`: who to list in `members` (default all); `member_count` is always the total."""
    guild_channels = [channels[c] for c in guild.channel_ids if not channels[c].deleted]
    listed = guild.member_ids if member_ids is None else member_ids
    members = [member_payload(users[u], guild.joined_at) for u in listed]
    return {
        "id": str(guild.id),
        "name": guild.name,
        "icon": None,
        "splash": None,
        "discovery_splash": None,
        "banner": None,
        "description": None,
        "owner_id": str(guild.owner_id),
        "roles": [role_payload(r) for r in guild.roles],
        "emojis": [],
        "stickers": [],
        "features": [],
        "verification_level": 0,
        "default_message_notifications": 0,
        "explicit_content_filter": 0,
        "mfa_level": 0,
        "nsfw_level": 0,
        "premium_tier": 0,
        "premium_subscription_count": 0,
        "premium_progress_bar_enabled": False,
        "preferred_locale": guild.locale,
        "system_channel_id": None,
        "system_channel_flags": 0,
        "rules_channel_id": None,
        "public_updates_channel_id": None,
        "safety_alerts_channel_id": None,
        "afk_channel_id": None,
        "afk_timeout": 300,
        "vanity_url_code": None,
        "max_members": 500000,
        "max_video_channel_users": 25,
        "application_id": None,
        "unavailable": False,
        "large": False,
        "lazy": True,
        "joined_at": guild.joined_at,
        "member_count": len(guild.member_ids),
        "members": members,
        "channels": [channel_payload(c) for c in guild_channels if not c.is_thread],
        "threads": [thread_payload(c) for c in guild_channels if c.is_thread and not c.archived],
        "presences": [],
        "voice_states": [],
        "stage_instances": [],
        "guild_scheduled_events": [],
        "soundboard_sounds": [],
    }


def app_info_payload(app_id: int, bot: FakeUser, owner: FakeUser) -> JSON:
    return {
        "id": str(app_id),
        "name": bot.name,
        "icon": None,
        "description": "",
        "summary": "",
        "type": None,
        "bot_public": True,
        "bot_require_code_grant": False,
        "verify_key": "0" * 64,
        "flags": 0,
        "owner": user_payload(owner),
        "team": None,
        "rpc_origins": [],
        "interactions_endpoint_url": None,
        "bot": user_payload(bot),
    }


def error_body(code: int, message: str, errors: dict[str, Any] | None = None) -> JSON:
    body: JSON = {"code": code, "message": message}
    if errors:
        body["errors"] = errors
    return body
