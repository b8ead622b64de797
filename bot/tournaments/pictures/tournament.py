"""The Swiss standings picture (Pillow): a pure function of a :class:`StandingsScene` → PNG.

Size: 800 x 600, the table picture's canvas and reasoning (docs/bot.md, "Pictures: sizes"):
Discord fits an embed image into about 400 x 300 CSS px on desktop and the embed's width on a
phone, so a 4:3 picture is shown whole, at half size on desktop. Text is at least 20 px (10 CSS
px on desktop); a row is never thinner than 30 px.

At most :data:`MAX_ROWS` rows are drawn: a table of 64 rows in 600 px would be 9 px a row,
unreadable on a phone. A longer field shows its top rows and a last line saying how many more
the message's text lists (docs/tournaments.md, "What people look at").

The caller (bot.ui) gives every word already translated and every name as it should read: this
module knows no catalogue and no Discord.
"""

from __future__ import annotations

import io
import math
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

from PIL import Image, ImageDraw

from bot.render.card_images import FACE, GOLD, NAME_FACES, TEXT_FACES
from bot.render.table import DIM, ROOM, fit_text
from bot.render.table import _draw_runs as draw_runs
from bot.render.table import _width as runs_width

WIDTH, HEIGHT = 800, 600
MARGIN = 16
HEADER = 84  # the title and subtitle band
HEADINGS_BASE = 110  # the column headings' baseline
ROWS_TOP = 120
MAX_ROWS = 16
MAX_MARKS = 8  # rounds drawn as marks per row; a longer event shows its last ones
BAND = (26, 29, 33)
STRIPE = (50, 54, 61)
RULE = (84, 90, 98)
MEDAL = {1: GOLD, 2: (200, 204, 212), 3: (205, 127, 50)}

#: How a round went for a player, as the mark's colour says it.
MarkKind = Literal["first", "mid", "last", "shared", "bye", "open"]
MARK_FILL: dict[MarkKind, tuple[int, int, int]] = {
    "first": (40, 140, 66),
    "mid": (70, 92, 128),
    "last": (176, 48, 54),
    "shared": (156, 122, 30),
    "bye": (88, 88, 94),
    "open": BAND,
}


@dataclass(frozen=True, slots=True)
class Mark:
    """One round of one player: a short text ("1", "2=", "W", "–") in the kind's colour."""

    text: str
    kind: MarkKind


@dataclass(frozen=True, slots=True)
class StandingsLine:
    rank: str  # "" when it repeats the rank above (a shared rank)
    name: str
    points: str
    tiebreak: str
    marks: tuple[Mark, ...]  # round by round, the first round first
    dim: bool = False  # a withdrawn player


@dataclass(frozen=True, slots=True)
class StandingsScene:
    """Everything the standings picture draws: equal scenes, equal pictures."""

    title: str
    subtitle: str
    #: The headings of the rank, name, points and tie-break columns, and the rounds' prefix
    #: ("R" → R1, R2, ...).
    headings: tuple[str, str, str, str, str]
    rows: tuple[StandingsLine, ...]  # at most MAX_ROWS; the caller cuts
    more: str = ""  # a last line, e.g. "+ 50 more in the list above"; "" for none
    first_round: int = 1  # the round of each row's first mark
    medals: bool = True  # the first three ranks in gold, silver, bronze (not for seeds)


def png(img: Image.Image) -> bytes:
    """PNG bytes, mapped to an adaptive palette: a few dozen colours and their anti-aliased
    blends, so 8 bits a pixel look the same, and encode and send faster."""
    out = io.BytesIO()
    img.quantize(colors=128, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE).save(
        out, format="PNG", compress_level=1
    )
    return out.getvalue()


def text(
    draw: ImageDraw.ImageDraw,
    x: float,
    base: float,
    words: str,
    size: int,
    width: float,
    fill: tuple[int, int, int],
    *,
    bold: bool = False,
    align: Literal["left", "right", "centre"] = "left",
) -> None:
    """``words`` on the baseline ``base``, clipped with "…" to ``width`` px from ``x`` (the
    left edge; the right edge when right-aligned; the centre when centred)."""
    mask, w, ascent = label(words, size, bold, round(width))
    left = x if align == "left" else x - w if align == "right" else x - w / 2
    draw.bitmap((round(left), round(base) - ascent), mask, fill=fill)


# A picture is redrawn after every result, and most of its words (names, points, headings)
# are the same as last time: each is laid out and rasterised once, as a coverage mask that
# any colour is painted through (as ImageDraw.text paints its own), about 3x faster.
@lru_cache(maxsize=4096)
def label(words: str, size: int, bold: bool, width: int) -> tuple[Image.Image, float, int]:
    """The mask of ``words`` clipped to ``width``, its advance width, its baseline's y."""
    runs = fit_text(words, size, NAME_FACES if bold else TEXT_FACES, width)
    w = runs_width(runs)
    ascent = round(size * 1.2)
    mask = Image.new("L", (max(1, math.ceil(w) + 2), ascent + round(size * 0.5)), 0)
    draw_runs(ImageDraw.Draw(mask), 0, ascent, runs, 255)  # type: ignore[arg-type]
    return mask, w, ascent


def header(draw: ImageDraw.ImageDraw, title: str, subtitle: str) -> None:
    draw.rectangle((0, 0, WIDTH, HEADER - 1), fill=BAND)
    draw.rectangle((0, HEADER - 4, WIDTH, HEADER - 1), fill=GOLD)
    text(draw, MARGIN, 42, title, 34, WIDTH - 2 * MARGIN, GOLD, bold=True)
    text(draw, MARGIN, 72, subtitle, 22, WIDTH - 2 * MARGIN, FACE)


def _columns(marks: int) -> tuple[float, float, float, float, float, float]:
    """x of: the rank's right edge, the name, the first mark, a mark's step, the points' and
    the tie-break's right edges."""
    tiebreak_r = WIDTH - MARGIN - 4
    points_r = tiebreak_r - 96
    step = 40 if marks <= 6 else 34
    marks_x = points_r - 96 - step * marks + 6
    return MARGIN + 44, MARGIN + 58, marks_x, step, points_r, tiebreak_r


def _headings(draw: ImageDraw.ImageDraw, scene: StandingsScene, shown: int) -> None:
    """The columns' headings, with the numbers of the last ``shown`` rounds."""
    rank_r, name_x, marks_x, step, points_r, tiebreak_r = _columns(shown)
    rank_h, name_h, points_h, tiebreak_h, round_h = scene.headings
    base = HEADINGS_BASE
    text(draw, rank_r, base, rank_h, 20, 44, DIM, align="right")
    text(draw, name_x, base, name_h, 20, marks_x - name_x - 8, DIM)
    skip = max(0, max((len(r.marks) for r in scene.rows), default=0) - shown)
    last = scene.first_round + skip + shown - 1
    for i in range(shown):
        number = scene.first_round + skip + i
        # "R1".."R9"; from round 10 on the numbers alone, which fit above their marks.
        label = f"{round_h}{number}" if last < 10 else str(number)
        text(draw, marks_x + i * step + (step - 6) / 2, base, label, 18, step, DIM, align="centre")
    text(draw, points_r, base, points_h, 20, 92, DIM, align="right")
    text(draw, tiebreak_r, base, tiebreak_h, 20, 92, DIM, align="right")


def draw_standings(scene: StandingsScene) -> Image.Image:
    img = Image.new("RGB", (WIDTH, HEIGHT), ROOM)
    draw = ImageDraw.Draw(img)
    header(draw, scene.title, scene.subtitle)
    shown = min(MAX_MARKS, max((len(r.marks) for r in scene.rows), default=0))
    rank_r, name_x, marks_x, step, points_r, tiebreak_r = _columns(shown)
    _headings(draw, scene, shown)
    lines = len(scene.rows) + bool(scene.more)
    row_h = min(52, (HEIGHT - ROWS_TOP - 8) // max(lines, 1))  # whole pixels: crisp stripes
    size = min(28, max(20, round(row_h * 0.62)))
    for i, row in enumerate(scene.rows):
        top = ROWS_TOP + i * row_h
        if i % 2 == 0:
            draw.rectangle((MARGIN - 6, top, WIDTH - MARGIN + 6, top + row_h - 1), fill=STRIPE)
        mid = top + row_h / 2
        base = mid + size * 0.36
        name_colour = DIM if row.dim else FACE
        rank = int(row.rank) if row.rank.isdigit() else 0
        if rank in MEDAL and scene.medals:
            r = size * 0.62
            draw.ellipse((rank_r - 18 - r, mid - r, rank_r - 18 + r, mid + r), fill=MEDAL[rank])
            text(
                draw, rank_r - 18, base, row.rank, size - 4, 2 * r, ROOM, bold=True, align="centre"
            )
        else:
            text(draw, rank_r, base, row.rank, size - 2, 44, DIM, align="right")
        text(draw, name_x, base, row.name, size, marks_x - name_x - 10, name_colour, bold=True)
        marks = row.marks[len(row.marks) - shown :] if shown else ()
        box = min(step - 6, row_h - 6)
        for j, mark in enumerate(marks):
            x = marks_x + j * step
            fill = MARK_FILL[mark.kind]
            draw.rounded_rectangle(
                (x, mid - box / 2, x + step - 6, mid + box / 2),
                6,
                fill=fill,
                outline=RULE if mark.kind == "open" else None,
                width=2,
            )
            text(draw, x + (step - 6) / 2, mid + (size - 4) * 0.36, mark.text, size - 4,
                 step - 8, FACE, bold=True, align="centre")  # fmt: skip
        leader = rank == 1 and scene.medals  # nobody leads an event where nobody has scored
        text(draw, points_r, base, row.points, size, 92, GOLD if leader else FACE, bold=True,
             align="right")  # fmt: skip
        text(draw, tiebreak_r, base, row.tiebreak, size - 2, 92, DIM, align="right")
    if scene.more:
        top = ROWS_TOP + len(scene.rows) * row_h
        text(draw, WIDTH / 2, top + row_h / 2 + 7, scene.more, 20, WIDTH - 2 * MARGIN, DIM,
             align="centre")  # fmt: skip
    return img


def render_standings_png(scene: StandingsScene) -> bytes:
    return png(draw_standings(scene))
