"""The table and the hand as PNG pictures: the shared palette and sprites, the hand picture,
and the drawing of a table scene (its layout: table.py)."""

from __future__ import annotations

import io
from collections.abc import Mapping, Sequence
from functools import lru_cache

from PIL import Image, ImageDraw

from durak_core import Card, PublicView, SeatView, Suit

from .card_images import CARD_H, CARD_W, FACE, GOLD, back_image, card_image, card_size, draw_suit
from .table import (
    BADGE_MID,
    BADGE_RIGHT,
    FAN_MAX,
    HEIGHT,
    NAME_BOX,
    PLATE_FILL,
    ROLE_BOX,
    ROOM,
    TABLE_CARD,
    WIDTH,
    Role,
    SeatLabel,
    State,
    TableScene,
    _defence_offset,
    badge_image,
    base_image,
    count_image,
    fan_image,
    mark_image,
    name_image,
    pair_grid,
    palette_sample,
    plate_image,
    role_image,
    seat_boxes,
    table_scene,
)

FELT = (34, 110, 52)
#: The hand: cards a phone shows legibly (ranks 33 px; 8 a row, about 520 px wide).
HAND_CARD = 96
HAND_STEP = 58
HAND_PER_ROW = 8
SAMPLE_W = 640
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
    rotated cards, the count badges and the trump marks, and the table picture's room, rim,
    name plates (every state and role colour), fans and counts."""
    lab = _labels(None)
    faces = [card_image(Card.from_index(i), trump, lab) for i in range(54) for trump in (0, 1)]
    per_row = SAMPLE_W // (CARD_W + 4)
    rows = -(-len(faces) // per_row) + 2
    cards_h = rows * (CARD_H + 4)
    img = Image.new("RGB", (SAMPLE_W + WIDTH, max(cards_h, HEIGHT)), FELT)
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
        badge = count_image(10 * i + 9 - i, 18)
        img.paste(badge, (20 + 60 * i, y + CARD_H + 20), badge)
    img.paste(palette_sample(), (SAMPLE_W, 0))
    return img.quantize(colors=256, method=Image.Quantize.MEDIANCUT)


def _labels(labels: Labels | None) -> tuple[tuple[int, str], ...]:
    return tuple(sorted((labels or {}).items()))


# Scenes are drawn directly in the palette: every sprite (a card face, a back, a count badge)
# is composed over the felt and mapped to the palette once, with a two-level mask of its shape,
# so a scene is a few byte-per-pixel pastes and no per-scene colour mapping (about 4x faster).
# A card's anti-aliased corner pixels keep their felt blend where they overlap another card.
Sprite = tuple[Image.Image, Image.Image | None]


def _sprite(rgba: Image.Image, ground: tuple[int, int, int] = FELT) -> Sprite:
    """``rgba`` over ``ground``, in the palette, and its shape (alpha >= 50 %) as a mask."""
    over = Image.new("RGB", rgba.size, ground)
    over.paste(rgba, (0, 0), rgba)
    shape = rgba.getchannel("A").point(lambda a: 255 if a >= 128 else 0).convert("1")
    return over.quantize(palette=_palette(), dither=Image.Dither.NONE), shape


@lru_cache(maxsize=2048)
def _face_sprite(
    card: Card, trump: bool, labels: tuple[tuple[int, str], ...], angle: int, width: int
) -> Sprite:
    face = card_image(card, trump, labels, width)
    return _sprite(face.rotate(angle, expand=True) if angle else face)


def _face(
    card: Card,
    trump: Suit | None,
    labels: tuple[tuple[int, str], ...],
    angle: int = 0,
    width: int = CARD_W,
) -> Sprite:
    return _face_sprite(card, trump is not None and card.suit == trump, labels, angle, width)


@lru_cache(maxsize=16)
def _back(angle: int, width: int = CARD_W) -> Sprite:
    back = back_image(width)
    return _sprite(back.rotate(angle, expand=True) if angle else back)


@lru_cache(maxsize=512)
def _count(n: int, ground: tuple[int, int, int] = FELT) -> Sprite:
    return _sprite(count_image(n), ground)


@lru_cache(maxsize=8)
def _mark(suit: Suit) -> Sprite:
    return _sprite(mark_image(suit))


@lru_cache(maxsize=8)
def _plate(state: State) -> Sprite:
    return _sprite(plate_image(state), ROOM)


def _opaque(rgb: Image.Image) -> Sprite:
    """A line of a plate: an opaque box, pasted whole (its anti-aliasing kept)."""
    return rgb.quantize(palette=_palette(), dither=Image.Dither.NONE), None


@lru_cache(maxsize=4096)
def _name(name: str, state: State) -> Sprite:
    return _opaque(name_image(name, state))


@lru_cache(maxsize=256)
def _seat_badge(badge: str, state: State) -> Sprite:
    return _opaque(badge_image(badge, state))


@lru_cache(maxsize=256)
def _role(role: Role, text: str, state: State) -> Sprite:
    return _opaque(role_image(role, text, state))


@lru_cache(maxsize=32)
def _fan(n: int, state: State) -> Sprite:
    return _sprite(fan_image(n), PLATE_FILL[state])


@lru_cache(maxsize=1)
def _felt_index() -> int:
    felt = Image.new("RGB", (1, 1), FELT).quantize(palette=_palette(), dither=Image.Dither.NONE)
    return int(felt.getpixel((0, 0)))  # type: ignore[arg-type]


def _canvas(width: int, height: int) -> Image.Image:
    img = Image.new("P", (width, height), _felt_index())
    img.putpalette(_palette().getpalette() or [])
    return img


@lru_cache(maxsize=1)
def _table_base() -> Image.Image:
    return base_image().quantize(palette=_palette(), dither=Image.Dither.NONE)


def _paste(img: Image.Image, sprite: Sprite, x: float, y: float) -> None:
    img.paste(sprite[0], (int(x), int(y)), sprite[1])


def _paste_centred(img: Image.Image, sprite: Sprite, x: float, y: float) -> None:
    w, h = sprite[0].size
    _paste(img, sprite, round(x - w / 2), round(y - h / 2))


def render_card_png(card: Card, *, trump: bool = False, labels: Labels | None = None) -> bytes:
    return _png(card_image(card, trump, _labels(labels)))


def render_table_png(
    v: PublicView,
    seats: Sequence[SeatLabel] | None = None,
    *,
    labels: Labels | None = None,
    words: Mapping[str, str] | None = None,
) -> bytes:
    """The table picture of ``v`` (see table.py): the seats around the felt with their names,
    backs and counts, roles and who is to act; the talon, trump, discard and the bout."""
    return render_scene_png(table_scene(v, seats, labels=labels, words=words))


def render_scene_png(scene: TableScene) -> bytes:
    return _png(draw_scene(scene))


def draw_scene(scene: TableScene) -> Image.Image:
    img = _table_base().copy()
    for seat, (x, y) in zip(scene.seats, seat_boxes(len(scene.seats)), strict=True):
        _paste(img, _plate(seat.state), x, y)
        _paste(img, _name(seat.name, seat.state), x + NAME_BOX[0], y + NAME_BOX[1])
        if seat.badge:
            badge = _seat_badge(seat.badge, seat.state)
            _paste(img, badge, x + BADGE_RIGHT - badge[0].width, y + BADGE_MID - 18)
        if seat.role_text:
            role = _role(seat.role, seat.role_text, seat.state)
            _paste(img, role, x + ROLE_BOX[0], y + ROLE_BOX[1])
        if seat.cards:
            fan = _fan(min(seat.cards, FAN_MAX), seat.state)
            _paste(img, fan, x + 14, y + 46)
            fan_w, fan_h = fan[0].size
            _paste_centred(img, _count(seat.cards, PLATE_FILL[seat.state]),
                           x + 14 + fan_w - 4, y + 46 + fan_h / 2)  # fmt: skip
    lab, cw = scene.labels, TABLE_CARD
    w, h = card_size(cw)
    top = 300 - h // 2
    # The turned trump lies crosswise under the talon while it is still there (R5).
    if scene.turned is not None:
        if scene.hidden_under:  # V14: the face-down card that will become the trump
            _paste(img, _back(90, cw), 30, 300 - w // 2 + 12)
        _paste(img, _face(scene.turned, scene.trump, lab, 90, cw), 44, 300 - w // 2)
    if scene.mark is not None:  # the trump suit once the turned card is drawn
        _paste_centred(img, _mark(scene.mark), 64 if scene.talon else 136, 300)
    if scene.talon:
        layers = min(4, scene.talon)
        for i in range(layers):
            _paste(img, _back(0, cw), 96 + 2 * i, top - 2 * i)
        _paste_centred(img, _count(scene.talon), 96 + w / 2 + 2 * layers, top + h + 24)
    if scene.discard:
        _paste(img, _back(12, cw), 632, top - 6)
        _paste_centred(img, _count(scene.discard), 632 + w / 2 + 8, top + h + 24)
    if scene.pairs:
        pw, cols, step_x, step_y, left, up = pair_grid(len(scene.pairs))
        dx, dy = _defence_offset(pw)
        for i, (attack, defence) in enumerate(scene.pairs):
            px = left + (i % cols) * step_x
            py = up + (i // cols) * step_y
            _paste(img, _face(attack, scene.trump, lab, 0, pw), px, py)
            if defence is not None:
                _paste(img, _face(defence, scene.trump, lab, 0, pw), px + dx, py + dy)
    return img


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
    cw, ch = card_size(HAND_CARD)
    rows = max(1, -(-len(hand) // HAND_PER_ROW))
    per_row = min(len(hand), HAND_PER_ROW) or 1
    width = 16 + HAND_STEP * (per_row - 1) + cw
    img = _canvas(width, 16 + rows * (ch + 8))
    for i, card in enumerate(hand):
        x = 8 + (i % HAND_PER_ROW) * HAND_STEP
        y = 8 + (i // HAND_PER_ROW) * (ch + 8)
        _paste(img, _face(card, trump, lab, 0, HAND_CARD), x, y)
    return _png(img)
