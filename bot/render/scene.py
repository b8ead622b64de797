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
        _draw_badge(draw, 40 + 60 * i, y + CARD_H + 40, f"{i}{9 - i}")
    return img.quantize(colors=256, method=Image.Quantize.MEDIANCUT)


def _labels(labels: Labels | None) -> tuple[tuple[int, str], ...]:
    return tuple(sorted((labels or {}).items()))


# Scenes are drawn directly in the palette: every sprite (a card face, a back, a count badge)
# is composed over the felt and mapped to the palette once, with a two-level mask of its shape,
# so a scene is a few byte-per-pixel pastes and no per-scene colour mapping (about 4x faster).
# A card's anti-aliased corner pixels keep their felt blend where they overlap another card.
Sprite = tuple[Image.Image, Image.Image]


def _sprite(rgba: Image.Image) -> Sprite:
    """``rgba`` over the felt, in the palette, and its shape (alpha >= 50 %) as a mask."""
    over = Image.new("RGB", rgba.size, FELT)
    over.paste(rgba, (0, 0), rgba)
    shape = rgba.getchannel("A").point(lambda a: 255 if a >= 128 else 0).convert("1")
    return over.quantize(palette=_palette(), dither=Image.Dither.NONE), shape


@lru_cache(maxsize=512)
def _face_sprite(
    card: Card, trump: bool, labels: tuple[tuple[int, str], ...], angle: int
) -> Sprite:
    face = card_image(card, trump, labels)
    return _sprite(face.rotate(angle, expand=True) if angle else face)


def _face(
    card: Card, trump: Suit | None, labels: tuple[tuple[int, str], ...], angle: int = 0
) -> Sprite:
    return _face_sprite(card, trump is not None and card.suit == trump, labels, angle)


@lru_cache(maxsize=4)
def _back(angle: int) -> Sprite:
    back = back_image()
    return _sprite(back.rotate(angle, expand=True) if angle else back)


def _draw_badge(draw: ImageDraw.ImageDraw, x: float, y: float, text: str) -> None:
    """A count in a dark circle (talon and discard sizes)."""
    draw.ellipse((x - 17, y - 17, x + 17, y + 17), fill=(20, 20, 20), outline=FACE, width=2)
    draw.text((x, y), text, fill=FACE, font=font(18), anchor="mm")


@lru_cache(maxsize=256)
def _badge(text: str) -> Sprite:
    img = Image.new("RGBA", (36, 36), (0, 0, 0, 0))
    _draw_badge(ImageDraw.Draw(img), 18, 18, text)
    return _sprite(img)


@lru_cache(maxsize=8)
def _trump_mark(suit: Suit) -> Sprite:
    """The trump suit in a gold ring."""
    img = Image.new("RGBA", (34, 34), (0, 0, 0, 0))
    draw = ImageDraw.Draw(img)
    draw.ellipse((0, 0, 32, 32), fill=FACE, outline=GOLD, width=4)
    draw_suit(draw, suit, 16, 16, 18)
    return _sprite(img)


@lru_cache(maxsize=1)
def _felt_index() -> int:
    felt = Image.new("RGB", (1, 1), FELT).quantize(palette=_palette(), dither=Image.Dither.NONE)
    return int(felt.getpixel((0, 0)))  # type: ignore[arg-type]


def _canvas(width: int, height: int) -> Image.Image:
    img = Image.new("P", (width, height), _felt_index())
    img.putpalette(_palette().getpalette() or [])
    return img


def _paste(img: Image.Image, sprite: Sprite, x: float, y: float) -> None:
    img.paste(sprite[0], (int(x), int(y)), sprite[1])


def _paste_centred(img: Image.Image, sprite: Sprite, x: float, y: float) -> None:
    w, h = sprite[0].size
    _paste(img, sprite, round(x - w / 2), round(y - h / 2))


def render_card_png(card: Card, *, trump: bool = False, labels: Labels | None = None) -> bytes:
    return _png(card_image(card, trump, _labels(labels)))


def render_table_png(v: PublicView, *, labels: Labels | None = None) -> bytes:
    """The talon (face down, with its count), the face-up trump under it (and, for V14, the
    face-down card under that), the discard pile, and the bout's attack → defence pairs."""
    lab = _labels(labels)
    rows = max(1, -(-len(v.table) // PAIRS_PER_ROW))
    height = max(CARD_H + 110, 24 + rows * PAIR_H)
    img = _canvas(WIDTH, height)
    top = 20
    # The turned trump lies crosswise under the talon while it is still there (R5).
    if v.trump_in_talon:
        if v.trump_will_change:  # V14: the face-down card that will become the trump
            _paste(img, _back(90), 14, top + 30)
        _paste(img, _face(v.trump_card, v.trump, lab, 90), 30, top + 18)
    if v.talon_size:
        layers = min(4, v.talon_size)
        for i in range(layers):
            _paste(img, _back(0), 84 + 2 * i, top - 2 * i)
        _paste_centred(
            img, _badge(str(v.talon_size)), 84 + CARD_W / 2 + 2 * layers, top + CARD_H + 22
        )
    # The trump suit, always marked (a gold ring); no ring when the game has no trump.
    if v.trump is not None:
        _paste_centred(img, _trump_mark(v.trump), 24, top + CARD_H + 22)
    if v.discard_size:
        _paste(img, _back(12), 150, top + 4)
        _paste_centred(img, _badge(str(v.discard_size)), 150 + CARD_W / 2 + 6, top + CARD_H + 22)
    for i, (attack, defence) in enumerate(v.table):
        x = PAIRS_LEFT + (i % PAIRS_PER_ROW) * PAIR_W
        y = 12 + (i // PAIRS_PER_ROW) * PAIR_H
        _paste(img, _face(attack, v.trump, lab), x, y)
        if defence is not None:
            _paste(img, _face(defence, v.trump, lab), x + 16, y + 22)
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
    img = _canvas(width, 16 + rows * (CARD_H + 8))
    for i, card in enumerate(hand):
        x = 8 + (i % HAND_PER_ROW) * HAND_STEP
        y = 8 + (i // HAND_PER_ROW) * (CARD_H + 8)
        _paste(img, _face(card, trump, lab), x, y)
    return _png(img)
