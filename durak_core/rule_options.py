"""The variant options of a rule set, each declared once (V1–V17).

One :class:`RuleOption` per option of :class:`~durak_core.rules.RuleSet` says everything the
rest of the program needs to know about it: its field and rule id, which options it never
combines with or needs, its short name, its ``/durak new`` option, where its line goes in the
rules text, and the id a refusal of one of its checks cites. ``RuleSet.differences`` and its
validation, the refusal reasons of :mod:`durak_core.legality`, the bot's ``/durak new`` options,
its rules text and the Activity's open form all read :data:`OPTIONS`; adding an option is one
entry here and one field in ``RuleSet`` (docs/architecture.md, "Adding a rule option").

Nothing here is read per action: the engine resolves a rule set to plain fields once
(:mod:`durak_core.tables`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Final, Literal

#: Where an option's line goes in the rules text: its own line after the section's line
#: ("after"), in place of it ("instead"), or none because the section's line states its value
#: ("in": the deck's size, the hand size).
Placement = Literal["after", "instead", "in"]
#: The rules text's sections, in order (bot/ui/rules_text.py writes one line for each).
#: V2: the deck sizes; V3: the hand sizes.
DECK_SIZES: Final = (24, 36, 52)
HAND_SIZES: Final = (4, 5, 6, 7)
SECTIONS: Final = ("deck", "deal", "trump", "start", "throw_in", "limit", "transfer", "take", "end")


@dataclass(frozen=True, slots=True)
class RuleOption:
    """One variant option: a field of ``RuleSet`` whose value other than ``off`` is the rule."""

    #: The rule id in docs/rules.md ("V1").
    rule: str
    #: The ``RuleSet`` field.
    field: str
    #: The field's value in the classic game: the option is set when the value differs.
    off: bool | int
    #: Its short English name (``{}``: the value), for ``RuleSet.differences``.
    name: str
    #: The rules text section its line belongs to, and how (see :data:`Placement`).
    section: str
    placement: Placement = "after"
    #: The catalogue parameter its value fills in its texts ("" for an on/off switch).
    param: str = ""
    #: The values it takes, if not a switch (False/True).
    values: tuple[int, ...] = ()
    #: Rule ids it never combines with (declared on one side of each pair).
    conflicts: tuple[str, ...] = ()
    #: Rule ids it needs.
    needs: tuple[str, ...] = ()
    #: The name of its ``/durak new`` option ("": offered by the presets only). A yes/no option
    #: sets the field to ``on`` (yes) or ``off`` (no); with ``choices`` it takes the value.
    #: ``on`` is also the value its name shows with when a rule set has it off.
    command: str = ""
    on: bool | int = True
    choices: tuple[int, ...] = ()
    #: The id its checks' refusals cite ("" = its rule id).
    refusal: str = ""

    @property
    def takes(self) -> tuple[bool | int, ...]:
        """Every value it may take."""
        return self.values or (False, True)

    @property
    def refusal_id(self) -> str:
        return self.refusal or self.rule

    @property
    def name_key(self) -> str:
        """Its short name in the catalogues."""
        return f"rname.{self.rule}"

    @property
    def line_key(self) -> str:
        """Its line of the rules text in the catalogues."""
        return f"rules.{self.rule}"

    @property
    def description_key(self) -> str:
        """The description of its ``/durak new`` option in the catalogues."""
        return f"opt.{self.command}"

    def is_set(self, value: object) -> bool:
        return value != self.off

    def describe(self, value: object) -> str:
        return f"{self.rule} {self.name.format(value)}"

    def from_command(self, value: bool | int) -> bool | int:
        """The field's value for the ``/durak new`` option's answer ``value``."""
        if self.choices:
            return value
        return self.on if value else self.off


OPTIONS: Final = (
    RuleOption("V1", "transfer", False, "transfer", "transfer", "instead", command="transfer"),
    RuleOption(
        "V2", "deck_size", 36, "{}-card deck", "deck", "in", "n", DECK_SIZES,
        command="deck", choices=DECK_SIZES,
    ),
    RuleOption("V3", "hand_size", 6, "{}-card hands", "deal", "in", "n", HAND_SIZES),
    RuleOption(
        "V4", "first_bout_five", False, "five before the first discard", "limit",
        command="first_five",
    ),
    RuleOption(
        "V5", "neighbours_only", False, "neighbours only", "throw_in", "instead",
        command="neighbours",
    ),
    RuleOption(
        "V6", "throw_in_after_take", True, "no throw-in after take", "take", "instead", on=False
    ),
    RuleOption(
        "V7", "team_size", 0, "teams of {}", "take", param="size", values=(0, 2, 3),
        command="teams", on=2,
    ),
    RuleOption("V8", "trump_exchange", False, "trump exchange", "trump"),
    RuleOption("V9", "unlimited_bout", False, "unlimited bout", "limit", "instead"),
    RuleOption("V10", "under_the_fool", False, "under the fool", "start"),
    RuleOption(
        "V11", "no_trump", False, "no trump", "trump", "instead",
        conflicts=("V12", "V13"), command="no_trump",
    ),
    RuleOption(
        "V12", "crazy", False, "crazy: clubs always trump", "trump", "instead",
        conflicts=("V13",), command="crazy",
    ),
    RuleOption(
        "V13", "diamonds_apart", False, "diamonds only against diamonds", "trump",
        command="diamonds_apart",
    ),
    RuleOption(
        "V14", "changing_trump", False, "changing trump", "trump",
        conflicts=("V8", "V11", "V12"), command="changing_trump",
    ),
    RuleOption("V15", "jokers", False, "jokers", "deck", command="jokers"),
    RuleOption("V16", "double_deck", False, "double deck", "deck", command="double_deck"),
    RuleOption(
        "V17", "series_losses", 0, "series to {} losses", "end", param="n",
        values=tuple(range(100)), on=3,
    ),
)  # fmt: skip

#: Each option by its rule id, and by its field.
BY_RULE: Final[Mapping[str, RuleOption]] = {o.rule: o for o in OPTIONS}
BY_FIELD: Final[Mapping[str, RuleOption]] = {o.field: o for o in OPTIONS}
#: The options ``/durak new`` offers, in their order.
COMMAND_OPTIONS: Final = tuple(o for o in OPTIONS if o.command)


def refusal_id(field: str) -> str:
    """The rule id a refusal of ``field``'s checks cites."""
    return BY_FIELD[field].refusal_id


def clashes(values: Mapping[str, object]) -> list[tuple[RuleOption, RuleOption]]:
    """Among the options set in ``values`` (field → value): each one paired with an option it
    conflicts with that is set too, or with an option it needs that is not."""
    on = {o.rule for o in OPTIONS if o.is_set(values[o.field])}
    found: list[tuple[RuleOption, RuleOption]] = []
    for option in OPTIONS:
        if option.rule not in on:
            continue
        found += [(option, BY_RULE[rule]) for rule in option.conflicts if rule in on]
        found += [(option, BY_RULE[rule]) for rule in option.needs if rule not in on]
    return found


def _check_declarations() -> None:
    """The table is consistent: ids and fields unique, conflicts name options, sections exist."""
    if len(BY_RULE) != len(OPTIONS) or len(BY_FIELD) != len(OPTIONS):
        raise AssertionError("two rule options share a rule id or a field")
    commands = [o.command for o in COMMAND_OPTIONS]
    if len(set(commands)) != len(commands):
        raise AssertionError("two rule options share a /durak new option")
    for option in OPTIONS:
        if option.section not in SECTIONS:
            raise AssertionError(f"{option.rule}: unknown rules text section {option.section}")
        for rule in (*option.conflicts, *option.needs):
            if rule not in BY_RULE:
                raise AssertionError(f"{option.rule} names an unknown option {rule}")


_check_declarations()

__all__ = [
    "BY_FIELD",
    "BY_RULE",
    "COMMAND_OPTIONS",
    "DECK_SIZES",
    "OPTIONS",
    "SECTIONS",
    "RuleOption",
]
