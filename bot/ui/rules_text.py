"""The rules of a table in words, generated from its RuleSet in the reader's language.

Every RuleSet field contributes: a line for the classic behaviour when the option is off (deck,
deal, trump, start, throw-in, limit, transfer, take, end) and the variant's own line when it is
on, so `/durak rules` always describes exactly the game the engine plays (docs/rules.md).
"""

from __future__ import annotations

import functools
import re

from bot.tables.refusals import Refusal, Rejected
from bot.text import t
from durak_core import PRESETS, RuleSet
from durak_core.cards import ACE

from .card_words import rank_label

_RULE_ID = re.compile(r"\b([RV]\d{1,2})\b")


def preset_name(rules: RuleSet, loc: str | None = None) -> str:
    """The preset's name in the reader's language ("custom" once options changed it)."""
    name = rules.name if rules.name in PRESETS and PRESETS[rules.name] == rules else "custom"
    return t(f"preset.{name}", loc)


def rule_names(rules: RuleSet, loc: str | None = None) -> list[str]:
    """Short names of the options that differ from classic, each with its rule id."""
    checks: list[tuple[bool, str, dict[str, object]]] = [
        (rules.transfer, "V1", {}),
        (rules.deck_size != 36, "V2", {"n": rules.deck_size}),
        (rules.hand_size != 6, "V3", {"n": rules.hand_size}),
        (rules.first_bout_five, "V4", {}),
        (rules.neighbours_only, "V5", {}),
        (not rules.throw_in_after_take, "V6", {}),
        (bool(rules.team_size), "V7", {"size": rules.team_size}),
        (rules.trump_exchange, "V8", {}),
        (rules.unlimited_bout, "V9", {}),
        (rules.under_the_fool, "V10", {}),
        (rules.no_trump, "V11", {}),
        (rules.crazy, "V12", {}),
        (rules.diamonds_apart, "V13", {}),
        (rules.changing_trump, "V14", {}),
        (rules.jokers, "V15", {}),
        (rules.double_deck, "V16", {}),
        (bool(rules.series_losses), "V17", {"n": rules.series_losses}),
    ]
    return [f"{rid} {t(f'rname.{rid}', loc, **params)}" for on, rid, params in checks if on]


# Every table message and lobby shows it; a table's rules never change during a game.
@functools.lru_cache(maxsize=256)
def rules_summary(rules: RuleSet, loc: str | None = None) -> str:
    """One line for the lobby and the table message."""
    name = preset_name(rules, loc)
    diffs = rule_names(rules, loc)
    if not diffs:
        deck, hand = t("rname.V2", loc, n=rules.deck_size), t("rname.V3", loc, n=rules.hand_size)
        return t("summary.classic", loc, name=name, deck=deck, hand=hand)
    return t("summary.line", loc, name=name, diffs=", ".join(diffs))


def rules_text(rules: RuleSet, turn_timer: int, loc: str | None = None) -> str:
    """The full rules of a table, one line per rule, every option reflected."""
    count = len(rules.deck())
    lines = [
        f"__{rules_summary(rules, loc)}__",
        t(
            "rules.deck",
            loc,
            n=count,
            low=rank_label(rules.lowest_rank, loc),
            high=rank_label(ACE, loc),
        ),
    ]
    if rules.jokers:
        lines.append(t("rules.V15", loc))
    if rules.double_deck:
        lines.append(t("rules.V16", loc))
    lines.append(t("rules.deal", loc, n=rules.hand_size))
    if rules.no_trump:
        lines.append(t("rules.V11", loc))
    elif rules.crazy:
        lines.append(t("rules.V12", loc))
    else:
        lines.append(t("rules.trump", loc))
        if rules.diamonds_apart:
            lines.append(t("rules.V13", loc))
    if rules.changing_trump:
        lines.append(t("rules.V14", loc))
    if rules.trump_exchange:
        lines.append(t("rules.V8", loc))
    lines.append(t("rules.start_dealer" if rules.no_trump else "rules.start", loc))
    if rules.under_the_fool:
        lines.append(t("rules.V10", loc))
    lines.append(t("rules.V5" if rules.neighbours_only else "rules.throw_in", loc))
    if rules.unlimited_bout:
        lines.append(t("rules.V9", loc))
    else:
        lines.append(t("rules.limit", loc, n=rules.hand_size))
    if rules.first_bout_five:
        lines.append(t("rules.V4", loc))
    lines.append(t("rules.V1" if rules.transfer else "rules.no_transfer", loc))
    lines.append(t("rules.take" if rules.throw_in_after_take else "rules.V6", loc))
    if rules.team_size:
        lines.append(t("rules.V7", loc, size=rules.team_size))
    lines.append(t("rules.end", loc))
    if rules.series_losses:
        lines.append(t("rules.V17", loc, n=rules.series_losses))
    if turn_timer:
        lines.append(t("rules.timer", loc, n=turn_timer))
    return "\n".join(lines)


def reason_text(message: str, rules: RuleSet | None, loc: str | None = None) -> str:
    """An engine refusal (English, naming rule ids) as the rule ids with their local names."""
    deck, hand, size, losses = 36, 6, 2, 3
    if rules is not None:
        deck, hand = rules.deck_size, rules.hand_size
        size, losses = rules.team_size or 2, rules.series_losses
    # Each name's own parameters: a plural name selects its form by its own ``n``.
    params: dict[str, dict[str, object]] = {
        "V2": {"n": deck},
        "V3": {"n": hand},
        "V7": {"size": size},
        "V17": {"n": losses},
    }
    ids = list(dict.fromkeys(_RULE_ID.findall(message)))
    named = [
        f"{rid} {t(f'rname.{rid}', loc, **params.get(rid, {}))}"
        for rid in ids
        if f"rname.{rid}" in _KEYS
    ]
    return " + ".join(named) if named else t("why.other", loc)


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
