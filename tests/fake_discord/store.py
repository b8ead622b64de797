"""The fake's database: users, guilds, channels, messages (with history), interactions, commands."""

from __future__ import annotations

import asyncio
import copy
import re
from collections.abc import Container
from dataclasses import dataclass
from typing import Any

from .clock import FakeClock, SnowflakeFactory
from .model import (
    EPHEMERAL,
    JSON,
    FakeAttachment,
    FakeChannel,
    FakeGuild,
    FakeInteraction,
    FakeMessage,
    FakeRole,
    FakeUser,
    RegisteredCommand,
)
from .payloads import DEFAULT_PERMISSIONS, user_payload

# Fields of a message body that an edit replaces when present.
_EDITABLE = ("content", "embeds", "components", "flags", "poll")


@dataclass
class UploadedFile:
    """One `files[n]` part of a multipart request."""

    field: str
    filename: str
    content_type: str | None
    data: bytes

    @property
    def index(self) -> int | None:
        inside = self.field.removeprefix("files[").removesuffix("]")
        return int(inside) if inside.isdigit() else None


class FakeStore:
    def __init__(self, clock: FakeClock) -> None:
        self.clock = clock
        self.ids = SnowflakeFactory(clock)
        self.users: dict[int, FakeUser] = {}
        self.guilds: dict[int, FakeGuild] = {}
        self.channels: dict[int, FakeChannel] = {}
        self.messages: dict[int, FakeMessage] = {}
        #: The same messages by who sees them, oldest first: a channel's public ones (ephemeral
        #: flag or not) and each user's ephemeral ones. The players of the load benchmark look
        #: up a hand or a table message at every click; a scan of every message grew with
        #: the run.
        self.public_by_channel: dict[int, list[FakeMessage]] = {}
        self.ephemeral_by_user: dict[int, list[FakeMessage]] = {}
        self.interactions: dict[int, FakeInteraction] = {}
        self.tokens: dict[str, FakeInteraction] = {}
        self.commands: dict[tuple[int | None, str, int], RegisteredCommand] = {}
        #: Users who accept no DMs from the bot (a DM to them answers 403, code 50007).
        self.dms_closed: set[int] = set()
        #: Permissions a user has beyond @everyone's (e.g. Manage Events), in every guild.
        self.extra_permissions: dict[int, int] = {}
        #: Channels whose overrides deny the bot Create Public Threads (a thread there: 403).
        self.threads_denied: set[int] = set()
        self.base_url = ""  # set by the server once it has a port
        self._changed = asyncio.Event()
        self.bot = self.add_user("Durak Bot", bot=True)
        self.application_id = self.bot.id
        self.owner = self.add_user("bot-owner")

    # -- change notification -------------------------------------------------------------

    def touch(self) -> None:
        """Wake everyone waiting in FakeDiscord.wait_for: the state changed."""
        self._changed.set()
        self._changed = asyncio.Event()

    @property
    def changed(self) -> asyncio.Event:
        return self._changed

    # -- entities ------------------------------------------------------------------------

    def add_user(self, name: str, *, locale: str = "en-US", bot: bool = False) -> FakeUser:
        user = FakeUser(id=self.ids.next(), name=name, locale=locale, bot=bot)
        self.users[user.id] = user
        return user

    def add_guild(
        self, name: str, *, owner_id: int | None = None, locale: str = "en-US"
    ) -> FakeGuild:
        gid = self.ids.next()
        owner = owner_id if owner_id is not None else self.owner.id
        guild = FakeGuild(
            id=gid, name=name, owner_id=owner, locale=locale, joined_at=self.clock.iso()
        )
        guild.roles.append(FakeRole(id=gid, name="@everyone", permissions=DEFAULT_PERMISSIONS))
        guild.member_ids += [self.bot.id] + ([owner] if owner != self.bot.id else [])
        self.guilds[gid] = guild
        return guild

    def add_channel(self, guild_id: int, name: str, *, type: int = 0) -> FakeChannel:
        guild = self.guilds[guild_id]
        channel = FakeChannel(
            id=self.ids.next(),
            type=type,
            name=name,
            guild_id=guild_id,
            position=len(guild.channel_ids),
            created_at=self.clock.iso(),
        )
        self.channels[channel.id] = channel
        guild.channel_ids.append(channel.id)
        return channel

    def add_thread(
        self,
        parent: FakeChannel,
        name: str,
        *,
        owner_id: int,
        type: int,
        thread_id: int | None = None,
        auto_archive_duration: int = 1440,
    ) -> FakeChannel:
        thread = FakeChannel(
            id=thread_id or self.ids.next(),
            type=type,
            name=name,
            guild_id=parent.guild_id,
            parent_id=parent.id,
            owner_id=owner_id,
            created_at=self.clock.iso(),
            auto_archive_duration=auto_archive_duration,
            member_ids={owner_id},
        )
        self.channels[thread.id] = thread
        if parent.guild_id is not None:
            self.guilds[parent.guild_id].channel_ids.append(thread.id)
        return thread

    def dm_channel(self, user_id: int) -> FakeChannel:
        for channel in self.channels.values():
            if channel.type == 1 and channel.recipient_ids == [user_id]:
                return channel
        channel = FakeChannel(id=self.ids.next(), type=1, name="", recipient_ids=[user_id])
        self.channels[channel.id] = channel
        return channel

    def add_member(self, guild_id: int, user_id: int) -> None:
        guild = self.guilds[guild_id]
        if user_id not in guild.member_ids:
            guild.member_ids.append(user_id)

    # -- messages ------------------------------------------------------------------------

    def new_message(
        self,
        channel_id: int,
        body: JSON,
        files: list[UploadedFile],
        *,
        author_id: int | None = None,
        interaction: FakeInteraction | None = None,
        message_type: int = 0,
        extra_flags: int = 0,
    ) -> FakeMessage:
        channel = self.channels[channel_id]
        author = self.users[author_id if author_id is not None else self.bot.id]
        msg_id = self.ids.next()
        flags = int(body.get("flags") or 0) | extra_flags
        data: JSON = {
            "id": str(msg_id),
            "channel_id": str(channel_id),
            "author": user_payload(author),
            "content": body.get("content") or "",
            "timestamp": self.clock.iso(),
            "edited_timestamp": None,
            "tts": bool(body.get("tts", False)),
            "mention_everyone": False,
            "mentions": [user_payload(self.users[u]) for u in pinged_users(body, self.users)],
            "mention_roles": [],
            "mention_channels": [],
            "attachments": [],
            "embeds": copy.deepcopy(body.get("embeds") or []),
            "reactions": [],
            "pinned": False,
            "type": message_type,
            "flags": flags,
            "components": copy.deepcopy(body.get("components") or []),
        }
        if channel.guild_id is not None:
            data["guild_id"] = str(channel.guild_id)
        if body.get("message_reference"):
            data["message_reference"] = body["message_reference"]
        if interaction is not None:
            data["webhook_id"] = str(self.application_id)
            data["application_id"] = str(self.application_id)
            data["interaction_metadata"] = self._interaction_metadata(interaction)
        message = FakeMessage(
            id=msg_id,
            channel_id=channel_id,
            guild_id=channel.guild_id,
            author_id=author.id,
            versions=[data],
            interaction_id=interaction.id if interaction else None,
            visible_to=interaction.user_id if interaction and flags & EPHEMERAL else None,
        )
        message.attachments = self._attachments(message, body, files, keep=[])
        data["attachments"] = [self.attachment_payload(message, a) for a in message.attachments]
        self.messages[msg_id] = message
        if message.visible_to is None:
            self.public_by_channel.setdefault(channel_id, []).append(message)
        else:
            self.ephemeral_by_user.setdefault(message.visible_to, []).append(message)
        self.touch()
        return message

    def edit_message(
        self, message: FakeMessage, body: JSON, files: list[UploadedFile]
    ) -> FakeMessage:
        # A shallow copy is enough: an edit replaces top-level values and never changes one in
        # place, so older versions keep theirs.
        data = dict(message.current)
        for key in _EDITABLE:
            if key in body:
                value = body[key]
                data[key] = value if value is not None else ("" if key == "content" else [])
        if "flags" in body:
            # The ephemeral bit cannot be changed by an edit.
            data["flags"] = (int(body["flags"] or 0) & ~EPHEMERAL) | (message.flags & EPHEMERAL)
        if "attachments" in body or files:
            message.attachments = self._attachments(message, body, files, keep=message.attachments)
            data["attachments"] = [self.attachment_payload(message, a) for a in message.attachments]
        data["edited_timestamp"] = self.clock.iso()
        message.versions.append(data)
        self.touch()
        return message

    def delete_message(self, message: FakeMessage) -> None:
        message.deleted = True
        self.touch()

    def _attachments(
        self,
        message: FakeMessage,
        body: JSON,
        files: list[UploadedFile],
        keep: list[FakeAttachment],
    ) -> list[FakeAttachment]:
        by_index = {f.index: f for f in files}
        existing = {a.id: a for a in keep}
        listed: list[JSON] | None = body.get("attachments")
        if listed is None:
            # No attachment list: keep what was there and add every uploaded file.
            listed = [{"id": a.id} for a in keep] + [{"id": i} for i in by_index if i is not None]
        result: list[FakeAttachment] = []
        for entry in listed:
            ref = int(entry["id"])
            if ref in existing:
                result.append(existing[ref])
            elif ref in by_index:
                upload = by_index[ref]
                result.append(
                    FakeAttachment(
                        id=self.ids.next(),
                        filename=str(entry.get("filename") or upload.filename),
                        data=upload.data,
                        content_type=upload.content_type,
                        description=_optional_str(entry.get("description")),
                    )
                )
        return result

    def attachment_payload(self, message: FakeMessage, attachment: FakeAttachment) -> JSON:
        where = f"{message.channel_id}/{attachment.id}/{attachment.filename}"
        url = f"{self.base_url}/attachments/{where}"
        data: JSON = {
            "id": str(attachment.id),
            "filename": attachment.filename,
            "size": len(attachment.data),
            "url": url,
            "proxy_url": url,
            "content_type": attachment.content_type,
        }
        if attachment.description:
            data["description"] = attachment.description
        if message.ephemeral:
            data["ephemeral"] = True
        return data

    def _interaction_metadata(self, interaction: FakeInteraction) -> JSON:
        meta: JSON = {
            "id": str(interaction.id),
            "type": interaction.type,
            "user": user_payload(self.users[interaction.user_id]),
            "authorizing_integration_owners": _owners(interaction),
        }
        if interaction.source_message_id is not None:
            meta["interacted_message_id"] = str(interaction.source_message_id)
        if interaction.type == 2:
            meta["name"] = interaction.payload["data"]["name"]
            meta["command_type"] = 1
        return meta

    # -- interactions --------------------------------------------------------------------

    def add_interaction(self, interaction: FakeInteraction) -> None:
        self.interactions[interaction.id] = interaction
        self.tokens[interaction.token] = interaction

    def interaction_messages(self, interaction: FakeInteraction) -> list[int]:
        ids = [interaction.original_message_id] if interaction.original_message_id else []
        return ids + interaction.followup_ids

    # -- commands ------------------------------------------------------------------------

    def find_command(
        self, name: str, guild_id: int | None, type: int = 1
    ) -> RegisteredCommand | None:
        return self.commands.get((guild_id, name, type)) or self.commands.get((None, name, type))

    def replace_commands(self, guild_id: int | None, bodies: list[JSON]) -> list[RegisteredCommand]:
        """Bulk overwrite, as PUT .../commands does; ids survive for unchanged names."""
        old = {k: v for k, v in self.commands.items() if k[0] == guild_id}
        for key in old:
            del self.commands[key]
        result = []
        for body in bodies:
            key = (guild_id, str(body["name"]), int(body.get("type", 1)))
            cmd_id = old[key].id if key in old else self.ids.next()
            payload: dict[str, Any] = {
                "type": 1,
                "description": "",
                "options": [],
                "default_member_permissions": None,
                "nsfw": False,
                "contexts": None,
                "integration_types": [0],
                **copy.deepcopy(body),
                "id": str(cmd_id),
                "application_id": str(self.application_id),
                "version": str(self.ids.next()),
            }
            if guild_id is not None:
                payload["guild_id"] = str(guild_id)
            command = RegisteredCommand(id=cmd_id, payload=payload, guild_id=guild_id)
            self.commands[key] = command
            result.append(command)
        self.touch()
        return result


def _owners(interaction: FakeInteraction) -> dict[str, str]:
    if interaction.guild_id is not None:
        return {"0": str(interaction.guild_id)}
    return {"1": str(interaction.user_id)}


def _optional_str(value: Any) -> str | None:
    return None if value is None else str(value)


USER_MENTION = re.compile(r"<@!?(\d+)>")


def pinged_users(body: JSON, users: Container[int]) -> list[int]:
    """Users a new message notifies, as Discord decides it: ``<@id>`` in the content, filtered
    by ``allowed_mentions`` (absent: every user mention pings)."""
    found = [int(m) for m in USER_MENTION.findall(str(body.get("content") or ""))]
    allowed = body.get("allowed_mentions")
    if isinstance(allowed, dict) and "users" not in (allowed.get("parse") or []):
        permitted = {int(u) for u in allowed.get("users") or []}
        found = [u for u in found if u in permitted]
    return [u for u in dict.fromkeys(found) if u in users]
