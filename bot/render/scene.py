"""The table and the hand as PNG pictures, laid out for a phone-width embed (640 px)."""

from __future__ import annotations

import io
from collections.abc import Mapping, Sequence
from functools import lru_cache

from PIL import Image, ImageDraw

from durak_core import Card, PublicView, SeatView, Suit

from .cards import CARD_H, CARD_W, FACE, GOLD, back_image, card_image, draw_suit, font

WIDTH = 640
FELT = (34, 110, 52)
PAIRS_LEFT = 240
PAIR_W = CARD_W + 20
PAIR_H = CARD_H + 26
PAIRS_PER_ROW = (WIDTH - PAIRS_LEFT) // PAIR_W
HAND_STEP = 42
HAND_PER_ROW = (WIDTH - 16 - CARD_W) // HAND_STEP + 1
Labels = Mapping[int, str]


def _png(img: Image.Image) -> bytes:
    """PNG bytes of ``img`` mapped onto one fixed 256-colour palette: the pictures hold a few
    dozen colours (and their anti-aliased blends), and an 8-bit image needs no per-row PNG
    filters, so encoding takes about a quarter of the time of RGB (and the file is smaller)."""
    out = io.BytesIO()
    if img.mode == "RGB":  # the scenes (a single card keeps its transparent corners)
        img = img.quantize(palette=_palette(), dither=Image.Dither.NONE)
    img.save(out, format="PNG", compress_level=1)  # speed over size: a few KB either way
    return out.getvalue()


@lru_cache(maxsize=1)
def _palette() -> Image.Image:
    """The palette: median cut of a sample of everything the pictures draw — every face
    (plain and trump, jokers) and the backs pasted on the felt as the scenes paste them, the
    rotated cards, the count badges and the trump marks."""
    lab = _labels(None)
    faces = [card_image(Card.from_index(i), trump, lab) for i in range(54) for trump in (0, 1)]
    per_row = WIDTH // (CARD_W + 4)
    rows = -(-len(faces) // per_row) + 2
    img = Image.new("RGB", (WIDTH, rows * (CARD_H + 4)), FELT)
    draw = ImageDraw.Draw(img)
    for i, face in enumerate(faces):
        img.paste(face, ((i % per_row) * (CARD_W + 4), (i // per_row) * (CARD_H + 4)), face)
    y = (rows - 2) * (CARD_H + 4)
    back = back_image()
    for x, card in (
        (0, back),
        (80, back.rotate(12, expand=True)),
        (180, back.rotate(90, expand=True)),
    ):
        img.paste(card, (x, y), card)
    for i, suit in enumerate(Suit):
        x = 320 + 40 * i
        draw.ellipse((x, y, x + 32, y + 32), fill=FACE, outline=GOLD, width=4)
        draw_suit(draw, suit, x + 16, y + 16, 18)
    for i in range(10):
        _badge(draw, 40 + 60 * i, y + CARD_H + 40, f"{i}{9 - i}")
    return img.quantize(colors=256, method=Image.Quantize.MEDIANCUT)


def _labels(labels: Labels | None) -> tuple[tuple[int, str], ...]:
    return tuple(sorted((labels or {}).items()))


def _face(card: Card, trump: Suit | None, labels: tuple[tuple[int, str], ...]) -> Image.Image:
    return card_image(card, trump is not None and card.suit == trump, labels)


def _badge(draw: ImageDraw.ImageDraw, x: float, y: float, text: str) -> None:
    """A count in a dark circle (talon and discard sizes)."""
    draw.ellipse((x - 17, y - 17, x + 17, y + 17), fill=(20, 20, 20), outline=FACE, width=2)
    draw.text((x, y), text, fill=FACE, font=font(18), anchor="mm")


def render_card_png(card: Card, *, trump: bool = False, labels: Labels | None = None) -> bytes:
    return _png(card_image(card, trump, _labels(labels)))


def render_table_png(v: PublicView, *, labels: Labels | None = None) -> bytes:
    """The talon (face down, with its count), the face-up trump under it (and, for V14, the
    face-down card under that), the discard pile, and the bout's attack → defence pairs."""
    lab = _labels(labels)
    rows = max(1, -(-len(v.table) // PAIRS_PER_ROW))
    height = max(CARD_H + 110, 24 + rows * PAIR_H)
    img = Image.new("RGB", (WIDTH, height), FELT)
    draw = ImageDraw.Draw(img)
    back = back_image()
    top = 20
    # The turned trump lies crosswise under the talon while it is still there (R5).
    if v.trump_in_talon:
        if v.trump_will_change:  # V14: the face-down card that will become the trump
            img.paste(back.rotate(90, expand=True), (14, top + 30), back.rotate(90, expand=True))
        face = _face(v.trump_card, v.trump, lab).rotate(90, expand=True)
        img.paste(face, (30, top + 18), face)
    if v.talon_size:
        layers = min(4, v.talon_size)
        for i in range(layers):
            img.paste(back, (84 + 2 * i, top - 2 * i), back)
        _badge(draw, 84 + CARD_W / 2 + 2 * layers, top + CARD_H + 22, str(v.talon_size))
    # The trump suit, always marked (a gold ring); no ring when the game has no trump.
    if v.trump is not None:
        draw.ellipse((8, top + CARD_H + 6, 40, top + CARD_H + 38), fill=FACE, outline=GOLD, width=4)
        draw_suit(draw, v.trump, 24, top + CARD_H + 22, 18)
    if v.discard_size:
        disc = back.rotate(12, expand=True)
        img.paste(disc, (150, top + 4), disc)
        _badge(draw, 150 + CARD_W / 2 + 6, top + CARD_H + 22, str(v.discard_size))
    for i, (attack, defence) in enumerate(v.table):
        x = PAIRS_LEFT + (i % PAIRS_PER_ROW) * PAIR_W
        y = 12 + (i // PAIRS_PER_ROW) * PAIR_H
        a = _face(attack, v.trump, lab)
        img.paste(a, (x, y), a)
        if defence is not None:
            d = _face(defence, v.trump, lab)
            img.paste(d, (x + 16, y + 22), d)
    return _png(img)


def render_hand_png(
    v: SeatView, cards: Sequence[Card] | None = None, *, labels: Labels | None = None
) -> bytes:
    """One seat's hand as overlapping cards (in ``cards`` order, default the view's), trumps
    framed in gold; several rows when the hand is long."""
    return _hand_png(tuple(cards if cards is not None else v.hand), v.trump, _labels(labels))


# A hand is redrawn whenever anyone acts, but its picture changes only with the hand itself.
@lru_cache(maxsize=2048)
def _hand_png(
    hand: tuple[Card, ...], trump: Suit | None, lab: tuple[tuple[int, str], ...]
) -> bytes:
    rows = max(1, -(-len(hand) // HAND_PER_ROW))
    per_row = min(len(hand), HAND_PER_ROW) or 1
    width = max(CARD_W + 16, 16 + HAND_STEP * (per_row - 1) + CARD_W)
    img = Image.new("RGB", (width, 16 + rows * (CARD_H + 8)), FELT)
    for i, card in enumerate(hand):
        face = _face(card, trump, lab)
        x = 8 + (i % HAND_PER_ROW) * HAND_STEP
        y = 8 + (i // HAND_PER_ROW) * (CARD_H + 8)
        img.paste(face, (x, y), face)
    return _png(img)
