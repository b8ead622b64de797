"""``/durak new variants:``: every switch by every name it takes, the refusals of a list it
cannot take, the suggestions while it is typed; and the command answering both (issue #45)."""

from __future__ import annotations

import doctest
from pathlib import Path

import pytest

from bot.cogs import variant_names
from bot.cogs.variant_names import (
    MAX_SUGGESTIONS,
    MAX_VALUE,
    NAMES,
    SWITCHES,
    VariantsError,
    parse,
    suggest,
    valid_names,
)
from bot.text import LANGUAGES, t
from durak_core.rule_options import RuleOption
from durak_core.rules import OPTIONS
from tests.bot.helpers import running_bot, table_of, world


def refusal(text: str) -> VariantsError:
    with pytest.raises(VariantsError) as caught:
        parse(text)
    return caught.value


def test_the_modules_examples() -> None:
    result = doctest.testmod(variant_names)
    assert result.attempted >= 5 and result.failed == 0


def test_the_switches_are_the_yes_no_options_of_durak_new() -> None:
    assert [o.command for o in SWITCHES] == [o.command for o in OPTIONS.commands if not o.choices]
    assert {"transfer", "jokers", "show_trump", "teams"} <= {o.command for o in SWITCHES}


@pytest.mark.parametrize("option", SWITCHES, ids=lambda o: o.rule)
def test_every_switch_by_every_name_in_any_case(option: RuleOption) -> None:
    names = [option.command, option.rule, option.rule.lower()]
    names += [t(option.short_key, lang).upper() for lang in LANGUAGES]
    for name in names:
        assert parse(name) == {option.command: True}, name
        assert parse(f" -{name} ") == {option.command: False}, name


def test_no_name_is_shared_by_two_switches() -> None:
    assert {name: len(named) for name, named in NAMES.items() if len(named) > 1} == {}


def test_spaces_dashes_and_underscores_are_alike_and_empty_pieces_ignored() -> None:
    assert parse("show trump, First-Five,,  ") == {"show_trump": True, "first_five": True}
    assert parse("") == {}


def test_an_unknown_piece_is_refused_by_name() -> None:
    error = refusal("transfer, wings")
    assert (error.key, error.piece) == ("err.variant_unknown", "wings")
    assert refusal("-").key == "err.variant_unknown"
    long = refusal("x" * 300).piece
    assert len(long) == variant_names.MAX_QUOTED and long.endswith("…")


def test_a_repeated_or_contradicted_switch_is_refused_with_both_pieces() -> None:
    error = refusal("transfer, jokers, V1")
    assert (error.key, error.piece, error.other) == ("err.variant_repeated", "V1", "transfer")
    error = refusal("переводной, -transfer")
    assert (error.key, error.piece, error.other) == ("err.variant_both", "-transfer", "переводной")


def test_a_name_of_two_switches_is_ambiguous(monkeypatch: pytest.MonkeyPatch) -> None:
    both = (OPTIONS.by_rule["V1"], OPTIONS.by_rule["V15"])
    monkeypatch.setattr(variant_names, "NAMES", {**NAMES, "tj": both})
    assert refusal("tj").key == "err.variant_ambiguous"


def test_the_refusals_name_every_switch_in_the_readers_language() -> None:
    for lang in LANGUAGES:
        names = valid_names(lang)
        assert all(t(o.short_key, lang) in names for o in SWITCHES), lang
        for key in ("unknown", "ambiguous", "repeated", "both"):
            text = t(f"err.variant_{key}", lang, piece="wings", other="V1", names=names)
            assert "wings" in text and names in text and "{" not in text, (lang, key)
    assert "переводной (transfer)" in valid_names("ru") and "transfer," in valid_names("en")


def test_suggestions_complete_the_last_piece_in_the_users_language() -> None:
    for lang in LANGUAGES:
        every = suggest("", lang)
        assert every == [t(o.short_key, lang) for o in SWITCHES], lang
    assert suggest("transfer, jo", "en") == ["transfer, jokers"]
    assert suggest("Transfer,jok", "ru") == ["Transfer, джокеры"]  # any language's name begins it
    assert suggest("V15, -jo", "en") == []  # V15 is listed: not suggested again
    assert suggest("-tra", "en") == ["-transfer"]
    listed = suggest("transfer, jokers, ", "de")
    assert len(listed) == len(SWITCHES) - 2
    assert not any(s.endswith((", weitergeben", ", joker")) for s in listed)
    assert suggest("wings, V", "en") == [f"wings, {t(o.short_key, 'en')}" for o in SWITCHES]


def test_suggestions_fit_discords_limits_and_parse_back() -> None:
    assert len(suggest("", "uk")) <= MAX_SUGGESTIONS
    near = "x" * 90 + ", "
    assert all(len(s) <= MAX_VALUE for s in suggest(near, "ru"))
    assert 0 < len(suggest(near, "ru")) < len(SWITCHES)  # the shorter names still fit
    for lang in LANGUAGES:
        head = "teams, "
        for value in suggest(head, lang):
            chosen = parse(value)
            assert chosen.pop("teams") and len(chosen) == 1, value


async def test_durak_new_refuses_a_list_it_cannot_take_and_opens_nothing(tmp_path: Path) -> None:
    async with world(tmp_path) as w:
        ivan = w.fake.add_user("ivan", locale="ru")
        async with running_bot(w) as bot:
            bad = await w.fake.slash(
                ivan, w.channel, "durak", "new", options={"variants": "переводной, крылья"}
            )
            assert bad.ephemeral and bad.content.startswith("Стол не открыт")
            assert "«крылья»" in bad.content and "джокеры (jokers)" in bad.content
            assert bot.service.registry.in_channel(w.channel) is None
            # -name switches off a preset's switch (V1 of the preset "transfer")
            await w.fake.slash(
                ivan, w.channel, "durak", "new", options={"preset": "transfer", "variants": "-V1"}
            )
            assert not table_of(bot, w.channel).rules.transfer
            assert w.fake.violations == []


async def test_durak_new_suggests_variants_while_they_are_typed(tmp_path: Path) -> None:
    async with world(tmp_path) as w:
        ivan = w.fake.add_user("ivan", locale="ru")
        async with running_bot(w):
            typed = {"variants": "transfer, джо"}
            got = await w.fake.autocomplete(
                ivan, w.channel, "durak", "new", focused="variants", options=typed
            )
            assert got == [{"name": "transfer, джокеры", "value": "transfer, джокеры"}]
            got = await w.fake.autocomplete(w.alice, w.channel, "durak", "new", focused="variants")
            assert [c["value"] for c in got] == [o.command for o in SWITCHES]
