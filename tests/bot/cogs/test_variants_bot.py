"""V11–V16 and V18 in the bot: offered by `/durak new` (presets and options), explained by
`/durak rules` in the reader's language, and shown on the table (no trump, the changing trump,
jokers, the double deck, the show of a trump)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from bot.text import t
from bot.ui.card_words import event_line
from durak_core import Card
from durak_core.events import TrumpRevealed
from tests.bot.helpers import open_table, public_message, running_bot, table_of, world
from tests.bot.tables.test_bot_game import play_one_game


async def test_variant_preset_and_its_rules_in_russian(tmp_path: Path) -> None:
    async with world(tmp_path) as w:
        ivan = w.fake.add_user("ivan", locale="ru")
        async with running_bot(w) as bot:
            fake = w.fake
            lobby = await fake.slash(ivan, w.channel, "durak", "new", options={"preset": "jokers"})
            table = table_of(bot, w.channel)
            assert table.rules.jokers and table.rules.deck_size == 52
            assert "V15" in str(lobby.embeds)  # the public summary (English guild)
            rules = await fake.slash(ivan, w.channel, "durak", "rules")
            text = rules.embeds[0]["description"]
            assert rules.ephemeral and rules.embeds[0]["title"] == t("rules.title", "ru")
            assert "**Джокеры** (V15)" in text and "от 2 до Т" in text
            assert "**Колода**: 54 карты," in text  # CLDR "few": 54 карты, not 54 карт
            english = await fake.slash(w.alice, w.channel, "durak", "rules")
            assert "**Jokers** (V15)" in english.embeds[0]["description"]


async def test_new_with_variant_options_and_conflicts(tmp_path: Path) -> None:
    async with world(tmp_path) as w:
        ivan = w.fake.add_user("ivan", locale="ru")
        async with running_bot(w) as bot:
            fake = w.fake
            bad = await fake.slash(
                ivan, w.channel, "durak", "new", options={"variants": "без-козыря, сумасшедший"}
            )
            assert bad.ephemeral and bad.content.startswith("Эти правила несовместимы")
            assert "V11" in bad.content and "V12" in bad.content
            await fake.slash(w.alice, w.channel, "durak", "new", options={"variants": "jokers"})
            assert table_of(bot, w.channel).rules.deck_size == 52  # jokers imply 52 cards
            await fake.slash(w.alice, w.channel, "durak", "cancel")
            await fake.slash(
                w.alice, w.channel, "durak", "new",
                options={"variants": "V14, double deck", "ai_seats": 1},
            )  # fmt: skip
            table = table_of(bot, w.channel)
            assert table.rules.changing_trump and table.rules.double_deck
            await fake.slash(w.alice, w.channel, "durak", "start")
            await fake.wait_for(lambda: table.table_message_id is not None)
            trump = public_message(w, table).embeds[0]["fields"][0]["value"]
            assert "face-down card under it will be the trump" in trump


async def test_no_trump_game_shows_no_trump(tmp_path: Path) -> None:
    async with world(tmp_path) as w, running_bot(w) as bot:
        fake = w.fake
        table = await open_table(w, bot, [w.alice, w.bob], w.channel, preset="no-trump")
        trump = public_message(w, table).embeds[0]["fields"][0]["value"]
        assert trump.startswith("no trump")
        hand = await fake.click(w.alice, public_message(w, table), f"dkt:{table.table_id}:hand")
        assert "· no trump" in hand.content and "★" not in hand.content


@pytest.mark.slow
async def test_a_whole_jokers_game(tmp_path: Path) -> None:
    async with world(tmp_path) as w, running_bot(w) as bot:
        fake = w.fake
        await fake.slash(
            w.alice, w.channel, "durak", "new", options={"preset": "jokers", "ai_seats": 1}
        )
        await fake.slash(w.bob, w.channel, "durak", "join")
        await fake.slash(w.alice, w.channel, "durak", "start")
        table = await play_one_game(w, bot, random.Random(11))
        assert table.status == "finished"
        assert fake.violations == []


@pytest.mark.slow
async def test_a_whole_show_trump_game(tmp_path: Path) -> None:
    """V18: every hand's buttons are the legal actions (shows beside transfers) to the end."""
    async with world(tmp_path) as w, running_bot(w) as bot:
        fake = w.fake
        options = {"deck": 24, "variants": "transfer, show_trump", "ai_seats": 1}
        await fake.slash(w.alice, w.channel, "durak", "new", options=options)
        await fake.slash(w.bob, w.channel, "durak", "join")
        await fake.slash(w.alice, w.channel, "durak", "start")
        table = await play_one_game(w, bot, random.Random(18))
        assert table.status == "finished" and table.rules.transfer_by_trump
        assert fake.violations == []


def test_trump_change_and_jokers_in_words() -> None:
    line = event_line(TrumpRevealed(Card.parse("9C")), ["a"], "de")
    assert line == "Der Trumpf wechselt: 9♣ wird aufgedeckt"
    assert event_line(TrumpRevealed(Card.parse("QD")), ["a"], "ru") == "Козырь меняется: открыта Д♦"
