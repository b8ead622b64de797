"""The table picture: the seats around an oval felt, the talon, trump and discard in the middle
and the bout's pairs between them — public facts only (R23), never a hand.

Size: Discord shows an embed's image scaled down to fit about 400 x 300 CSS pixels on desktop
and to the embed's width on a phone (about 300 CSS pixels), and fetches a larger copy for
high-density screens. The canvas is 800 x 600 (4:3, the box's shape: desktop shows it at
exactly half size, a 2x screen pixel for pixel); names, roles and counts are 26-30 px (13-15
CSS px on desktop, about 10 on a phone), badges 24 px (20 when long), card ranks 28 px. See
docs/bot.md, "Pictures: sizes".

Cost: the picture changes with every action (counts, who acts), so a scene is only pastes of
cached sprites onto a copy of the cached empty table, all in the fixed palette (scene.py draws
it): a plate per state, a name line per (name, state), a badge per (badge, state), a role line
per (role, words, state), a fan of backs per size, a count per number, a face per card and size.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, fields
from operator import attrgetter
from typing import Literal

from PIL import Image, ImageDraw

from durak_core import Card, PublicView, Suit

from .card_images import (
    FACE,
    GOLD,
    NAME_FACES,
    TEXT_FACES,
    Font,
    back_image,
    card_size,
    draw_suit,
    font,
    has_glyph,
)

WIDTH, HEIGHT = 800, 600
ROOM = (40, 43, 48)
FELT = (34, 110, 52)
RIM = (92, 58, 32)
OVAL = (26, 64, 774, 536)
PLATE_W, PLATE_H = 250, 120
PLATE_TOP, PLATE_BOTTOM = 10, HEIGHT - 10 - PLATE_H
#: Where the pairs go, between the talon (left) and the discard pile (right).
PAIRS = (196, 142, 624, 458)
PAIR_GAP = 10
#: Card widths for the bout, largest first: the largest whose grid holds every pair is used.
PAIR_WIDTHS = (80, 64, 52, 42)
TABLE_CARD = 80
MINI_BACK = 32
FAN_STEP = 10
FAN_MAX = 3
NAME_SIZE, TEXT_SIZE, BADGE_SIZE, COUNT_SIZE = 30, 26, 24, 26
MAX_CHARS = 100  # more than any line holds (Discord names are at most 32)

State = Literal["idle", "act", "out", "durak"]
Role = Literal["", "attacker", "defender", "thrower", "out", "durak"]
#: The role words a caller gives (from its catalogue); "out" holds a ``{place}`` field.
ROLE_KEYS: tuple[Role, ...] = ("attacker", "defender", "thrower", "out", "durak")

PLATE_FILL: dict[State, tuple[int, int, int]] = {
    "idle": (22, 26, 24),
    "act": (62, 54, 14),
    "out": (58, 58, 60),
    "durak": (84, 22, 26),
}
PLATE_EDGE: dict[State, tuple[tuple[int, int, int], int]] = {
    "idle": ((96, 104, 100), 2),
    "act": (GOLD, 6),
    "out": ((80, 80, 82), 2),
    "durak": ((230, 60, 60), 5),
}
ROLE_COLOUR: dict[Role, tuple[int, int, int]] = {
    "": FACE,
    "attacker": (255, 160, 90),
    "defender": (130, 195, 255),
    "thrower": (250, 222, 130),
    "out": (175, 175, 178),
    "durak": (255, 130, 130),
}
DIM = (165, 165, 168)
BADGE_FILL = (70, 78, 96)


@dataclass(frozen=True, slots=True)
class SeatLabel:
    """What the caller knows of a seat and the engine does not: its name and a short badge
    (e.g. "AI · hard", "AI plays"; empty for none)."""

    name: str
    badge: str = ""


@dataclass(frozen=True, slots=True)
class SeatScene:
    name: str
    badge: str
    cards: int
    role: Role
    role_text: str
    state: State


@dataclass(frozen=True, slots=True)
class TableScene:
    """Everything the table picture draws, and nothing else: equal scenes, equal pictures."""

    seats: tuple[SeatScene, ...]
    pairs: tuple[tuple[Card, Card | None], ...]
    #: The suit whose faces get the gold frame (None: no trump).
    trump: Suit | None
    #: The face-up card crosswise under the talon (R5), or None once it is drawn.
    turned: Card | None
    #: V14: the face-down card under the turned one.
    hidden_under: bool
    #: The trump suit's mark, shown once the turned card has been drawn.
    mark: Suit | None
    talon: int
    discard: int
    labels: tuple[tuple[int, str], ...]
    #: The hash, computed once (None until asked): a scene is the picture cache's key, looked
    #: up several times per edit, and the generated ``__hash__`` hashes every seat each time.
    _hash: int | None = field(default=None, init=False, repr=False, compare=False)

    def __hash__(self) -> int:
        if self._hash is None:
            object.__setattr__(self, "_hash", hash(_scene_fields(self)))
        assert self._hash is not None
        return self._hash


#: The fields equal scenes have equal (all but the hash), as a tuple.
_scene_fields = attrgetter(*(f.name for f in fields(TableScene) if f.compare))


def seat_role(v: PublicView, seat: int) -> tuple[Role, int]:
    """The seat's role as the picture shows it, and its place when it is out (else 0)."""
    if seat in v.finishing_order:
        return "out", v.finishing_order.index(seat) + 1
    if v.result is not None:
        return ("durak" if seat in v.result.losers else ""), 0
    if seat == v.attacker:
        return "attacker", 0
    if seat == v.defender:
        return "defender", 0
    if seat in v.attackers:
        return "thrower", 0
    return "", 0


def table_scene(
    v: PublicView,
    seats: Sequence[SeatLabel] | None = None,
    *,
    labels: Mapping[int, str] | None = None,
    words: Mapping[str, str] | None = None,
) -> TableScene:
    """What the picture of ``v`` shows; ``seats`` names the seats (default: their numbers) and
    ``words`` gives the role words (see ``ROLE_KEYS``; none: roles are shown by colour only)."""
    names = list(seats) if seats is not None else [SeatLabel(str(i + 1)) for i in range(v.seats)]
    out: list[SeatScene] = []
    for i in range(v.seats):
        role, place = seat_role(v, i)
        text = (words or {}).get(role, "") if role else ""
        if role == "out":
            text = text.format(place=place)
        state: State = (
            "out"
            if role == "out"
            else "durak"
            if role == "durak"
            else "act"
            if i in v.awaiting
            else "idle"
        )
        out.append(SeatScene(names[i].name, names[i].badge, v.hand_sizes[i], role, text, state))
    turned = v.trump_card if v.trump_in_talon else None
    return TableScene(
        seats=tuple(out),
        pairs=tuple(v.table),
        trump=v.trump,
        turned=turned,
        hidden_under=v.trump_in_talon and v.trump_will_change,
        mark=v.trump if not v.trump_in_talon else None,
        talon=v.talon_size,
        discard=v.discard_size,
        labels=tuple(sorted((labels or {}).items())),
    )


# -- seat positions ------------------------------------------------------------------------


def _row(n: int) -> list[int]:
    """Left x of ``n`` plates centred in a row."""
    gap = 14 if n < 3 else (WIDTH - 3 * PLATE_W) // 4
    left = (WIDTH - n * PLATE_W - (n - 1) * gap) // 2
    return [left + i * (PLATE_W + gap) for i in range(n)]


def seat_boxes(n: int) -> list[tuple[int, int]]:
    """Top-left corners of the seats' plates, clockwise in seat order from the bottom row
    (right to left) to the top row (left to right): everyone sees the same picture."""
    bottom = (n + 1) // 2 if n != 3 else 1
    top = n - bottom
    lower = [(x, PLATE_BOTTOM) for x in reversed(_row(bottom))]
    upper = [(x, PLATE_TOP) for x in _row(top)]
    return lower + upper


# -- text ----------------------------------------------------------------------------------


def _runs(text: str, size: int, faces: tuple[str, ...]) -> list[tuple[Font, str]]:
    """``text`` split into runs of the first face that has each character; characters no face
    has are left out (the text embed still names the seat in full)."""
    fonts = [font(size, (name,)) for name in faces]
    chars: list[tuple[Font, str]] = []
    for ch in text[:MAX_CHARS]:
        if not ch.isprintable() and ch != "\u200d":  # controls, bidi marks; keep emoji joins
            continue
        f = next((f for f in fonts if has_glyph(f, ch)), None)
        if f is not None:
            chars.append((f, ch))
    while chars and chars[0][1].isspace():  # a name whose first characters were left out
        chars.pop(0)
    return _merge(chars)


def _width(runs: list[tuple[Font, str]]) -> float:
    return sum(f.getlength(s) for f, s in runs)


def fit_text(text: str, size: int, faces: tuple[str, ...], width: float) -> list[tuple[Font, str]]:
    """``text`` in runs of fonts, clipped with "…" to ``width`` pixels."""
    runs = _runs(text, size, faces)
    if _width(runs) <= width:
        return runs
    chars = [(f, ch) for f, s in runs for ch in s]
    ellipsis = font(size, faces)
    while chars:
        chars.pop()
        clipped = [*_merge(chars), (ellipsis, "…")]
        if _width(clipped) <= width:
            return clipped
    return [(ellipsis, "…")]


def _merge(chars: list[tuple[Font, str]]) -> list[tuple[Font, str]]:
    runs: list[tuple[Font, str]] = []
    for f, ch in chars:
        if runs and runs[-1][0] is f:
            runs[-1] = (f, runs[-1][1] + ch)
        else:
            runs.append((f, ch))
    return runs


def _draw_runs(
    draw: ImageDraw.ImageDraw,
    x: float,
    y: float,
    runs: list[tuple[Font, str]],
    fill: tuple[int, int, int],
) -> None:
    """Runs left to right from (x, y), all on one baseline (``y`` is the baseline)."""
    for f, s in runs:
        draw.text((x, y), s, fill=fill, font=f, anchor="ls")
        x += f.getlength(s)


# -- sprites (RGBA, mapped to the palette by scene._sprite) -----------------------------------


# A plate is drawn in parts, each a sprite cached by what it shows: the plate of a state, the
# name line (name, state), the badge (badge, state), the role line (role, words, state) — the
# lines are opaque boxes of the plate's colour, small and pasted whole.


def plate_image(state: State) -> Image.Image:
    """An empty plate in the state's colours."""
    img = Image.new("RGBA", (PLATE_W, PLATE_H), (0, 0, 0, 0))
    edge, width = PLATE_EDGE[state]
    ImageDraw.Draw(img).rounded_rectangle(
        (0, 0, PLATE_W - 1, PLATE_H - 1), 16, fill=PLATE_FILL[state], outline=edge, width=width
    )
    return img


#: Where the lines lie on a plate (left, top, right, bottom), inside the widest frame.
NAME_BOX = (8, 7, PLATE_W - 8, 45)
ROLE_BOX = (14, PLATE_H - 38, PLATE_W - 14, PLATE_H - 7)
BADGE_RIGHT, BADGE_MID, BADGE_LEFT = PLATE_W - 12, 66, 92


def name_image(name: str, state: State) -> Image.Image:
    """The name line; a gold pointer before the name of a seat the game waits for."""
    x0, y0, x1, y1 = NAME_BOX
    img = Image.new("RGB", (x1 - x0, y1 - y0), PLATE_FILL[state])
    draw = ImageDraw.Draw(img)
    x = 14 - x0
    if state == "act":
        draw.polygon([(12 - x0, 14 - y0), (28 - x0, 25 - y0), (12 - x0, 36 - y0)], fill=GOLD)
        x = 34 - x0
    runs = fit_text(name.strip(), NAME_SIZE, NAME_FACES, PLATE_W - 12 - x0 - x)
    _draw_runs(draw, x, 36 - y0, runs or [(font(NAME_SIZE), "?")],
               DIM if state == "out" else FACE)  # fmt: skip
    return img


def role_image(role: Role, text: str, state: State) -> Image.Image:
    x0, y0, x1, y1 = ROLE_BOX
    img = Image.new("RGB", (x1 - x0, y1 - y0), PLATE_FILL[state])
    runs = fit_text(text, TEXT_SIZE, TEXT_FACES, x1 - x0)
    _draw_runs(ImageDraw.Draw(img), 0, PLATE_H - 12 - y0, runs, ROLE_COLOUR[role])
    return img


def badge_image(text: str, state: State) -> Image.Image:
    """The badge in a pill (right-aligned on the cards' row at ``BADGE_RIGHT``); a long one in
    a smaller size, then clipped."""
    room = BADGE_RIGHT - BADGE_LEFT - 16
    for size in (BADGE_SIZE, BADGE_SIZE - 2, BADGE_SIZE - 4):
        runs = _runs(text, size, TEXT_FACES)
        if _width(runs) <= room:
            break
    else:
        runs = fit_text(text, size, TEXT_FACES, room)
    w = round(_width(runs)) + 16
    img = Image.new("RGB", (w, 36), PLATE_FILL[state])
    draw = ImageDraw.Draw(img)
    draw.rounded_rectangle((0, 1, w - 1, 35), 12, fill=BADGE_FILL)
    _draw_runs(draw, 8, 26, runs, FACE)
    return img


def fan_image(n: int) -> Image.Image:
    """``n`` small backs fanned out (a hand's size, drawn up to ``FAN_MAX``)."""
    back = back_image(MINI_BACK)
    shown = min(n, FAN_MAX)
    w, h = back.size
    img = Image.new("RGBA", (w + FAN_STEP * (shown - 1), h), (0, 0, 0, 0))
    for i in range(shown):
        img.alpha_composite(back, (FAN_STEP * i, 0))
    return img


def count_image(n: int, size: int = COUNT_SIZE) -> Image.Image:
    """A count in a dark circle."""
    d = size + 18
    img = Image.new("RGBA", (d, d), (0, 0, 0, 0))
    draw = ImageDraw.Draw(img)
    draw.ellipse((0, 0, d - 1, d - 1), fill=(16, 16, 16), outline=FACE, width=2)
    draw.text((d / 2, d / 2), str(n), fill=FACE, font=font(size), anchor="mm")
    return img


def mark_image(suit: Suit) -> Image.Image:
    """The trump suit in a gold ring."""
    img = Image.new("RGBA", (60, 60), (0, 0, 0, 0))
    draw = ImageDraw.Draw(img)
    draw.ellipse((0, 0, 59, 59), fill=FACE, outline=GOLD, width=6)
    draw_suit(draw, suit, 30, 30, 32)
    return img


def base_image() -> Image.Image:
    """The empty table: the room, the wooden rim and the felt."""
    img = Image.new("RGB", (WIDTH, HEIGHT), ROOM)
    draw = ImageDraw.Draw(img)
    draw.ellipse(OVAL, fill=RIM)
    x0, y0, x1, y1 = OVAL
    draw.ellipse((x0 + 10, y0 + 10, x1 - 10, y1 - 10), fill=FELT)
    return img


def palette_sample() -> Image.Image:
    """Everything the table picture draws besides card faces, for the palette (scene.py)."""
    img = base_image()
    states: tuple[State, ...] = ("idle", "act", "out", "durak")
    roles: tuple[Role, ...] = ("attacker", "", "out", "durak")
    for i, (state, role) in enumerate(zip(states, roles, strict=True)):
        x, y = (i % 3) * (PLATE_W + 10), (i // 3) * PLATE_H
        plate = plate_image(state)
        img.paste(plate, (x, y), plate)
        img.paste(name_image("Nameplate Ёж", state), (x + NAME_BOX[0], y + NAME_BOX[1]))
        img.paste(badge_image("AI · hard", state), (x + BADGE_LEFT, y + BADGE_MID - 18))
        img.paste(role_image(role, "defender thrower", state), (x + ROLE_BOX[0], y + ROLE_BOX[1]))
    for j, role in enumerate(ROLE_KEYS):
        img.paste(role_image(role, "main attacker ходит", "idle"), (300, 2 * PLATE_H + 20 + 36 * j))
    fan, count = fan_image(FAN_MAX), count_image(36)
    img.paste(fan, (300, 400), fan)
    img.paste(count, (400, 400), count)
    return img


# -- layout --------------------------------------------------------------------------------


def pair_grid(n: int) -> tuple[int, int, float, float, float, float]:
    """Card width, columns, x step, y step, and the grid's left/top for ``n`` pairs: the
    largest cards whose grid holds every pair, else the smallest with pairs overlapping."""
    x0, y0, x1, y1 = PAIRS
    zw, zh = x1 - x0, y1 - y0
    n = max(n, 1)
    for width in PAIR_WIDTHS:
        pw, ph = _pair_size(width)
        cols = max(1, (zw + PAIR_GAP) // (pw + PAIR_GAP))
        rows = max(1, (zh + PAIR_GAP) // (ph + PAIR_GAP))
        if cols * rows >= n:
            used_cols = min(cols, n)
            used_rows = -(-n // used_cols)
            used_cols = -(-n // used_rows)  # balanced rows
            gw = used_cols * pw + (used_cols - 1) * PAIR_GAP
            gh = used_rows * ph + (used_rows - 1) * PAIR_GAP
            return (width, used_cols, pw + PAIR_GAP, ph + PAIR_GAP,
                    x0 + (zw - gw) // 2, y0 + (zh - gh) // 2)  # fmt: skip
    width = PAIR_WIDTHS[-1]
    pw, ph = _pair_size(width)
    rows = max(1, (zh + PAIR_GAP) // (ph + PAIR_GAP))
    cols = -(-n // rows)
    step_x = (zw - pw) / (cols - 1) if cols > 1 else 0.0
    gh = rows * ph + (rows - 1) * PAIR_GAP
    return width, cols, step_x, ph + PAIR_GAP, x0, y0 + (zh - gh) // 2


def _pair_size(width: int) -> tuple[int, int]:
    w, h = card_size(width)
    dx, dy = _defence_offset(width)
    return w + dx, h + dy


def _defence_offset(width: int) -> tuple[int, int]:
    """Where the defence card lies on its attack card: down and to the right, the attack
    card's rank and suit still showing."""
    w, h = card_size(width)
    return round(w * 0.3), round(h * 0.32)


__all__ = [
    "HEIGHT",
    "ROLE_KEYS",
    "WIDTH",
    "SeatLabel",
    "TableScene",
    "seat_boxes",
    "table_scene",
]
