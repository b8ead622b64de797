"""Every declared rule option (durak_core.rule_options) in the bot, option by option rather than
preset by preset: its names and lines in every catalogue, its `/durak new` option, and a line of
`/durak rules` for it in any combination the rules allow."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings

from bot.cogs.new_table import NEW_OPTIONS, NewTable
from bot.text import CATALOGUES, t
from bot.ui.card_words import card_text, event_line
from bot.ui.rules_text import rule_names, rules_text
from durak_core import Card, RulesError, RuleSet
from durak_core.rule_options import RuleOption
from durak_core.rules import OPTIONS
from tests.bot.helpers import running_bot, table_of, world
from tests.durak_core.helpers import v18_attacked
from tests.durak_core.strategies import option_tables
from tests.fake_discord.command_size import levels

LANGS = ("en", "es", "de", "ru", "uk")


@pytest.mark.parametrize("option", OPTIONS, ids=lambda o: o.rule)
def test_every_option_has_its_texts_in_every_language(option: RuleOption) -> None:
    keys = [option.name_key] + ([option.line_key] if option.placement != "in" else [])
    if option.choices:  # an option of /durak new
        keys += [option.description_key, f"pname.{option.command}"]
    elif option.command:  # a switch, named in /durak new variants:
        keys += [option.short_key]
    for lang in LANGS:
        missing = [key for key in keys if key not in CATALOGUES[lang]]
        assert missing == [], (lang, option.rule)


def test_durak_new_offers_the_switches_in_one_option_in_the_old_order() -> None:
    switches = [o.command for o in OPTIONS.commands if not o.choices]
    assert len(switches) >= 11 and not set(switches) & set(NEW_OPTIONS)
    # the order users and tests know; a rule option with choices after deck
    assert NEW_OPTIONS == (
        "preset", "variants", "deck", "seats", "timer", "ai_seats", "ai_level", "thread",
        "language", "anyone_adds_ai", "practice",
    )  # fmt: skip


async def test_durak_new_sets_every_command_option(tmp_path: Path) -> None:
    """Each switch through ``variants`` (with what it needs), each option with choices by its
    own option; the table's rules have it, and its rule id is among their differences."""
    async with world(tmp_path) as w, running_bot(w) as bot:
        for option in OPTIONS.commands:
            if option.choices:
                value = next(v for v in option.choices if v != option.off)
                asked: dict[str, object] = {option.command: value}
            else:
                needed = [OPTIONS.by_rule[rule].command for rule in option.needs]
                asked = {"variants": ", ".join([option.command, *needed])}
            await w.fake.slash(w.alice, w.channel, "durak", "new", options=asked)
            rules = table_of(bot, w.channel).rules
            assert option.is_set(getattr(rules, option.field)), option.rule
            assert option.rule in [d.split()[0] for d in rules.differences()]
            await w.fake.slash(w.alice, w.channel, "durak", "cancel")


async def test_durak_new_has_at_most_20_options_as_synced(tmp_path: Path) -> None:
    """Issue #45: Discord allows 25 options a level; /durak new keeps room for five more."""
    async with world(tmp_path) as w, running_bot(w):
        durak = w.fake.commands(w.guild)["durak"]
        counts = dict(levels(durak))
        assert counts["durak new"] == len(NEW_OPTIONS) <= 20


@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
@given(option_tables())
@pytest.mark.slow
def test_the_rules_text_has_a_line_for_every_option_set(table: tuple[RuleSet, int]) -> None:
    rules, _ = table
    for lang in LANGS:
        text = rules_text(rules, 0, lang)
        names = rule_names(rules, lang)
        for option in OPTIONS:
            value = getattr(rules, option.field)
            if not option.is_set(value):
                continue
            assert any(name.startswith(f"{option.rule} ") for name in names), (lang, option)
            if option.placement == "in":  # the section's line states the value (V2, V3)
                assert str(len(rules.deck()) if option.field == "deck_size" else value) in text
            else:
                params = {option.param: value} if option.param else {}
                assert t(option.line_key, lang, **params) in text, (lang, option.rule)


def test_a_shown_trump_has_its_own_log_line() -> None:
    """V18: the show is its own action, worded apart from a transfer that plays the trump."""
    g, _ = v18_attacked()
    _, shown = g.apply(1, "show 6H")
    _, played = g.apply(1, "transfer 6H")
    for lang in LANGS:
        card = card_text(Card.parse("6H"), lang)
        lines = [event_line(e, ["Ann", "Bob", "Cid"], lang) for e in shown]
        assert lines == [t("log.show", lang, name="Bob", card=card)], lang
        lines = [event_line(e, ["Ann", "Bob", "Cid"], lang) for e in played]
        assert lines == [t("log.transfer", lang, name="Bob", card=card)], lang


def test_an_option_played_with_one_deck_says_so_once() -> None:
    """V15, V16 (#49: the deck an option needs is declared once, ``RuleOption.deck``): the rule
    set refuses it with another deck, naming its rule; the bot's /durak new brings it."""
    assert {o.rule for o in OPTIONS.with_deck} == {"V15", "V16"}
    for needs in OPTIONS.with_deck:
        wrong = next(size for size in (24, 36, 52) if size != needs.deck)
        with pytest.raises(RulesError, match=needs.rule):
            RuleSet.from_options({"deck_size": wrong, needs.field: needs.on})
        asked = NewTable.asked(preset="quick", variants=needs.command)  # quick: 24 cards
        assert asked.rules().deck_size == needs.deck
