"""``/durak new``'s options: their choices, and what they ask for (a RuleSet, the table's
language, its seats and timer)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from discord import app_commands

from bot.tables.table import MAX_SEATS
from bot.text import LANGUAGES
from bot.text import language as lang_of
from bot.text.translator import ls
from durak_core import PRESETS, RuleSet, preset
from durak_core.ai import Level

#: Every engine preset, named in the reader's language (≤ 25 choices).
PRESET_CHOICES = [app_commands.Choice(name=ls(f"preset.{name}"), value=name) for name in PRESETS]
LANGUAGE_CHOICES = [app_commands.Choice(name=ls(f"lang.{lang}"), value=lang) for lang in LANGUAGES]
LEVEL_CHOICES = [
    app_commands.Choice(name=ls(f"level.{level}"), value=level.value)
    for level in (Level.EASY, Level.NORMAL, Level.HARD)
]
#: Boolean options that map one to one onto RuleSet fields (V1, V4, V5, V11–V16).
RULE_FLAGS = {
    "transfer": "transfer",
    "first_five": "first_bout_five",
    "neighbours": "neighbours_only",
    "no_trump": "no_trump",
    "crazy": "crazy",
    "diamonds_apart": "diamonds_apart",
    "changing_trump": "changing_trump",
    "jokers": "jokers",
    "double_deck": "double_deck",
}


@dataclass(frozen=True, slots=True)
class NewTable:
    """What ``/durak new`` was asked for, with the command's defaults (None: the preset's or the
    server's default)."""

    preset: str = "classic"
    transfer: bool | None = None
    deck: Literal[24, 36, 52] | None = None
    first_five: bool | None = None
    neighbours: bool | None = None
    teams: bool | None = None
    seats: int = MAX_SEATS
    timer: int | None = None
    ai_seats: int = 0
    ai_level: str = Level.NORMAL.value
    thread: bool = False
    language: str | None = None
    no_trump: bool | None = None
    crazy: bool | None = None
    diamonds_apart: bool | None = None
    changing_trump: bool | None = None
    jokers: bool | None = None
    double_deck: bool | None = None
    anyone_adds_ai: bool = False

    def rules(self) -> RuleSet:
        """The preset with the options given; raises ``RulesError`` for a combination the
        rules refuse."""
        changes: dict[str, object] = {
            field: value
            for option, field in RULE_FLAGS.items()
            if (value := getattr(self, option)) is not None
        }
        if self.deck is not None:
            changes["deck_size"] = self.deck
        elif self.jokers:  # V15 needs the 52-card deck: asking for jokers implies it
            changes["deck_size"] = 52
        if self.teams is not None:
            changes["team_size"] = 2 if self.teams else 0
        return preset_rules(self.preset, changes)

    def public_language(self, guild_locale: object | None) -> str:
        """Public messages: the table's language option, else the server's (guild) locale."""
        return language_choice(self.language, guild_locale)

    @property
    def level(self) -> Level:
        return Level(self.ai_level)

    @property
    def ai_count(self) -> int:
        """AI seats to add at once (the host keeps a seat)."""
        return min(self.ai_seats, self.seats - 1)


#: The options in their order (their localised names and descriptions are keyed by these).
NEW_OPTIONS = tuple(NewTable.__dataclass_fields__)


def preset_rules(name: str, changes: dict[str, object]) -> RuleSet:
    rules = preset(name)
    return rules.with_options(**changes) if changes else rules


def language_choice(option: str | None, guild_locale: object | None) -> str:
    """`/durak new language:` wins; otherwise the guild's locale (English if unknown)."""
    return option if option in LANGUAGES else lang_of(guild_locale)
