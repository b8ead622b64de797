"""Cards as pictures: every card of every deck renders at the card size, trumps and jokers
included; table and hand pictures have the expected sizes; pictures are attached to the table
and hand messages, and the per-guild switch turns them off (text stays as the fallback)."""

from __future__ import annotations

import io
import random
from pathlib import Path

from helpers import public_message, running_bot, table_of, world
from PIL import Image

from bot.cogs.durak import save_images_setting
from bot.render import CARD_H, CARD_W, render_card_png, render_hand_png, render_table_png
from bot.render.scene import WIDTH
from bot.text import t
from durak_core import Card, GameState, RuleSet, new_game, preset

RU = {11: "В", 12: "Д", 13: "К", 14: "Т"}


def size(png: bytes) -> tuple[int, int]:
    assert png.startswith(b"\x89PNG")
    with Image.open(io.BytesIO(png)) as img:
        return img.size


def test_every_card_of_every_deck_renders() -> None:
    decks = [RuleSet(deck_size=24), RuleSet(), RuleSet(deck_size=52), preset("jokers"),
             preset("double-deck")]  # fmt: skip
    seen: set[Card] = set()
    for rules in decks:
        for card in rules.deck():
            for trump in (False, True):
                for labels in (None, RU):
                    assert size(render_card_png(card, trump=trump, labels=labels)) == (
                        CARD_W,
                        CARD_H,
                    )
            seen.add(card)
    assert len(seen) == 52 + 2 + 36  # every face, both jokers, the second copies
    # A trump looks different from the same card as a plain one; the two copies look the same.
    seven = Card.parse("7H")
    assert render_card_png(seven, trump=True) != render_card_png(seven)
    assert render_card_png(Card.parse("7H#2")) == render_card_png(seven)
    assert render_card_png(Card.parse("BJ")) != render_card_png(Card.parse("RJ"))


def played(rules: RuleSet, seats: int, seed: int, moves: int) -> GameState:
    s, rng = new_game(rules, seats, seed=seed), random.Random(seed)
    for _ in range(moves):
        movers = [p for p in range(seats) if s.legal_actions(p)]
        if s.finished or not movers:
            break
        seat = rng.choice(movers)
        s, _ = s.apply(seat, rng.choice(s.legal_actions(seat)))
    return s


def test_table_and_hand_pictures() -> None:
    for name in ("classic", "no-trump", "changing-trump", "jokers", "double-deck", "unlimited"):
        for moves in (0, 7, 40):
            s = played(preset(name), 3, 17, moves)
            width, height = size(render_table_png(s.public_view(), labels=RU))
            assert width == WIDTH and 200 <= height <= 600, (name, moves, height)
            hand = s.view(0)
            w, h = size(render_hand_png(hand))
            assert CARD_W <= w <= WIDTH and h >= CARD_H, (name, w, h)


async def test_pictures_attached_and_the_switch(tmp_path: Path) -> None:
    async with world(tmp_path) as w, running_bot(w) as bot:
        fake = w.fake
        await fake.slash(w.alice, w.channel, "durak", "new", options={"ai_seats": 1})
        await fake.slash(w.alice, w.channel, "durak", "start")
        table = table_of(bot, w.channel)
        await fake.wait_for(lambda: table.table_message_id is not None)
        message = public_message(w, table)
        files = fake.attachment_bytes(message)
        assert set(files) == {"table.png"} and size(files["table.png"])[0] == WIDTH
        assert message.embeds[0]["image"]["url"] == "attachment://table.png"
        assert message.embeds[0]["fields"], "the text stays as the fallback"
        hand = await fake.click(w.alice, message, f"dkt:{table.table_id}:hand")
        assert set(fake.attachment_bytes(hand.message)) == {"hand.png"}

        denied = await fake.slash(w.bob, w.channel, "durak", "settings", options={"images": False})
        assert denied.ephemeral and denied.content == t("err.manage_guild")
        # The fake gives members @everyone's permissions (no Manage Server): switch as the
        # command does once the permission check passed.
        await save_images_setting(bot, w.guild, False)
        shown = await fake.slash(w.bob, w.channel, "durak", "settings")
        assert "off" in shown.content
        bot.notifier.table_changed(table, actor=None)
        await fake.wait_for(lambda: not fake.attachment_bytes(public_message(w, table)))
        assert "image" not in public_message(w, table).embeds[0]
        plain = await fake.click(w.alice, public_message(w, table), f"dkt:{table.table_id}:hand")
        assert fake.attachment_bytes(plain.message) == {} and "Your hand" in plain.content


async def test_images_switch_is_stored(tmp_path: Path) -> None:
    async with world(tmp_path) as w:
        async with running_bot(w) as bot:
            await save_images_setting(bot, w.guild, False)
        async with running_bot(w) as bot:  # a restarted bot reads it back
            shown = await w.fake.slash(w.alice, w.channel, "durak", "settings")
            assert shown.content.splitlines()[0] == t("settings.images_off")
            assert await bot.service.storage.guild_settings(w.guild) == {"images": "off"}
