"""In-memory state of the fake Discord: what a real Discord would have stored."""

from __future__ import annotations

import asyncio
import copy
import json
import time
from dataclasses import dataclass, field
from typing import Any, NamedTuple

JSON = dict[str, Any]

#: Discord's window for an interaction's first response, and its token's lifetime (seconds).
RESPONSE_WINDOW, TOKEN_LIFETIME = 3.0, 15 * 60
EPHEMERAL = 1 << 6
LOADING = 1 << 7
COMPONENTS_V2 = 1 << 15

# Channel types used by the fake (Discord's numbering).
GUILD_TEXT = 0
DM = 1
PUBLIC_THREAD = 11
PRIVATE_THREAD = 12
THREAD_TYPES = (10, PUBLIC_THREAD, PRIVATE_THREAD)


@dataclass
class FakeUser:
    id: int
    name: str
    locale: str = "en-US"
    bot: bool = False
    global_name: str | None = None
    #: The avatar hash (32 hex digits, ``a_`` first when animated), or None.
    avatar: str | None = None


@dataclass
class FakeRole:
    id: int
    name: str
    permissions: int
    position: int = 0


@dataclass
class FakeChannel:
    id: int
    type: int
    name: str
    guild_id: int | None = None
    position: int = 0
    parent_id: int | None = None
    owner_id: int | None = None
    recipient_ids: list[int] = field(default_factory=list)
    archived: bool = False
    locked: bool = False
    auto_archive_duration: int = 1440
    created_at: str = ""
    member_ids: set[int] = field(default_factory=set)
    deleted: bool = False

    @property
    def is_thread(self) -> bool:
        return self.type in THREAD_TYPES


@dataclass
class FakeGuild:
    id: int
    name: str
    owner_id: int
    locale: str = "en-US"
    member_ids: list[int] = field(default_factory=list)
    channel_ids: list[int] = field(default_factory=list)
    roles: list[FakeRole] = field(default_factory=list)
    joined_at: str = ""


@dataclass
class FakeAttachment:
    id: int
    filename: str
    data: bytes
    content_type: str | None = None
    description: str | None = None


class ButtonInfo(NamedTuple):
    """One button, flattened out of a message's component tree."""

    custom_id: str | None
    label: str | None
    disabled: bool
    emoji: str | None
    style: int


@dataclass
class FakeMessage:
    """A message and every version of it (index 0 is the message as first sent)."""

    id: int
    channel_id: int
    guild_id: int | None
    author_id: int
    versions: list[JSON]
    attachments: list[FakeAttachment] = field(default_factory=list)
    interaction_id: int | None = None
    visible_to: int | None = None  # set for ephemeral messages: the one user who sees them
    deleted: bool = False
    #: ``buttons`` of the version they were read from (the load benchmark's players look at
    #: every table and hand message before each click; a version never changes in place).
    _buttons_of: tuple[JSON, list[ButtonInfo]] | None = field(
        default=None, repr=False, compare=False
    )

    @property
    def payload(self) -> JSON:
        """The message object as Discord would return it now (a copy)."""
        return copy.deepcopy(self.versions[-1])

    @property
    def current(self) -> JSON:
        """The message object now, not a copy: only to serialize at once, never to change
        (``payload`` deep-copies, which under load cost the fake a sixth of its time)."""
        return self.versions[-1]

    @property
    def history(self) -> list[JSON]:
        return copy.deepcopy(self.versions)

    @property
    def edit_count(self) -> int:
        return len(self.versions) - 1

    @property
    def flags(self) -> int:
        return int(self.versions[-1].get("flags", 0))

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & EPHEMERAL)

    @property
    def loading(self) -> bool:
        return bool(self.flags & LOADING)

    @property
    def content(self) -> str:
        return str(self.versions[-1].get("content") or "")

    @property
    def embeds(self) -> list[JSON]:
        return copy.deepcopy(list(self.versions[-1].get("embeds") or []))

    @property
    def components(self) -> list[JSON]:
        return copy.deepcopy(list(self.versions[-1].get("components") or []))

    @property
    def _components(self) -> list[JSON]:
        """The current components themselves, to read only: ``components`` deep-copies the
        tree, which the players' look at every hand cost the load benchmark a sixth of the
        fake's time."""
        return list(self.versions[-1].get("components") or [])

    @property
    def buttons(self) -> list[ButtonInfo]:
        current = self.versions[-1]
        if self._buttons_of is None or self._buttons_of[0] is not current:
            self._buttons_of = (current, self._read_buttons())
        return list(self._buttons_of[1])

    def _read_buttons(self) -> list[ButtonInfo]:
        return [
            ButtonInfo(
                c.get("custom_id"),
                c.get("label"),
                bool(c.get("disabled", False)),
                emoji_text(c.get("emoji")),
                int(c.get("style", 0)),
            )
            for c in iter_components(self._components)
            if c.get("type") == 2
        ]

    @property
    def selects(self) -> list[JSON]:
        return [c for c in iter_components(self.components) if c.get("type") in SELECT_TYPES]

    def component(self, custom_id: str) -> JSON | None:
        for comp in iter_components(self._components):
            if comp.get("custom_id") == custom_id:
                return copy.deepcopy(comp)
        return None

    def text(self) -> str:
        """Everything of the current version a user could read, as one string."""
        return json.dumps(self.versions[-1], ensure_ascii=False)


SELECT_TYPES = (3, 5, 6, 7, 8)


def iter_components(components: list[JSON]) -> list[JSON]:
    """Depth-first list of every component (rows, containers and sections included)."""
    out: list[JSON] = []
    stack = list(reversed(components))
    while stack:
        comp = stack.pop()
        out.append(comp)
        children: list[JSON] = list(comp.get("components") or [])
        for key in ("accessory", "component"):  # sections and labels hold one child
            if isinstance(comp.get(key), dict):
                children.append(comp[key])
        stack.extend(reversed(children))
    return out


def emoji_text(emoji: JSON | None) -> str | None:
    if not emoji:
        return None
    if emoji.get("id"):
        prefix = "a" if emoji.get("animated") else ""
        return f"<{prefix}:{emoji.get('name')}:{emoji['id']}>"
    name = emoji.get("name")
    return str(name) if name is not None else None


@dataclass
class RegisteredCommand:
    id: int
    payload: JSON  # as Discord returns it (ids, version, application_id ...)
    guild_id: int | None

    @property
    def name(self) -> str:
        return str(self.payload["name"])

    @property
    def type(self) -> int:
        return int(self.payload.get("type", 1))


@dataclass
class FakeInteraction:
    """One interaction sent to the bot and everything the bot did with its token."""

    id: int
    token: str
    type: int
    user_id: int
    channel_id: int
    guild_id: int | None
    created_at: float
    payload: JSON
    source_message_id: int | None = None  # the message a component sat on
    response_type: int | None = None
    responded_at: float | None = None
    response_body: JSON | None = None
    original_message_id: int | None = None
    followup_ids: list[int] = field(default_factory=list)
    modal: JSON | None = None
    autocomplete_choices: list[JSON] | None = None
    responded: asyncio.Event = field(default_factory=asyncio.Event)
    #: First responses refused for coming after :data:`RESPONSE_WINDOW`.
    late_attempts: int = 0

    @property
    def late(self) -> bool:
        """A first response came after Discord's 3 s (refused with 404 ``10062``)."""
        return self.late_attempts > 0

    def past_response_window(self, now: float) -> bool:
        """Discord takes the first response within 3 s of the interaction's creation."""
        return now - self.created_at > RESPONSE_WINDOW

    def expired(self, now: float) -> bool:
        """The interaction token (followups, edits of the original) lives 15 minutes."""
        return now - self.created_at > TOKEN_LIFETIME


@dataclass
class Violation:
    """A request the fake refused because real Discord would have refused it."""

    method: str
    path: str
    field: str
    message: str


@dataclass
class RecordedRequest:
    method: str
    path: str
    status: int
    body: JSON | list[Any] | None
    at: float = field(default_factory=time.monotonic)  # when the fake answered it
