"""The one place where the fake accepts more than Discord's published description: each spot
where the description is stricter than Discord's own documented behaviour, with the reason.

Applied to a copy of the pinned subset when it is loaded (:func:`relaxed`); the pinned file
itself stays exactly as upstream publishes it. docs/fake_discord.md lists the same relaxations.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Any

_SNOWFLAKE = {"$ref": "#/components/schemas/SnowflakeType"}


def _snowflake_or_integer(*, nullable: bool = False) -> dict[str, Any]:
    """The description's snowflake string, or the non-negative integer Discord takes as well
    (``nullable``: or null, where the description allows it)."""
    null: list[dict[str, Any]] = [{"type": "null"}] if nullable else []
    return {"anyOf": [*null, _SNOWFLAKE, {"type": "integer", "minimum": 0}]}


@dataclass(frozen=True)
class Relaxation:
    name: str
    #: JSON pointer into the subset of the schema that is replaced.
    pointer: str
    #: What Discord accepts there (the description's own schema stays as one of the choices).
    accepts: dict[str, Any]
    reason: str


RELAXATIONS: tuple[Relaxation, ...] = (
    Relaxation(
        name="attachment placeholder id",
        pointer="/components/schemas/MessageAttachmentRequest/properties/id",
        accepts=_snowflake_or_integer(),
        reason=(
            "A new upload is named in `attachments` by its `files[n]` index, and discord.py "
            'sends it as the integer (`"id": 0`), as does Discord\'s own upload example '
            '(developers/reference.mdx, "Uploading Files"); the description types it as a '
            "snowflake string."
        ),
    ),
    Relaxation(
        name="allowed mentions user ids as integers",
        pointer="/components/schemas/MessageAllowedMentionsRequest/properties/users/items",
        accepts=_snowflake_or_integer(nullable=True),
        reason=(
            "discord.py writes `AllowedMentions(users=[...])` as JSON integers and Discord "
            "honours them (the same integer snowflakes as the DM recipient below); the "
            "description types the items as snowflake strings."
        ),
    ),
    Relaxation(
        name="DM recipient as an integer",
        pointer="/components/schemas/CreatePrivateChannelRequest/properties/recipient_id",
        accepts=_snowflake_or_integer(),
        reason=(
            'discord.py opens every DM with `{"recipient_id": <int>}` and Discord opens it: '
            'snowflakes are integers to Discord (developers/reference.mdx, "Snowflakes": '
            '"Internally, Discord stores IDs as integer snowflakes"), written as strings only '
            "in what it returns; the description types the field as a snowflake string."
        ),
    ),
)


def _parent(root: dict[str, Any], pointer: str) -> tuple[dict[str, Any], str]:
    parts = [p.replace("~1", "/").replace("~0", "~") for p in pointer.lstrip("/").split("/")]
    node: Any = root
    for part in parts[:-1]:
        node = node[part]
    if parts[-1] not in node:
        raise KeyError(f"relaxation target {pointer} is not in the subset")
    return node, parts[-1]


def relaxed(subset: dict[str, Any]) -> dict[str, Any]:
    """A copy of ``subset`` with every relaxation applied."""
    result = copy.deepcopy(subset)
    for relaxation in RELAXATIONS:
        node, key = _parent(result, relaxation.pointer)
        node[key] = relaxation.accepts
    return result
