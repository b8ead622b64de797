"""What a variant option of a rule set is (V1 and on): its declaration, and the registry of them.

Each option of :class:`~durak_core.rules.RuleSet` is declared once, with its field
(:func:`option`): its rule id, which options it never combines with or needs, its short name,
its ``/durak new`` option, where its line goes in the rules text, and the id its checks'
refusals cite. ``RuleSet`` validates itself from the declarations and names its differences
from them; the refusal reasons of :mod:`durak_core.legality`, the bot's ``/durak new`` options,
its rules text and the tests over every option read the registry,
:data:`durak_core.rules.OPTIONS`. Adding an option is one field (docs/architecture.md, "Adding
a rule option").

Nothing here is read per action: the engine reads a rule set's fields, and resolves them to
plain attributes once per rule set (:mod:`durak_core.precomputed`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final, Literal

#: Where an option's line goes in the rules text: its own line after the section's line
#: ("after"), in place of it ("instead"), or none because the section's line states its value
#: ("in": the deck's size, the hand size).
Placement = Literal["after", "instead", "in"]
#: V2: the deck sizes; V3: the hand sizes.
DECK_SIZES: Final = (24, 36, 52)
HAND_SIZES: Final = (4, 5, 6, 7)
#: The rules text's sections, in order (bot/ui/rules_text.py writes one line for each).
SECTIONS: Final = ("deck", "deal", "trump", "start", "throw_in", "limit", "transfer", "take", "end")


@dataclass(frozen=True, slots=True)
class RuleOption:
    """One variant option: a field of ``RuleSet`` whose value other than ``off`` is the rule."""

    #: The rule id in docs/rules.md ("V1").
    rule: str
    #: The field's value in the classic game (its default): the option is set when the value
    #: differs.
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
    #: The deck size it is played with (0: any); asked for without a deck, it brings its own.
    deck: int = 0
    #: Its name in ``/durak new`` ("": offered by the presets only). A yes/no option (a switch)
    #: is named in the command's ``variants`` list and sets the field to ``on`` (named) or
    #: ``off`` (``-name``); one with ``choices`` is an option of the command and takes the value.
    #: ``on`` is also the value its name shows with when a rule set has it off.
    command: str = ""
    on: bool | int = True
    choices: tuple[int, ...] = ()
    #: The id its checks' refusals cite ("" = its rule id).
    refusal: str = ""
    #: The ``RuleSet`` field (filled in from the field it is declared with).
    field: str = ""

    def named(self, field: str) -> RuleOption:
        return dataclasses.replace(self, field=field)

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

    @property
    def short_key(self) -> str:
        """A yes/no option's name in the catalogues as ``/durak new variants:`` takes it and
        suggests it (``переводной``)."""
        return f"pname.{self.command}"

    def is_set(self, value: object) -> bool:
        return value != self.off

    def describe(self, value: object) -> str:
        return f"{self.rule} {self.name.format(value)}"

    def from_command(self, value: bool | int) -> bool | int:
        """The field's value for the ``/durak new`` option's answer ``value``."""
        if self.choices:
            return value
        return self.on if value else self.off


def option(
    rule: str,
    off: bool | int,
    name: str,
    section: str,
    placement: Placement = "after",
    param: str = "",
    values: tuple[int, ...] = (),
    **more: Any,
) -> Any:
    """A ``RuleSet`` field, defaulting to ``off``, declared as the option ``rule`` (the other
    arguments: :class:`RuleOption`'s)."""
    declared = RuleOption(rule, off, name, section, placement, param, values, **more)
    return dataclasses.field(default=off, metadata={"option": declared})


class Registry(Sequence[RuleOption]):
    """The declared options, in rule id order, and what is looked up in them."""

    def __init__(self, options: Iterable[RuleOption]) -> None:
        self.options = tuple(sorted(options, key=lambda o: int(o.rule[1:])))
        self.by_rule: Mapping[str, RuleOption] = {o.rule: o for o in self.options}
        self.by_field: Mapping[str, RuleOption] = {o.field: o for o in self.options}
        #: The options ``/durak new`` offers, in their order.
        self.commands = tuple(o for o in self.options if o.command)
        #: The options played with one deck size only (``RuleOption.deck``).
        self.with_deck = tuple(o for o in self.options if o.deck)
        self._check()

    def __iter__(self) -> Iterator[RuleOption]:
        return iter(self.options)

    def __len__(self) -> int:
        return len(self.options)

    def __getitem__(self, index: Any) -> Any:
        return self.options[index]

    def refusal_id(self, field: str) -> str:
        """The rule id a refusal of ``field``'s checks cites."""
        return self.by_field[field].refusal_id

    def clashes(self, values: Mapping[str, object]) -> list[tuple[RuleOption, RuleOption]]:
        """Among the options set in ``values`` (field → value): each one paired with an option
        it conflicts with that is set too, or with an option it needs that is not."""
        on = {o.rule for o in self.options if o.is_set(values[o.field])}
        found: list[tuple[RuleOption, RuleOption]] = []
        for declared in self.options:
            if declared.rule not in on:
                continue
            found += [(declared, self.by_rule[r]) for r in declared.conflicts if r in on]
            found += [(declared, self.by_rule[r]) for r in declared.needs if r not in on]
        return found

    def _check(self) -> None:
        """The declarations agree: ids, fields and commands unique, conflicts and needs name
        options, sections exist."""
        commands = [o.command for o in self.commands]
        if len(self.by_rule) != len(self.options) or len(self.by_field) != len(self.options):
            raise AssertionError("two rule options share a rule id or a field")
        if len(set(commands)) != len(commands):
            raise AssertionError("two rule options share a /durak new option")
        for declared in self.options:
            if declared.section not in SECTIONS:
                raise AssertionError(f"{declared.rule}: no rules text section {declared.section}")
            for rule in (*declared.conflicts, *declared.needs):
                if rule not in self.by_rule:
                    raise AssertionError(f"{declared.rule} names an unknown option {rule}")


__all__ = ["DECK_SIZES", "HAND_SIZES", "SECTIONS", "Registry", "RuleOption", "option"]
