"""Cards as pictures: every card of every deck renders at the card size, trumps and jokers
included; the table picture has its fixed size and shows each seat (name, count, role, whose
turn, out) in its own place, public facts only (R23); its scene is the cache key; pictures are
attached to the table and hand messages, and the per-guild switch turns them off (text stays as
the fallback)."""

from __future__ import annotations

import dataclasses
import io
import random
from pathlib import Path

import pytest
from PIL import Image

from bot.cogs.guild_settings import save_images_setting
from bot.render import (
    CARD_H,
    CARD_W,
    HEIGHT,
    WIDTH,
    SeatLabel,
    render_card_png,
    render_hand_png,
    render_scene_png,
    render_table_png,
    table_scene,
)
from bot.render.scene import HAND_CARD
from bot.render.table import PLATE_H, PLATE_W, seat_boxes
from bot.tables.table import Seat, Table
from bot.text import t
from bot.ui import hand_view
from bot.ui.card_words import action_line
from bot.ui.hand_view import table_hand
from bot.ui.table_picture import rank_labels, role_words, table_picture
from durak_core import Card, GameState, PublicView, RuleSet, new_game, preset
from durak_core.ai import Level
from tests.bot.helpers import open_table, public_message, running_bot, world
from tests.durak_core.helpers import reshuffle_hidden

RU = {11: "В", 12: "Д", 13: "К", 14: "Т"}


def size(png: bytes) -> tuple[int, int]:
    assert png.startswith(b"\x89PNG")
    with Image.open(io.BytesIO(png)) as img:
        return img.size


@pytest.mark.slow
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


WORDS = role_words("en")
NAMES = [SeatLabel("Alice"), SeatLabel("Bob", "AI · hard"), SeatLabel("Вася"),
         SeatLabel("Zoë", "AI plays"), SeatLabel("Eve"), SeatLabel("Mallory")]  # fmt: skip


def image(png: bytes) -> Image.Image:
    with Image.open(io.BytesIO(png)) as img:
        return img.convert("RGB")


def draw(v: PublicView, seats: list[SeatLabel] | None = None) -> Image.Image:
    return image(render_table_png(v, seats or NAMES[: v.seats], labels=RU, words=WORDS))


def plate(img: Image.Image, n: int, seat: int) -> bytes:
    x, y = seat_boxes(n)[seat]
    return img.crop((x, y, x + PLATE_W, y + PLATE_H)).tobytes()


@pytest.mark.slow
def test_table_and_hand_pictures() -> None:
    for name in ("classic", "no-trump", "changing-trump", "jokers", "double-deck", "unlimited"):
        for seats in (2, 3, 4):
            for moves in (0, 7, 40):
                s = played(preset(name), seats, 17, moves)
                assert size(render_table_png(s.public_view(), labels=RU)) == (WIDTH, HEIGHT)
                w, h = size(render_hand_png(s.view(0)))
                assert HAND_CARD <= w <= WIDTH and h >= HAND_CARD, (name, w, h)


@pytest.mark.slow
def test_every_seat_shows_its_count_role_and_turn() -> None:
    """Each seat's plate changes with its own hand size, role and turn, and no other does."""
    for n in range(2, 7):
        v = played(preset("classic"), n, 40 + n, 3).public_view()
        base = draw(v)
        plates = [plate(base, n, s) for s in range(n)]
        assert len(set(plates)) == n, "every seat has its own plate"
        for seat in range(n):
            sizes = list(v.hand_sizes)
            sizes[seat] += 1
            awaiting = (
                tuple(p for p in v.awaiting if p != seat)
                if seat in v.awaiting
                else (*v.awaiting, seat)
            )
            other_role = (v.attacker + 1) % n if seat == v.attacker else seat
            for change in (
                {"hand_sizes": tuple(sizes)},
                {"awaiting": awaiting},
                {"attacker": other_role},
            ):
                img = draw(dataclasses.replace(v, **change))
                assert plate(img, n, seat) != plates[seat], (n, seat, change)
                if "hand_sizes" in change or "awaiting" in change:
                    assert all(plate(img, n, o) == plates[o] for o in range(n) if o != seat)
            out = draw(dataclasses.replace(v, finishing_order=(seat,)))
            assert plate(out, n, seat) not in plates, "a seat that is out looks different"


def test_seats_sit_clockwise_inside_the_picture() -> None:
    for n in range(2, 7):
        boxes = seat_boxes(n)
        assert len(set(boxes)) == n
        for x, y in boxes:
            assert x >= 0 and x + PLATE_W <= WIDTH and y >= 0 and y + PLATE_H <= HEIGHT
        # Clockwise from the bottom: the bottom row right to left, then the top row left to right.
        bottom = [x for x, y in boxes if y > HEIGHT // 2]
        top = [x for x, y in boxes if y < HEIGHT // 2]
        assert boxes[: len(bottom)] == [(x, boxes[0][1]) for x in bottom]
        assert bottom == sorted(bottom, reverse=True) and top == sorted(top)


def test_odd_names_never_crash() -> None:
    v = played(preset("classic"), 6, 5, 10).public_view()
    odd = ["", " ", "x" * 300, "🙂🙃🂡", "李小龙", "مرحبا بالعالم", "e\u0301\u0301\u0301",
           "a\u200db\u202ec\x00d\n", "\U0010fffd" * 5, "Ж" * 40, "\ud800x", "\ufdfd",
           "y" * 100_000]  # fmt: skip
    for i in range(0, len(odd), 3):
        seats = [SeatLabel(name, name) for name in (odd[i : i + 3] + ["ok"] * 6)[:6]]
        assert image(render_table_png(v, seats, words=WORDS)).size == (WIDTH, HEIGHT)


def test_no_private_card_is_drawn() -> None:
    """R23: two states that differ only in hidden cards (hands, talon) draw the same bytes."""
    rng = random.Random(3)
    for name in ("classic", "changing-trump", "jokers", "double-deck"):
        for n, moves in ((2, 0), (3, 9), (4, 25), (5, 40)):
            s = played(preset(name), n, rng.randrange(1000), moves)
            other = reshuffle_hidden(s, None, rng)
            assert other.hands != s.hands or other.talon != s.talon or not other.talon
            seats = NAMES[:n]
            assert render_table_png(other.public_view(), seats, labels=RU, words=WORDS) == (
                render_table_png(s.public_view(), seats, labels=RU, words=WORDS)
            )


@pytest.mark.slow
def test_the_scene_is_the_picture() -> None:
    """The cache key: equal scenes draw equal bytes, different scenes different bytes."""
    by_scene: dict[object, bytes] = {}
    by_png: dict[bytes, object] = {}
    rng = random.Random(8)
    for game in range(12):
        rules = preset(rng.choice(("classic", "unlimited", "jokers", "changing-trump")))
        n = rng.choice((2, 3, 4))
        s = new_game(rules, n, seed=game)
        for _ in range(rng.randrange(5, 60)):
            movers = [p for p in range(n) if s.legal_actions(p)]
            if s.finished or not movers:
                break
            seat = rng.choice(movers)
            s, _ = s.apply(seat, rng.choice(s.legal_actions(seat)))
            lang = rng.choice(("en", "ru"))
            scene = table_scene(s.public_view(), NAMES[:n], labels=rank_labels(lang),
                                words=role_words(lang))  # fmt: skip
            png = render_scene_png(scene)
            assert by_scene.setdefault(scene, png) == png
            assert by_png.setdefault(png, scene) == scene
    assert len(by_scene) > 100


def test_table_key_holds_badges_and_language() -> None:
    table = Table("t1", 1, 2, 3, preset("classic"), 3, 0, language="en")
    table.seats = [Seat("Ann", user_id=1), Seat("AI 1", ai_level=Level.HARD), Seat("Bo", user_id=2)]
    table.state = new_game(table.rules, 3, seed=1)
    key = table_picture(table)
    assert [s.badge for s in key.seats] == ["", "", ""]  # "AI 1 (hard)" says it already
    table.away.add(2)
    away = table_picture(table)
    assert away != key and away.seats[2].badge == t("picture.badge.away", "en")
    table.left.add(2)
    assert table_picture(table).seats[2].badge == t("picture.badge.left", "en")
    table.language = "ru"
    assert table_picture(table).seats[2].badge == t("picture.badge.left", "ru") == "ушёл · бот"
    table.seats[1] = Seat("Ann", ai_level=Level.NORMAL, replaced=True)  # left in an earlier game
    assert table_picture(table).seats[1].badge == t("picture.badge.left", "ru")
    assert table_picture(table) == table_picture(table)


async def test_pictures_attached_and_the_switch(tmp_path: Path) -> None:
    async with world(tmp_path) as w, running_bot(w) as bot:
        fake = w.fake
        table = await open_table(w, bot, [w.alice], w.channel, ai_seats=1)
        message = public_message(w, table)
        files = fake.attachment_bytes(message)
        assert set(files) == {"table.png"} and size(files["table.png"]) == (WIDTH, HEIGHT)
        assert message.embeds[0]["image"]["url"] == "attachment://table.png"
        assert message.embeds[0]["fields"], "the text stays as the fallback"
        hand = await fake.click(w.alice, message, f"dkt:{table.table_id}:hand")
        assert hand.message is not None
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
        assert plain.message is not None
        assert fake.attachment_bytes(plain.message) == {} and "Your hand" in plain.content


async def test_images_switch_is_stored(tmp_path: Path) -> None:
    async with world(tmp_path) as w:
        async with running_bot(w) as bot:
            await save_images_setting(bot, w.guild, False)
        async with running_bot(w) as bot:  # a restarted bot reads it back
            shown = await w.fake.slash(w.alice, w.channel, "durak", "settings")
            assert shown.content.splitlines()[0] == t("settings.images_off")
            assert await bot.service.storage.guild_settings(w.guild) == {"images": "off"}


@pytest.mark.slow
async def test_the_picture_follows_the_text_at_its_own_pace(tmp_path: Path) -> None:
    """TABLE_PICTURE_INTERVAL_SECONDS: an edit soon after a new picture carries the new text
    and keeps the picture; the picture catches up once its interval has passed."""
    async with world(tmp_path) as w, running_bot(w, table_picture_interval_seconds=2.0) as bot:
        fake = w.fake
        table = await open_table(w, bot, [w.alice], w.channel, ai_seats=1)
        first = fake.attachment_bytes(public_message(w, table))["table.png"]
        assert table.state is not None
        if table.state.attacker == table.seat_of(w.alice):  # else the AI leads by itself
            hand = await fake.click(w.alice, public_message(w, table), f"dkt:{table.table_id}:hand")
            card = next(b.custom_id for b in hand.buttons if b.custom_id)
            assert hand.message is not None
            await fake.click(w.alice, hand.message, card)
        await fake.wait_for(lambda: table.state is not None and bool(table.state.log))
        # the move is in the text at once; the picture is not redrawn before its interval
        seat, action = table.state.log[0]
        moved = action_line(seat, action, [s.name for s in table.seats])
        await fake.wait_for(lambda: moved in str(public_message(w, table).embeds[0]))
        assert fake.attachment_bytes(public_message(w, table))["table.png"] == first
        await fake.wait_for(
            lambda: fake.attachment_bytes(public_message(w, table))["table.png"] != first, 6
        )
        shown = fake.attachment_bytes(public_message(w, table))["table.png"]
        assert shown == render_scene_png(table_picture(table))


async def test_hand_pictures_are_drawn_ahead_when_a_game_starts(tmp_path: Path) -> None:
    """Most players press "My hand" right after the start: their pictures are ready by then,
    so that answer does not wait for a drawing (the hand shown is the one drawn)."""
    async with world(tmp_path) as w, running_bot(w) as bot:
        hand_view._PICTURES.clear()
        table = await open_table(w, bot, [w.alice, w.bob], w.channel)
        for user in (w.alice, w.bob):
            seat = table.seat_of(user)
            assert seat is not None
            key = table_hand(table, seat, loc=None, images=True, updates_until=None).picture

            def drawn_ahead(k: object = key) -> bool:
                return k in hand_view._PICTURES

            await w.fake.wait_for(drawn_ahead, what="the picture")
        drawn = len(hand_view._PICTURES)
        await w.fake.click(w.alice, public_message(w, table), f"dkt:{table.table_id}:hand")
        assert len(hand_view._PICTURES) == drawn  # answered from the pictures drawn ahead
