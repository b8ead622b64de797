"""A message's components as Discord's JSON: what every message the bot renders hands to
:mod:`bot.delivery.message_writes`, which sends them."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Protocol

import discord


class Components(Protocol):
    """What discord.py reads of a view when it sends an edit: a ``discord.ui.View``, or a
    message's rows written as JSON directly (:class:`ComponentRows`)."""

    def to_components(self) -> list[dict[str, Any]]: ...

    def has_components_v2(self) -> bool: ...


class ComponentRows:
    """A message's action rows, ready as Discord's JSON. Messages are rebuilt on every change
    and discord.py's ``View`` of a dozen dynamic items took ~150 µs to build, for a message
    whose clicks are dispatched by custom id anyway. Edits take it where discord.py takes a
    view (they call only ``to_components`` and ``has_components_v2``); a new message, which
    discord.py keeps a view of, gets :meth:`as_view`."""

    def __init__(
        self, rows: Sequence[Sequence[dict[str, Any]]], build: Callable[[], discord.ui.View]
    ) -> None:
        self._rows = rows
        self._build = build

    def to_components(self) -> list[dict[str, Any]]:
        # copies: the rows may be shared by later messages (cached), discord.py may keep these
        return [{"type": 1, "components": [dict(c) for c in row]} for row in self._rows]

    def has_components_v2(self) -> bool:
        return False

    def as_view(self) -> discord.ui.View:
        """The same rows as discord.py's ``View`` of the message's dynamic items."""
        return self._build()
