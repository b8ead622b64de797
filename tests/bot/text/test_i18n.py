"""Every user-facing string in English, Spanish, German, Russian and Ukrainian.

The catalogues agree (keys, plural messages, placeholders, nothing empty); every plural message
has exactly its language's CLDR categories and a count picks the right one; every translated
command, option and choice name satisfies Discord's rules and every description its length;
replies follow the clicking user's locale while public messages follow the guild (or the table's
language option).
"""

from __future__ import annotations

import random
import re
import string
import unicodedata
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

import discord
import pytest

from bot.domain import TableStatus
from bot.tables.table import Seat, Table
from bot.text import CATALOGUES, EN, LANGUAGES, language, t
from bot.text.catalogue import Message, plural_categories
from bot.text.translator import LOCALES, ls, translate
from bot.ui.card_words import card_text, event_line
from bot.ui.hand_view import HandContext, render_hand
from bot.ui.rules_text import rules_summary, rules_text
from bot.ui.table_embed import render_table
from durak_core import PRESETS, Card, GameState, RuleSet, new_game, preset
from durak_core.events import BoutEnded, Event
from tests.bot.helpers import public_message, running_bot, table_of, world

LANGS = ("en", "es", "de", "ru", "uk")


def placeholders(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name is not None}


def forms(message: Message) -> list[str]:
    """Every template of a message: the string, or each plural form."""
    return [message] if isinstance(message, str) else list(message.values())


def valid_name(name: str) -> bool:
    """Discord: ``^[-_\\p{L}\\p{N}\\p{sc=Deva}\\p{sc=Thai}]{1,32}$`` and lowercase."""
    ok_chars = all(
        ch in "-_" or unicodedata.category(ch)[0] in "LN" or unicodedata.category(ch) == "Mn"
        for ch in name
    )
    return 1 <= len(name) <= 32 and ok_chars and name == name.lower()


def test_catalogues_have_the_same_keys_and_placeholders() -> None:
    assert set(CATALOGUES) == set(LANGS) and LANGUAGES == LANGS
    for lang, catalogue in CATALOGUES.items():
        assert set(catalogue) == set(EN), (lang, set(catalogue) ^ set(EN))
        for key, message in catalogue.items():
            # plural in one language iff plural in all
            assert isinstance(message, dict) == isinstance(EN[key], dict), (lang, key)
            expected = placeholders(forms(EN[key])[0])
            for template in forms(message):
                assert isinstance(template, str) and template.strip(), (lang, key)
                # the same fields in every language and every plural form
                assert placeholders(template) == expected, (lang, key, template)
                template.format(**dict.fromkeys(expected, 1))  # well formed


def test_plural_messages_have_exactly_the_cldr_categories() -> None:
    plural_keys = {key for key, message in EN.items() if isinstance(message, dict)}
    assert {"table.cards", "log.taken", "hand.title", "board.wins"} <= plural_keys
    assert "table.card" not in EN  # one message, no special case for a single card
    assert plural_categories("ru") == plural_categories("uk") == {"one", "few", "many", "other"}
    assert plural_categories("en") == plural_categories("de") == {"one", "other"}
    for lang, catalogue in CATALOGUES.items():
        for key in plural_keys:
            message = catalogue[key]
            assert isinstance(message, dict)
            assert set(message) == plural_categories(lang), (lang, key, set(message))
            # a plural message selects by its count, which every form shows
            assert all("n" in placeholders(form) for form in message.values()), (lang, key)


@pytest.mark.parametrize(
    ("lang", "counts"),
    [
        ("ru", {1: "1 карта", 2: "2 карты", 5: "5 карт", 11: "11 карт", 21: "21 карта",
                22: "22 карты", 25: "25 карт", 111: "111 карт"}),
        ("uk", {1: "1 карта", 2: "2 карти", 5: "5 карт", 11: "11 карт", 21: "21 карта",
                22: "22 карти", 25: "25 карт", 111: "111 карт"}),
        ("en", {0: "0 cards", 1: "1 card", 2: "2 cards"}),
        ("de", {0: "0 Karten", 1: "1 Karte", 2: "2 Karten"}),
        ("es", {0: "0 cartas", 1: "1 carta", 2: "2 cartas"}),
    ],
)  # fmt: skip
def test_a_count_picks_its_cldr_form(lang: str, counts: dict[int, str]) -> None:
    for n, shown in counts.items():
        assert t("table.cards", lang, n=n) == shown, (lang, n)


def test_plural_forms_in_sentences() -> None:
    assert t("log.taken", "ru", name="Оля", n=21) == "Оля забирает 21 карту"
    assert t("log.taken", "uk", name="Оля", n=3) == "Оля забирає 3 карти"
    assert t("err.too_few", "ru", n=2) == "Для начала нужно хотя бы 2 игрока."
    assert t("rules.V17", "en", n=1).endswith("the Durak 1 time.")
    assert t("ok.synced", "en", n=1) == "Synced 1 command."
    assert t("ok.synced", "en", n=14) == "Synced 14 commands."
    assert t("lobby.timer", "de", n=30) == "Zeitlimit pro Zug: 30 Sekunden"
    assert t("table.cards", "es", n=1_000_000) == "1000000 de cartas"  # CLDR "many"


def test_a_plural_message_needs_its_count() -> None:
    with pytest.raises(TypeError, match=r"table\.cards"):
        t("table.cards", "ru")
    with pytest.raises(TypeError, match=r"log\.taken"):
        t("log.taken", "en", name="Bob")
    with pytest.raises(TypeError, match="number"):
        t("table.cards", "en", n="3")


def test_names_and_descriptions_obey_discords_rules() -> None:
    for lang, catalogue in CATALOGUES.items():
        for key, text in catalogue.items():
            if key.startswith(("name.", "pname.")):
                assert isinstance(text, str) and valid_name(text), (lang, key, text)
            if key.startswith(("cmd.", "opt.", "preset.", "lang.", "level.", "sort.")):
                assert 1 <= len(text) <= 100, (lang, key, len(text))
    for locale in LOCALES:
        assert translate(ls("name.new"), locale) == CATALOGUES[language(locale)]["name.new"]
    assert translate(ls("name.new"), discord.Locale.american_english) is None


def test_locales_map_to_catalogues() -> None:
    assert language("ru") == "ru" and language("es-419") == "es" and language("es-ES") == "es"
    assert language(discord.Locale.german) == "de" and language("fr") == "en"
    assert language(None) == "en"
    assert t("act.take", "ru") == "Беру" and t("act.pass", "ru") == "Бито"
    assert t("act.take", "de") == "Nehmen" and t("act.take", "es") == "Tomar"


def test_cards_as_players_say_them() -> None:
    ranks = {"en": "JQKA", "es": "JQKA", "de": "BDKA", "ru": "ВДКТ", "uk": "ВДКТ"}
    for lang, faces in ranks.items():
        shown = [card_text(Card.parse(f"{r}S"), lang) for r in "JQKA"]
        assert shown == [f"{f}♠" for f in faces], lang
        assert card_text(Card.parse("10H"), lang) == "10♥"
    # V16: the two copies of a card look the same; V15 jokers have their own names.
    assert card_text(Card.parse("7H#2"), "en") == card_text(Card.parse("7H"), "en") == "7♥"
    assert card_text(Card.parse("RJ"), "ru") == "🃏К" and card_text(Card.parse("BJ"), "de") == "🃏S"
    for lang in LANGS:  # the two jokers never look alike (uk: чорний 🃏Ч, кольоровий 🃏К)
        assert card_text(Card.parse("RJ"), lang) != card_text(Card.parse("BJ"), lang), lang
    assert t("act.take", "uk") == "Беру" and t("act.pass", "uk") == "Бито"
    assert t("table.trump", "uk") == "Козир"


@pytest.mark.parametrize("lang", LANGS)
def test_rules_text_covers_every_preset_in_every_language(lang: str) -> None:
    for name, rules in PRESETS.items():
        text = rules_text(rules, 30, lang)
        assert f"{len(rules.deck())}" in text, (lang, name)
        for rid in [d.split()[0] for d in rules.differences()]:
            if rid not in ("V2", "V3"):  # deck and hand size are stated as numbers
                assert f"({rid})" in text, (lang, name, rid)


#: How each language counts 1, 2 and 5 cards (ru/uk: one, few, many), and its log line for Bob
#: picking them up, around that count (where ru and uk say one card in the accusative).
COUNTS = {
    "en": ({1: "1 card", 2: "2 cards", 5: "5 cards"}, "Bob picks up {}"),
    "es": ({1: "1 carta", 2: "2 cartas", 5: "5 cartas"}, "Bob se lleva {}"),
    "de": ({1: "1 Karte", 2: "2 Karten", 5: "5 Karten"}, "Bob nimmt {} auf"),
    "ru": ({1: "1 карта", 2: "2 карты", 5: "5 карт"}, "Bob забирает {}"),
    "uk": ({1: "1 карта", 2: "2 карти", 5: "5 карт"}, "Bob забирає {}"),
}
ACCUSATIVE = {"1 карта": "1 карту"}
NAMES = ["Ann", "Bob", "Cid"]
TABLE = "0badcafe"


def _random_play(seed: int) -> Iterator[tuple[GameState, tuple[Event, ...]]]:
    """Every state of a seeded random 3-player game, with the events that led to it."""
    s, rng = new_game(RuleSet(), 3, seed=seed), random.Random(seed)
    events: tuple[Event, ...] = ()
    while True:
        yield s, events
        movers = [p for p in range(3) if s.legal_actions(p)]
        if s.finished or not movers:
            return
        seat = rng.choice(movers)
        s, events = s.apply(seat, rng.choice(s.legal_actions(seat)))


@cache
def _samples() -> tuple[dict[int, tuple[GameState, int]], dict[tuple[bool, int], BoutEnded]]:
    """Real positions where a seat holds 1, 2 or 5 cards, and real bouts ending with 1, 2 or 5."""
    holding: dict[int, tuple[GameState, int]] = {}
    bouts: dict[tuple[bool, int], BoutEnded] = {}
    for seed in range(60):
        for state, events in _random_play(seed):
            for seat, size in enumerate(state.public_view().hand_sizes):
                if size in (1, 2, 5) and not state.finished:
                    holding.setdefault(size, (state, seat))
            for e in events:
                if isinstance(e, BoutEnded) and len(e.cards) in (1, 2, 5) and e.defender == 1:
                    bouts.setdefault((e.defended, len(e.cards)), e)
    return holding, bouts


@pytest.mark.parametrize("lang", LANGS)
def test_counts_on_the_table_hand_and_log(lang: str) -> None:
    """The public embed, the hand and the log say "1 card", "2 cards", «2 карты», «5 карт»."""
    holding, bouts = _samples()
    cards, taken = COUNTS[lang]
    assert set(holding) == {1, 2, 5} and {n for defended, n in bouts if not defended} == {1, 2, 5}
    for n, (state, seat) in holding.items():
        shown = cards[n]
        table = Table(TABLE, 1, 1, 1, RuleSet(), 3, 0, seats=[Seat(name) for name in NAMES])
        table.status, table.state, table.seed, table.language = TableStatus.RUNNING, state, 7, lang
        fields = render_table(table)[0].to_dict().get("fields", [])
        players = next(f["value"] for f in fields if f["name"] == t("table.players", lang))
        line = players.split("\n")[seat]
        assert f"**{NAMES[seat]}** · {shown}" in line and not line.endswith(f"{shown}s"), line
        v = state.view(seat)
        hand = render_hand(v, HandContext(TABLE, v.version, NAMES, loc=lang))
        assert f"({shown})" in hand.content.split("\n")[0], hand.content
    for (defended, n), event in bouts.items():
        said = event_line(event, NAMES, lang)
        if not defended:
            assert said == taken.format(ACCUSATIVE.get(cards[n], cards[n])), said
        else:
            assert said is not None and cards[n] in said, said
    if lang == "ru":
        assert event_line(bouts[True, 2], NAMES, lang) == "Отбился: 2 карты в бито"
    if lang == "en":
        expected = "Bout defended: 2 cards to the discard pile"  # pairs: never a single card
        assert event_line(bouts[True, 2], NAMES, lang) == expected


@pytest.mark.parametrize("lang", LANGS)
def test_rules_and_summaries_count_in_words(lang: str) -> None:
    classic = rules_summary(RuleSet(), lang)
    assert t("rname.V2", lang, n=36) in classic and t("rname.V3", lang, n=6) in classic
    text = rules_text(preset("three-losses"), 30, lang)
    assert t("rules.timer", lang, n=30, expiries=2) in text and t("rules.V17", lang, n=3) in text
    expected = {"en": "36 cards", "es": "36 cartas", "de": "36 Karten", "ru": "36 карт",
                "uk": "36 карт"}  # fmt: skip
    assert expected[lang] in rules_text(RuleSet(), 0, lang)


def _localized(cmd: dict[str, Any]) -> list[tuple[str, str, dict[str, str]]]:
    """(kind, default, localizations) for a command, its options and their choices."""
    out = [("name", cmd["name"], cmd.get("name_localizations") or {})]
    out.append(("description", cmd["description"], cmd.get("description_localizations") or {}))
    for opt in cmd.get("options") or []:
        out += _localized(opt)
        for choice in opt.get("choices") or []:
            out.append(("choice", choice["name"], choice.get("name_localizations") or {}))
    return out


async def test_synced_commands_carry_valid_translations(tmp_path: Path) -> None:
    async with world(tmp_path) as w, running_bot(w):
        durak = w.fake.commands(w.guild)["durak"]
        assert durak["name_localizations"]["ru"] == "дурак"
        assert durak["name_localizations"]["uk"] == "дурень"
        seen = 0
        for kind, default, localized in _localized(durak):
            if default.isdigit():  # deck sizes need no words
                continue
            for loc in ("es-ES", "es-419", "de", "ru", "uk"):
                text = localized.get(loc)
                assert text, (kind, default, loc)
                seen += 1
                if kind == "name":
                    assert valid_name(text), (default, loc, text)
                else:
                    assert 1 <= len(text) <= 100, (default, loc, text)
        assert seen > 200


async def test_replies_follow_the_user_public_messages_the_guild(tmp_path: Path) -> None:
    async with world(tmp_path) as w:
        fake = w.fake
        ivan = fake.add_user("ivan", locale="ru")
        async with running_bot(w) as bot:
            await fake.slash(w.alice, w.channel, "durak", "new", options={"ai_seats": 1})
            joined = await fake.slash(ivan, w.channel, "durak", "join")
            assert joined.ephemeral and joined.content == t("ok.joined", "ru")
            refused = await fake.slash(ivan, w.channel, "durak", "start")
            assert refused.ephemeral and refused.content == t("err.not_host", "ru")
            await fake.slash(w.alice, w.channel, "durak", "start")
            table = table_of(bot, w.channel)
            await fake.wait_for(lambda: table.table_message_id is not None)
            assert table.language == "en"
            public = public_message(w, table)
            hand = await fake.click(ivan, public, f"dkt:{table.table_id}:hand")
            assert hand.ephemeral and "**Ваши карты**" in hand.content
            labels = {b.label for b in hand.buttons}
            assert not labels & {"Take", "Done"}
            rules = await fake.click(ivan, public, f"dkt:{table.table_id}:rules")
            assert "**Колода**" in rules.embeds[0]["description"]
            english = await fake.click(w.alice, public, f"dkt:{table.table_id}:hand")
            assert "**Your hand**" in english.content
            embed = public_message(w, table).embeds[0]
            assert embed["fields"][0]["name"] == "Trump"  # the guild is English


async def test_russian_guild_and_language_option(tmp_path: Path) -> None:
    async with world(tmp_path) as w:
        fake = w.fake
        ru_guild = fake.add_guild("Клуб", locale="ru")
        ru_channel = fake.add_channel(ru_guild, "дурак")
        olga = fake.add_user("olga")  # English client, Russian server
        async with running_bot(w) as bot:
            await bot.sync_commands(ru_guild)
            lobby = await fake.slash(olga, ru_channel, "durak", "new")
            assert lobby.embeds[0]["title"] == t("lobby.title", "ru")
            assert table_of(bot, ru_channel).language == "ru"
            german = await fake.slash(w.bob, w.channel, "durak", "new", options={"language": "de"})
            assert german.embeds[0]["title"] == t("lobby.title", "de")
            assert {b.label for b in german.buttons} >= {"Beitreten", "Starten"}


def test_ranges_are_said_where_they_are_defined() -> None:
    """#49, R3: a range the code defines (R3's 2–6 seats, a tournament's entrants) is a parameter of
    the catalogue texts that state it, never written into them as bare numbers."""
    from bot.tournaments.logic.configuration import MAX_ENTRANTS, MIN_ENTRANTS
    from durak_core.rules import MAX_SEATS, MIN_SEATS

    bare = [
        re.compile(rf"\b{low}\b[^0-9{{}}\n]{{1,8}}\b{high}\b")
        for low, high in ((MIN_SEATS, MAX_SEATS), (MIN_ENTRANTS, MAX_ENTRANTS))
    ]
    for lang, catalogue in CATALOGUES.items():
        for key, message in catalogue.items():
            for text in [message] if isinstance(message, str) else list(message.values()):
                assert not any(p.search(str(text)) for p in bare), (lang, key, text)
