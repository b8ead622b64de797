"""A table asked for without a slash command (the Activity's form): where, by whom, and
``/durak new``'s main options. The chat side opens it (bot/cogs/table_opening.py)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class OpenRequest:
    guild_id: int | None
    channel_id: int
    #: The host: user id, name, Discord avatar hash.
    host: tuple[int, str, str | None]
    preset: str
    seats: int
    timer: int | None
    ai_seats: int
    ai_level: str
    language: str | None
    #: The rule options given, by their ``/durak new`` name (durak_core.rule_options).
    options: tuple[tuple[str, bool | int], ...] = ()
