"""The rules of a table in words, generated from its RuleSet in the reader's language.

Every RuleSet field contributes: a line for the classic behaviour when the option is off (deck,
deal, trump, start, throw-in, limit, transfer, take, end) and the variant's own line when it is
on, so `/durak rules` always describes exactly the game the engine plays (docs/rules.md).
"""

from __future__ import annotations

import functools
import re

from bot.tables.refusals import Refusal, Rejected
from bot.tables.timers import EXPIRIES_BEFORE_AI
from bot.text import t
from durak_core import PRESETS, RuleSet
from durak_core.cards import ACE
from durak_core.rule_options import SECTIONS, RuleOption
from durak_core.rules import MAX_SEATS, MIN_SEATS, OPTIONS

from .card_words import rank_label

_RULE_ID = re.compile(r"\b([RV]\d{1,2})\b")


def preset_name(rules: RuleSet, loc: str | None = None) -> str:
    """The preset's name in the reader's language ("custom" once options changed it)."""
    name = rules.name if rules.name in PRESETS and PRESETS[rules.name] == rules else "custom"
    return t(f"preset.{name}", loc)


def rule_names(rules: RuleSet, loc: str | None = None) -> list[str]:
    """Short names of the options that differ from classic, each with its rule id."""
    return [
        f"{option.rule} {t(option.name_key, loc, **_params(option, value))}"
        for option in OPTIONS
        if option.is_set(value := getattr(rules, option.field))
    ]


def _params(option: RuleOption, value: object) -> dict[str, object]:
    """The catalogue parameters of ``option``'s texts for its value ``value``."""
    return {option.param: value} if option.param else {}


def rules_summary(rules: RuleSet, loc: str | None = None) -> str:
    """One line for the lobby and the table message."""
    return _rules_summary(rules, rules.name, loc)


# Every table message and lobby shows it; a table's rules never change during a game. The
# preset's name is a key of its own: rule sets that differ only by it compare equal.
@functools.lru_cache(maxsize=256)
def _rules_summary(rules: RuleSet, preset: str, loc: str | None) -> str:
    name = preset_name(rules, loc)
    diffs = rule_names(rules, loc)
    if not diffs:
        deck, hand = t("rname.V2", loc, n=rules.deck_size), t("rname.V3", loc, n=rules.hand_size)
        return t("summary.classic", loc, name=name, deck=deck, hand=hand)
    return t("summary.line", loc, name=name, diffs=", ".join(diffs))


def rules_text(
    rules: RuleSet, turn_timer: int, loc: str | None = None, expiries: int = EXPIRIES_BEFORE_AI
) -> str:
    """The full rules of a table, one line per rule, every option reflected: each section's
    classic line, or the line of an option set in its place, then the lines of the options set
    after it (durak_core.rule_options); with a timer, how many expiries in a row hand a seat
    to an AI (``expiries``: bot.tables.timers.expiries_before_ai)."""
    lines = [f"__{rules_summary(rules, loc)}__"]
    set_options = [
        (option, value)
        for option in OPTIONS
        if option.is_set(value := getattr(rules, option.field))
    ]
    for section in SECTIONS:
        here = [(o, v) for o, v in set_options if o.section == section]
        instead = [t(o.line_key, loc, **_params(o, v)) for o, v in here if o.placement == "instead"]
        lines += instead or [_section_line(section, rules, loc)]
        lines += [t(o.line_key, loc, **_params(o, v)) for o, v in here if o.placement == "after"]
    if turn_timer:
        lines.append(t("rules.timer", loc, n=turn_timer, expiries=expiries))
    return "\n".join(lines)


def _section_line(section: str, rules: RuleSet, loc: str | None) -> str:
    """A section's line in the classic game (the deck and the deal state their sizes, V2/V3)."""
    if section == "deck":
        low, high = rank_label(rules.lowest_rank, loc), rank_label(ACE, loc)
        return t("rules.deck", loc, n=len(rules.deck()), low=low, high=high)
    if section in ("deal", "limit"):
        return t(f"rules.{section}", loc, n=rules.hand_size)
    if section == "start" and rules.no_trump:
        return t("rules.start_dealer", loc)  # V11: no trump to start with (R8)
    return t(_CLASSIC_LINE.get(section, f"rules.{section}"), loc)


#: The classic line's key where it is not named after its section.
_CLASSIC_LINE = {"transfer": "rules.no_transfer"}


#: The numbers a rule's short name states, from where the rules define them.
RULE_FACTS: dict[str, dict[str, object]] = {"R3": {"min": MIN_SEATS, "max": MAX_SEATS}}


def reason_text(message: str, rules: RuleSet | None, loc: str | None = None) -> str:
    """An engine refusal (English, naming rule ids) as the rule ids with their local names."""
    ids = list(dict.fromkeys(_RULE_ID.findall(message)))
    named = [f"{rid} {_rule_name(rid, rules, loc)}" for rid in ids if f"rname.{rid}" in _KEYS]
    return " + ".join(named) if named else t("why.other", loc)


def _rule_name(rid: str, rules: RuleSet | None, loc: str | None) -> str:
    """A rule's short name; an option's with its value in ``rules`` (or a typical one)."""
    option = OPTIONS.by_rule.get(rid)
    if option is None:
        return t(f"rname.{rid}", loc, **RULE_FACTS.get(rid, {}))
    value = option.off if rules is None else getattr(rules, option.field)
    if option.param and not value:
        value = option.on  # a refusal may name an option the rule set has off: "teams of 2"
    return t(option.name_key, loc, **_params(option, value))


def refusal_text(rej: Rejected, loc: str) -> str:
    """A refusal in the user's language; engine reasons are shown as local rule names."""
    params = dict(rej.params)
    if rej.kind in (Refusal.RULES_SEATS, Refusal.BAD_RULES):
        params["reason"] = reason_text(str(params.get("reason", "")), None, loc)
    if rej.kind is Refusal.ILLEGAL:
        params["why"] = why_text(str(params.get("rule", "")), loc)
    return t(rej.key, loc, **params)


def why_text(rule: str, loc: str | None = None) -> str:
    key = f"why.{rule}"
    return t(key if key in _KEYS else "why.other", loc)


def _keys() -> frozenset[str]:
    from bot.text import EN

    return frozenset(EN)


_KEYS = _keys()
