"""``/durak new``'s options: their choices, and what they ask for (a RuleSet, the table's
language, its seats and timer)."""

from __future__ import annotations

import inspect
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from inspect import Parameter
from typing import Any, Final, Literal, TypeVar

from discord import app_commands

from bot.domain import MAX_TURN_TIMER
from bot.tables.table import MAX_SEATS, MIN_SEATS
from bot.text import LANGUAGES
from bot.text import language as lang_of
from bot.text.translator import ls
from durak_core import PRESETS, RuleSet, preset
from durak_core.ai import Level
from durak_core.rule_options import RuleOption
from durak_core.rules import OPTIONS

from .variant_names import parse as parse_variants

#: Every engine preset, named in the reader's language (≤ 25 choices).
PRESET_CHOICES = [app_commands.Choice(name=ls(f"preset.{name}"), value=name) for name in PRESETS]
LANGUAGE_CHOICES = [app_commands.Choice(name=ls(f"lang.{lang}"), value=lang) for lang in LANGUAGES]
LEVEL_CHOICES = [
    app_commands.Choice(name=ls(f"level.{level}"), value=level.value)
    for level in (Level.EASY, Level.NORMAL, Level.HARD)
]


@dataclass(frozen=True, slots=True)
class NewTable:
    """What ``/durak new`` was asked for, with the command's defaults (None: the preset's or the
    server's default). The rule options answered are kept by their ``/durak new`` name
    (``RuleOption.command``; the yes/no ones are asked for in ``variants``); build it by keyword
    with :meth:`asked`."""

    preset: str = "classic"
    seats: int = MAX_SEATS
    timer: int | None = None
    ai_seats: int = 0
    ai_level: str = Level.NORMAL.value
    thread: bool = False
    language: str | None = None
    anyone_adds_ai: bool = False
    #: A practice table: Hard's hints in every hand, games unrated (assisted).
    practice: bool = False
    #: The rule options given (name, value); an option not given is the preset's.
    options: tuple[tuple[str, bool | int], ...] = ()

    @classmethod
    def asked(cls, **answers: Any) -> NewTable:
        """From the command's answers by name: the table's options, the rule options (None:
        not given) and ``variants``, the switches named in a text (bot/cogs/variant_names.py).
        An unknown name is a ``TypeError``, as for a call; a list ``variants`` cannot take is
        a :class:`VariantsError`."""
        answers |= parse_variants(answers.pop("variants", None) or "")
        rule_names = {option.command for option in OPTIONS.commands}
        options = tuple(
            (name, value)
            for name, value in answers.items()
            if name in rule_names and value is not None
        )
        table = {name: value for name, value in answers.items() if name not in rule_names}
        return cls(**table, options=options)

    def option(self, name: str) -> bool | int | None:
        """The rule option ``name``'s answer, or None if it was not given."""
        return dict(self.options).get(name)

    def rules(self) -> RuleSet:
        """The preset with the options given; raises ``RulesError`` for a combination the
        rules refuse."""
        changes: dict[str, object] = {
            option.field: option.from_command(value)
            for option in OPTIONS.commands
            if (value := self.option(option.command)) is not None
        }
        if self.option("deck") is None:  # an option played with one deck brings it (V15, V16)
            for needs in OPTIONS.with_deck:
                if needs.command and self.option(needs.command):
                    changes["deck_size"] = needs.deck
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


def _table_parameter(name: str, annotation: object, default: object) -> Parameter:
    return Parameter(name, Parameter.KEYWORD_ONLY, default=default, annotation=annotation)


def _choice_parameter(option: RuleOption) -> Parameter:
    kind: Any = Literal.__getitem__(option.choices)
    return _table_parameter(option.command, kind | None, None)


#: ``variants``: the yes/no rule options, named in one text (bot/cogs/variant_names.py), so that
#: a new switch adds no option (Discord allows 25 a level). Long enough for every switch by its
#: longest name; a refusal quotes a piece of it, cut.
VARIANTS: Final = _table_parameter("variants", app_commands.Range[str, 1, 300] | None, None)

#: ``/durak new``'s options in the order users know: the preset, the switches, each rule option
#: with choices (a new one after ``deck``), then the table's.
NEW_PARAMETERS: Final = (
    _table_parameter("preset", str, "classic"),
    VARIANTS,
    *(_choice_parameter(option) for option in OPTIONS.commands if option.choices),
    _table_parameter("seats", app_commands.Range[int, MIN_SEATS, MAX_SEATS], MAX_SEATS),
    _table_parameter("timer", app_commands.Range[int, 0, MAX_TURN_TIMER] | None, None),
    _table_parameter("ai_seats", app_commands.Range[int, 0, MAX_SEATS - 1], 0),
    _table_parameter("ai_level", str, Level.NORMAL.value),
    _table_parameter("thread", bool, False),
    _table_parameter("language", str | None, None),
    _table_parameter("anyone_adds_ai", bool, False),
    _table_parameter("practice", bool, False),
)
#: The options in their order (their localised names and descriptions are keyed by these).
NEW_OPTIONS: Final = tuple(p.name for p in NEW_PARAMETERS)
#: The numbers an option's description states, from where they are defined.
OPTION_FACTS: Final[dict[str, dict[str, object]]] = {"seats": {"min": MIN_SEATS, "max": MAX_SEATS}}

_Callback = TypeVar("_Callback", bound=Callable[..., Awaitable[None]])


def new_table_options(callback: _Callback) -> _Callback:
    """Give ``callback(self, interaction, **answers)`` ``/durak new``'s parameters: discord.py
    reads a command's options from its callback's signature, so the rule options' declarations
    become the command's options (those with choices; the switches are named in ``variants``)."""
    head = list(inspect.signature(callback).parameters.values())[:2]
    callback.__signature__ = inspect.Signature([*head, *NEW_PARAMETERS])  # type: ignore[attr-defined]
    return callback


def preset_rules(name: str, changes: dict[str, object]) -> RuleSet:
    rules = preset(name)
    return rules.with_options(**changes) if changes else rules


def language_choice(option: str | None, guild_locale: object | None) -> str:
    """`/durak new language:` wins; otherwise the guild's locale (English if unknown)."""
    return option if option in LANGUAGES else lang_of(guild_locale)
