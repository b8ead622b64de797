"""One card as a Pillow image: rank and suit, red or black, trump marked, jokers, the back.

Suits are drawn as shapes (not font glyphs): Pillow's built-in font has no ♠♣♦♥, and a fresh
machine may have no other font. Rank labels use DejaVu Sans Bold when the system has it (it
covers Cyrillic: В Д К Т), else Pillow's built-in font with the Latin labels.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache

from PIL import Image, ImageDraw, ImageFont

from durak_core import Card, Suit
from durak_core.cards import RANK_NAMES

CARD_W = 64
CARD_H = 90
RADIUS = 7
RED = (200, 30, 40)
BLACK = (25, 25, 25)
GOLD = (240, 180, 20)
EDGE = (90, 90, 90)
BACK = (30, 60, 150)
BACK_LINE = (80, 110, 200)
FACE = (255, 255, 255)

Font = ImageFont.FreeTypeFont | ImageFont.ImageFont
LATIN = {r: RANK_NAMES[r] for r in range(2, 15)}


@lru_cache(maxsize=8)
def font(size: int) -> Font:
    for name in ("DejaVuSans-Bold.ttf", "DejaVuSans.ttf"):
        try:
            return ImageFont.truetype(name, size)
        except OSError:
            continue
    return ImageFont.load_default(size=size)


@lru_cache(maxsize=256)
def _can_draw(text: str, size: int) -> bool:
    """Whether the font has real glyphs for ``text`` (not the .notdef box)."""
    f = font(size)

    def glyph(ch: str) -> bytes:
        img = Image.new("L", (size * 2, size * 2))
        ImageDraw.Draw(img).text((0, 0), ch, fill=255, font=f)
        return img.tobytes()

    missing = glyph("\U0010fffd")
    return all(glyph(ch) != missing for ch in text)


def label_for(rank: int, labels: Mapping[int, str], size: int) -> str:
    text = labels.get(rank, LATIN[rank])
    return text if _can_draw(text, size) else LATIN[rank]


def draw_suit(draw: ImageDraw.ImageDraw, suit: Suit, cx: float, cy: float, s: float) -> None:
    """A suit symbol of size ``s`` centred at (cx, cy), drawn from shapes."""
    colour = RED if suit.is_red else BLACK
    r = s / 4
    if suit == Suit.DIAMONDS:
        draw.polygon(
            [(cx, cy - s / 2), (cx + s * 0.38, cy), (cx, cy + s / 2), (cx - s * 0.38, cy)],
            fill=colour,
        )
    elif suit == Suit.HEARTS:
        draw.ellipse((cx - 2 * r, cy - s / 2, cx, cy - s / 2 + 2 * r), fill=colour)
        draw.ellipse((cx, cy - s / 2, cx + 2 * r, cy - s / 2 + 2 * r), fill=colour)
        draw.polygon(
            [
                (cx - 2 * r + 0.5, cy - s / 2 + r * 1.3),
                (cx + 2 * r - 0.5, cy - s / 2 + r * 1.3),
                (cx, cy + s / 2),
            ],
            fill=colour,
        )
    elif suit == Suit.SPADES:
        draw.polygon(
            [(cx, cy - s / 2), (cx - 2 * r + 0.5, cy + r * 0.4), (cx + 2 * r - 0.5, cy + r * 0.4)],
            fill=colour,
        )
        draw.ellipse((cx - 2 * r, cy - r * 0.6, cx, cy + r * 1.4), fill=colour)
        draw.ellipse((cx, cy - r * 0.6, cx + 2 * r, cy + r * 1.4), fill=colour)
        draw.polygon(
            [(cx, cy), (cx - r * 0.9, cy + s / 2), (cx + r * 0.9, cy + s / 2)], fill=colour
        )
    else:  # clubs
        k = r * 1.05
        draw.ellipse((cx - k, cy - s / 2, cx + k, cy - s / 2 + 2 * k), fill=colour)
        draw.ellipse((cx - 2 * k - 1, cy - k * 0.6, cx - 1, cy + k * 1.4), fill=colour)
        draw.ellipse((cx + 1, cy - k * 0.6, cx + 2 * k + 1, cy + k * 1.4), fill=colour)
        draw.polygon(
            [(cx, cy - k * 0.5), (cx - r * 0.9, cy + s / 2), (cx + r * 0.9, cy + s / 2)],
            fill=colour,
        )


def _star(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float, fill: tuple[int, ...]) -> None:
    import math

    points = []
    for i in range(10):
        rad = r if i % 2 == 0 else r * 0.45
        a = -math.pi / 2 + i * math.pi / 5
        points.append((cx + rad * math.cos(a), cy + rad * math.sin(a)))
    draw.polygon(points, fill=fill)


def _blank(border: tuple[int, int, int], width: int) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    img = Image.new("RGBA", (CARD_W, CARD_H), (0, 0, 0, 0))
    draw = ImageDraw.Draw(img)
    draw.rounded_rectangle(
        (0, 0, CARD_W - 1, CARD_H - 1), RADIUS, fill=FACE, outline=border, width=width
    )
    return img, draw


@lru_cache(maxsize=512)
def card_image(card: Card, trump: bool, labels: tuple[tuple[int, str], ...]) -> Image.Image:
    """The face of ``card`` (gold frame and star when it is a trump). Cached: a deck has at most
    108 faces, so the table and hand pictures are mostly pastes."""
    img, draw = _blank(GOLD if trump else EDGE, 4 if trump else 1)
    if card.joker:
        colour = RED if card.is_red else BLACK
        _star(draw, CARD_W / 2, CARD_H / 2, 22, colour)
        f = font(12)
        draw.text((CARD_W / 2, 12), "JOKER", fill=colour, font=f, anchor="mm")
        draw.text((CARD_W / 2, CARD_H - 12), "JOKER", fill=colour, font=f, anchor="mm")
        return img
    assert card.suit is not None
    colour = RED if card.suit.is_red else BLACK
    size = 22
    text = label_for(card.rank, dict(labels), size)
    f = font(size)
    draw.text((7, 5), text, fill=colour, font=f)
    draw_suit(draw, card.suit, 15, 40, 14)
    draw_suit(draw, card.suit, CARD_W / 2 + 8, CARD_H / 2 + 14, 30)
    if trump:
        _star(draw, CARD_W - 13, 13, 7, GOLD)
    return img


@lru_cache(maxsize=2)
def back_image() -> Image.Image:
    """A face-down card."""
    img = Image.new("RGBA", (CARD_W, CARD_H), (0, 0, 0, 0))
    draw = ImageDraw.Draw(img)
    draw.rounded_rectangle((0, 0, CARD_W - 1, CARD_H - 1), RADIUS, fill=BACK, outline=FACE, width=3)
    for x in range(-CARD_H, CARD_W, 9):
        draw.line((x + 6, 6, x + CARD_H - 6, CARD_H - 6), fill=BACK_LINE, width=2)
    draw.rounded_rectangle((0, 0, CARD_W - 1, CARD_H - 1), RADIUS, outline=FACE, width=3)
    return img
