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


# The faces a picture may use, best first; a fresh machine may have none of them (then Pillow's
# built-in font draws Latin text).
BOLD = ("DejaVuSans-Bold.ttf", "DejaVuSans.ttf")
NAME_FACES = ("DejaVuSansCondensed-Bold.ttf", "DejaVuSans-Bold.ttf", "DejaVuSans.ttf")
TEXT_FACES = ("DejaVuSansCondensed.ttf", "DejaVuSans.ttf")


@lru_cache(maxsize=64)
def face(name: str, size: int) -> Font | None:
    try:
        return ImageFont.truetype(name, size)
    except OSError:
        return None


@lru_cache(maxsize=32)
def font(size: int, faces: tuple[str, ...] = BOLD) -> Font:
    """The first of ``faces`` the system has, else Pillow's built-in font."""
    for name in faces:
        f = face(name, size)
        if f is not None:
            return f
    return ImageFont.load_default(size=size)


@lru_cache(maxsize=4096)
def has_glyph(f: Font, ch: str) -> bool:
    """Whether ``f`` draws ``ch`` with a real glyph (not its .notdef box)."""

    def mask(c: str) -> tuple[tuple[int, int], bytes]:
        m = f.getmask(c)
        return m.size, bytes(m)

    return mask(ch) != mask("\U0010fffd")


def _can_draw(text: str, size: int) -> bool:
    f = font(size)
    return all(has_glyph(f, ch) for ch in text)


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


def _blank(
    border: tuple[int, int, int], width: int, w: int, h: int, radius: int
) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    img = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    draw = ImageDraw.Draw(img)
    draw.rounded_rectangle((0, 0, w - 1, h - 1), radius, fill=FACE, outline=border, width=width)
    return img, draw


def card_size(width: int) -> tuple[int, int]:
    """A card ``width`` pixels wide, in the 64:90 shape of every card."""
    return width, round(width * CARD_H / CARD_W)


@lru_cache(maxsize=1024)
def card_image(
    card: Card, trump: bool, labels: tuple[tuple[int, str], ...], width: int = CARD_W
) -> Image.Image:
    """The face of ``card`` (gold frame and star when it is a trump), ``width`` pixels wide.
    Cached: a deck has at most 108 faces, so the table and hand pictures are mostly pastes."""
    w, h = card_size(width)
    k = width / CARD_W
    img, draw = _blank(GOLD if trump else EDGE, max(1, round((4 if trump else 1) * k)), w, h,
                       round(RADIUS * k))  # fmt: skip
    if card.joker:
        colour = RED if card.is_red else BLACK
        _star(draw, w / 2, h / 2, 22 * k, colour)
        f = font(round(12 * k))
        draw.text((w / 2, 12 * k), "JOKER", fill=colour, font=f, anchor="mm")
        draw.text((w / 2, h - 12 * k), "JOKER", fill=colour, font=f, anchor="mm")
        return img
    assert card.suit is not None
    colour = RED if card.suit.is_red else BLACK
    size = round(22 * k)
    text = label_for(card.rank, dict(labels), size)
    f = font(size)
    draw.text((7 * k, 5 * k), text, fill=colour, font=f)
    draw_suit(draw, card.suit, 15 * k, 40 * k, 14 * k)
    draw_suit(draw, card.suit, w / 2 + 8 * k, h / 2 + 14 * k, 30 * k)
    if trump:
        _star(draw, w - 13 * k, 13 * k, 7 * k, GOLD)
    return img


@lru_cache(maxsize=16)
def back_image(width: int = CARD_W) -> Image.Image:
    """A face-down card, ``width`` pixels wide."""
    w, h = card_size(width)
    k = width / CARD_W
    img = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    draw = ImageDraw.Draw(img)
    edge = max(2, round(3 * k))
    radius = max(3, round(RADIUS * k))
    draw.rounded_rectangle((0, 0, w - 1, h - 1), radius, fill=BACK, outline=FACE, width=edge)
    step, inset = max(5, round(9 * k)), round(6 * k)
    for x in range(-h, w, step):
        draw.line((x + inset, inset, x + h - inset, h - inset), fill=BACK_LINE,
                  width=max(1, round(2 * k)))  # fmt: skip
    draw.rounded_rectangle((0, 0, w - 1, h - 1), radius, outline=FACE, width=edge)
    return img
