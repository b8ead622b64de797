"""INTERACTION_CREATE payloads: slash commands (options encoded as Discord does) and components."""

from __future__ import annotations

from typing import Any

from .model import JSON, FakeChannel, FakeUser, RegisteredCommand
from .payloads import (
    ATTACHMENT_SIZE_LIMIT,
    DEFAULT_PERMISSIONS,
    channel_payload,
    member_payload,
    role_payload,
    user_payload,
)
from .store import FakeStore

SUB_COMMAND, SUB_COMMAND_GROUP = 1, 2
CREATE_PUBLIC_THREADS = 1 << 35
STRING, INTEGER, BOOLEAN, USER, CHANNEL, ROLE, MENTIONABLE, NUMBER = 3, 4, 5, 6, 7, 8, 9, 10


def interaction_payload(
    store: FakeStore,
    *,
    interaction_id: int,
    token: str,
    type: int,
    user: FakeUser,
    channel: FakeChannel,
    data: JSON,
    message: JSON | None = None,
) -> JSON:
    payload: JSON = {
        "id": str(interaction_id),
        "application_id": str(store.application_id),
        "type": type,
        "data": data,
        "token": token,
        "version": 1,
        "channel_id": str(channel.id),
        "channel": channel_payload(channel, store.users),
        "locale": user.locale,
        "app_permissions": str(bot_permissions(store, channel)),
        "entitlements": [],
        "entitlement_sku_ids": [],
        "attachment_size_limit": ATTACHMENT_SIZE_LIMIT,
    }
    if channel.guild_id is not None:
        guild = store.guilds[channel.guild_id]
        payload.update(
            guild_id=str(guild.id),
            guild={"id": str(guild.id), "locale": guild.locale, "features": []},
            guild_locale=guild.locale,
            member=member_payload(
                user,
                guild.joined_at,
                permissions=DEFAULT_PERMISSIONS | store.extra_permissions.get(user.id, 0),
            ),
            authorizing_integration_owners={"0": str(guild.id)},
            context=0,
        )
    else:
        payload.update(
            user=user_payload(user), authorizing_integration_owners={"0": "0"}, context=1
        )
    if message is not None:
        payload["message"] = message
    return payload


def bot_permissions(store: FakeStore, channel: FakeChannel) -> int:
    """The bot's permissions in ``channel``: @everyone's, less what its overrides deny."""
    denied = {channel.id, channel.parent_id or 0} & store.threads_denied
    return DEFAULT_PERMISSIONS & ~(CREATE_PUBLIC_THREADS if denied else 0)


def command_data(
    store: FakeStore,
    command: RegisteredCommand,
    path: tuple[str, ...],
    options: dict[str, Any],
    focused: str | None = None,
) -> JSON:
    """`data` of a type-2 interaction: subcommand groups/subcommands nest their options. With
    ``focused``, of a type-4 one (autocomplete): that option is being typed (its text so far in
    ``options``) and required options may still be missing."""
    defs: list[JSON] = list(command.payload.get("options") or [])
    top: list[JSON] = []
    cursor = top
    for name in path:
        found = _find(defs, name, f"/{command.name} {' '.join(path)}")
        if found.get("type") not in (SUB_COMMAND, SUB_COMMAND_GROUP):
            raise ValueError(f"{name!r} is an option, not a subcommand")
        node: JSON = {"name": name, "type": found["type"], "options": []}
        cursor.append(node)
        cursor = node["options"]
        defs = list(found.get("options") or [])
    if any(d.get("type") in (SUB_COMMAND, SUB_COMMAND_GROUP) for d in defs):
        names = [d["name"] for d in defs]
        raise ValueError(f"/{command.name} {' '.join(path)} needs a subcommand, one of {names}")
    resolved: dict[str, dict[str, JSON]] = {}
    for key, value in options.items():
        definition = _find(defs, key, f"/{command.name} {' '.join(path)}")
        if key == focused:
            cursor.append(
                {"name": key, "type": definition["type"], "value": str(value), "focused": True}
            )
            continue
        cursor.append(
            {
                "name": key,
                "type": definition["type"],
                "value": _encode(store, definition, value, resolved),
            }
        )
    missing = [d["name"] for d in defs if d.get("required") and d["name"] not in options]
    if missing and focused is None:
        raise ValueError(f"Discord would not send the command: required options missing {missing}")
    data: JSON = {"id": str(command.id), "name": command.name, "type": 1, "options": top}
    if command.guild_id is not None:
        data["guild_id"] = str(command.guild_id)
    if resolved:
        data["resolved"] = resolved
    return data


def _find(defs: list[JSON], name: str, where: str) -> JSON:
    for d in defs:
        if d.get("name") == name:
            return d
    raise LookupError(f"{where} has no option {name!r}; it has {[d.get('name') for d in defs]}")


def _encode(
    store: FakeStore, definition: JSON, value: Any, resolved: dict[str, dict[str, JSON]]
) -> Any:
    """Check a value the way Discord's client would, then encode it as Discord sends it."""
    otype = definition["type"]
    name = definition["name"]
    choices = definition.get("choices")
    if choices and value not in [c["value"] for c in choices]:
        raise ValueError(f"option {name!r}: {value!r} is not one of the choices {choices}")
    if otype in (INTEGER, NUMBER):
        low, high = definition.get("min_value"), definition.get("max_value")
        if (low is not None and value < low) or (high is not None and value > high):
            raise ValueError(f"option {name!r}: {value!r} outside [{low}, {high}]")
        return int(value) if otype == INTEGER else float(value)
    if otype == STRING:
        text = str(value)
        low, high = definition.get("min_length", 0), definition.get("max_length", 6000)
        if not low <= len(text) <= high:
            raise ValueError(f"option {name!r}: length {len(text)} outside [{low}, {high}]")
        return text
    if otype == BOOLEAN:
        return bool(value)
    snowflake = str(int(value))
    if otype in (USER, MENTIONABLE) and int(value) in store.users:
        user = store.users[int(value)]
        resolved.setdefault("users", {})[snowflake] = user_payload(user)
        for guild in store.guilds.values():
            if user.id in guild.member_ids:
                member = member_payload(
                    user, guild.joined_at, permissions=DEFAULT_PERMISSIONS, with_user=False
                )
                resolved.setdefault("members", {})[snowflake] = member
                break
    elif otype == CHANNEL:
        channel = store.channels[int(value)]
        entry = channel_payload(channel, store.users)
        entry["permissions"] = str(DEFAULT_PERMISSIONS)
        resolved.setdefault("channels", {})[snowflake] = entry
    elif otype in (ROLE, MENTIONABLE):
        for guild in store.guilds.values():
            for role in guild.roles:
                if role.id == int(value):
                    resolved.setdefault("roles", {})[snowflake] = role_payload(role)
    return snowflake
