"""Every user-facing string in English, Spanish, German and Russian.

The catalogues agree (keys, placeholders, nothing empty); every translated command, option and
choice name satisfies Discord's rules and every description its length; replies follow the
clicking user's locale while public messages follow the guild (or the table's language option).
"""

from __future__ import annotations

import string
import unicodedata
from pathlib import Path
from typing import Any

import discord
import pytest
from helpers import public_message, running_bot, table_of, world

from bot.text import CATALOGUES, EN, language, t
from bot.text.translator import LOCALES, ls, translate
from bot.ui.cards import card_text
from bot.ui.rules_text import rules_text
from durak_core import PRESETS, Card

LANGS = ("en", "es", "de", "ru")


def placeholders(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name is not None}


def valid_name(name: str) -> bool:
    """Discord: ``^[-_\\p{L}\\p{N}\\p{sc=Deva}\\p{sc=Thai}]{1,32}$`` and lowercase."""
    ok_chars = all(
        ch in "-_" or unicodedata.category(ch)[0] in "LN" or unicodedata.category(ch) == "Mn"
        for ch in name
    )
    return 1 <= len(name) <= 32 and ok_chars and name == name.lower()


def test_catalogues_have_the_same_keys_and_placeholders() -> None:
    assert set(CATALOGUES) == set(LANGS)
    for lang, catalogue in CATALOGUES.items():
        assert set(catalogue) == set(EN), (lang, set(catalogue) ^ set(EN))
        for key, template in catalogue.items():
            assert template.strip(), (lang, key)
            assert placeholders(template) == placeholders(EN[key]), (lang, key)
            template.format(**dict.fromkeys(placeholders(template), "x"))  # well formed


def test_names_and_descriptions_obey_discords_rules() -> None:
    for lang, catalogue in CATALOGUES.items():
        for key, text in catalogue.items():
            if key.startswith(("name.", "pname.")):
                assert valid_name(text), (lang, key, text)
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
    ranks = {"en": "JQKA", "es": "JQKA", "de": "BDKA", "ru": "ВДКТ"}
    for lang, faces in ranks.items():
        shown = [card_text(Card.parse(f"{r}S"), lang) for r in "JQKA"]
        assert shown == [f"{f}♠" for f in faces], lang
        assert card_text(Card.parse("10H"), lang) == "10♥"
    # V16: the two copies of a card look the same; V15 jokers have their own names.
    assert card_text(Card.parse("7H#2"), "en") == card_text(Card.parse("7H"), "en") == "7♥"
    assert card_text(Card.parse("RJ"), "ru") == "🃏К" and card_text(Card.parse("BJ"), "de") == "🃏S"


@pytest.mark.parametrize("lang", LANGS)
def test_rules_text_covers_every_preset_in_every_language(lang: str) -> None:
    for name, rules in PRESETS.items():
        text = rules_text(rules, 30, lang)
        assert f"{len(rules.deck())}" in text, (lang, name)
        for rid in [d.split()[0] for d in rules.differences()]:
            if rid not in ("V2", "V3"):  # deck and hand size are stated as numbers
                assert f"({rid})" in text, (lang, name, rid)


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
        seen = 0
        for kind, default, localized in _localized(durak):
            if default.isdigit():  # deck sizes need no words
                continue
            for loc in ("es-ES", "es-419", "de", "ru"):
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
