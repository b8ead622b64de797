"""What a message's ``allowed_mentions`` lets Discord ping, and the product's rule on it.

Discord parses every mention in a message's content (``@everyone``, ``@here``, roles, users)
unless the message says otherwise; a bot that shows names from Discord (display names,
tournament names) without stating ``allowed_mentions`` pings whatever a member names
themselves. Discord accepts that, so the fake does not refuse it: it *flags* it, and a test
run with ``fail_on_violations`` fails on the flag. The rule (issue #45): every send and edit
states its allowed mentions, never everyone/here nor roles, and users only by id.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .model import COMPONENTS_V2

Problem = tuple[str, str]


def mention_problems(body: Mapping[str, Any], prefix: str = "") -> list[Problem]:
    """Why ``body`` (a message create or edit) could ping more than it means to.

    >>> mention_problems({"content": "hi"})[0][0]
    'allowed_mentions'
    >>> mention_problems({"embeds": [{"title": "@everyone"}]})  # embeds never ping
    []
    >>> mention_problems({"allowed_mentions": {"parse": []}})
    []
    >>> mention_problems({"allowed_mentions": {"parse": [], "users": ["1"]}})
    []
    >>> [m for _, m in mention_problems({"allowed_mentions": {"parse": ["everyone"]}})]
    ['allows @everyone and @here pings']
    """
    path = f"{prefix}allowed_mentions"
    allowed = body.get("allowed_mentions")
    if allowed is None:
        if not _may_ping(body):  # Discord parses mentions only where text is written
            return []
        return [(path, "not stated: Discord would ping everyone, roles and users named in it")]
    parse = allowed.get("parse") or []
    problems: list[Problem] = []
    if "everyone" in parse:
        problems.append((path, "allows @everyone and @here pings"))
    if "roles" in parse or allowed.get("roles"):
        problems.append((path, "allows role pings"))
    if "users" in parse:
        problems.append((path, "allows pinging any user named in it; name the users by id"))
    return problems


def _may_ping(body: Mapping[str, Any]) -> bool:
    """Whether the body writes text Discord parses for mentions: content, or the text
    displays of a components-v2 message (an edit without them leaves the mentions as they
    were, and discord.py then sends no ``allowed_mentions``)."""
    return bool(body.get("content")) or bool(int(body.get("flags") or 0) & COMPONENTS_V2)
