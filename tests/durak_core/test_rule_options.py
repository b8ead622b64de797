"""The rule options' declarations (durak_core.rule_options): every option, not every preset, is
checked here, so an option missing a piece fails a test. The bot's side of each option is
checked in tests/bot/cogs/test_rule_options_bot.py."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from durak_core import PRESETS, RulesError, RuleSet, new_game
from durak_core.rule_options import RuleOption
from durak_core.rules import OPTIONS

from .strategies import option_tables

RULES_DOC = Path(__file__).resolve().parents[2] / "docs" / "rules.md"
SHORT_GAME = 80  # actions: enough to deal, open, beat, take, transfer and draw


def with_option(option: RuleOption) -> RuleSet:
    """Classic with ``option`` set (and what it needs), at a deck size it allows."""
    changes: dict[str, object] = {option.field: option.on if not option.values else None}
    if option.values:
        changes[option.field] = next(v for v in reversed(option.values) if v != option.off)
    for rule in option.needs:
        needed = OPTIONS.by_rule[rule]
        changes[needed.field] = needed.on
    for deck in (36, 52, 24):
        try:
            return RuleSet(**{"deck_size": deck, **changes})  # type: ignore[arg-type]
        except RulesError:
            continue
    raise AssertionError(f"{option.rule} builds no rule set")


@pytest.mark.parametrize("option", OPTIONS, ids=lambda o: o.rule)
def test_every_option_is_a_field_with_its_classic_value(option: RuleOption) -> None:
    assert getattr(RuleSet(), option.field) == option.off
    assert option.rule in OPTIONS.by_rule and OPTIONS.by_rule[option.rule] is option


@pytest.mark.parametrize("option", OPTIONS, ids=lambda o: o.rule)
def test_every_option_is_named_in_the_differences(option: RuleOption) -> None:
    rules = with_option(option)
    assert any(d.startswith(f"{option.rule} ") for d in rules.differences())
    assert option.rule in rules.describe()


@pytest.mark.parametrize("option", OPTIONS, ids=lambda o: o.rule)
def test_every_option_is_defined_in_docs_rules(option: RuleOption) -> None:
    assert re.search(rf"^- {option.rule} ", RULES_DOC.read_text(), re.MULTILINE)


@pytest.mark.parametrize(
    ("option", "other"),
    [(o, OPTIONS.by_rule[rule]) for o in OPTIONS for rule in o.conflicts],
    ids=lambda o: o.rule,
)
def test_conflicting_options_are_refused_naming_both(option: RuleOption, other: RuleOption) -> None:
    with pytest.raises(RulesError) as refused:
        RuleSet(**{option.field: option.on, other.field: other.on})  # type: ignore[arg-type]
    assert option.rule in str(refused.value) and other.rule in str(refused.value)


@pytest.mark.parametrize(
    ("option", "needed"),
    [(o, OPTIONS.by_rule[rule]) for o in OPTIONS for rule in o.needs],
    ids=lambda o: o.rule,
)
def test_an_option_without_what_it_needs_is_refused(option: RuleOption, needed: RuleOption) -> None:
    with pytest.raises(RulesError, match=f"{option.rule}.*{needed.rule}"):
        RuleSet(**{option.field: option.on})  # type: ignore[arg-type]


@settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
@given(option_tables(), st.integers(min_value=0, max_value=2**32))
@pytest.mark.slow
def test_every_allowed_combination_plays_without_invariant_violations(
    table: tuple[RuleSet, int], play_seed: int
) -> None:
    rules, seats = table
    rng = random.Random(play_seed)
    s = new_game(rules, seats, seed=rng.getrandbits(256))
    assert s.status() == ()
    for _ in range(SHORT_GAME):
        if s.finished:
            break
        seat, action = rng.choice(s.legal_moves())
        s, _ = s.apply(seat, action)
        assert s.status() == (), (rules.differences(), seats)


def test_the_presets_listed_in_docs_rules_name_their_options() -> None:
    """docs/rules.md, "Presets": every preset, with the ids of the options it sets."""
    text = RULES_DOC.read_text()
    listing = " ".join(text[text.index("## Presets") : text.index("Conflicting options")].split())
    for name, rules in PRESETS.items():
        found = re.search(rf"`{re.escape(name)}`(?: \(([^)]*)\))?", listing)
        assert found, name
        ids = [d.split()[0] for d in rules.differences() if not d.startswith("V2 ")]
        assert all(rule in (found.group(1) or "") for rule in ids), (name, ids)
