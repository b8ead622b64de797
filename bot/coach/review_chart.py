"""A game review's chart (Pillow): the reviewed seat's winning chance after each of its
decisions, mistakes and blunders marked. A pure function of a :class:`ChartScene` → PNG.

800 x 400: the embed shows it at about 400 x 200 CSS px on desktop, so text is at least 20 px
and a mark at least 12 px across (docs/bot.md, "Pictures: sizes"). The caller (bot.ui) gives
every word already translated.
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from typing import Literal

from PIL import Image, ImageDraw

from bot.render.card_images import FACE, TEXT_FACES, font
from bot.render.table import DIM, ROOM

WIDTH, HEIGHT = 800, 400
LEFT, RIGHT, TOP, BOTTOM = 76, 24, 56, 52
GRID = (70, 76, 84)
LINE = (120, 190, 255)
BEST = (90, 110, 130)

Grade = Literal["good", "inaccuracy", "mistake", "blunder"]
MARK: dict[str, tuple[int, int, int]] = {
    "inaccuracy": (230, 200, 60),
    "mistake": (240, 140, 40),
    "blunder": (220, 50, 50),
}


@dataclass(frozen=True, slots=True)
class ChartPoint:
    """One decision: the chance after the chosen action and after the best one (0.0-1.0),
    its grade, and whether both are proven endgame results."""

    chosen: float
    best: float
    grade: str
    exact: bool


@dataclass(frozen=True, slots=True)
class ChartScene:
    title: str
    axis: str  # the x axis' label, e.g. "your decisions"
    points: tuple[ChartPoint, ...]


def _x(i: int, n: int) -> float:
    span = WIDTH - LEFT - RIGHT
    return LEFT + (span * i / (n - 1) if n > 1 else span / 2)


def _y(chance: float) -> float:
    return TOP + (HEIGHT - TOP - BOTTOM) * (1.0 - max(0.0, min(1.0, chance)))


def render_chart(scene: ChartScene) -> bytes:
    img = Image.new("RGB", (WIDTH, HEIGHT), ROOM)
    draw = ImageDraw.Draw(img)
    label = font(20, TEXT_FACES)
    draw.text((LEFT, 14), scene.title, fill=FACE, font=font(24))
    for pct in (0, 50, 100):
        y = _y(pct / 100)
        draw.line((LEFT, y, WIDTH - RIGHT, y), fill=GRID, width=1 if pct == 50 else 2)
        draw.text((LEFT - 10, y), f"{pct}%", fill=DIM, font=label, anchor="rm")
    draw.text(
        ((LEFT + WIDTH - RIGHT) / 2, HEIGHT - 14), scene.axis, fill=DIM, font=label, anchor="ms"
    )
    n = len(scene.points)
    if n:
        # The best action's chance, faint, under the chosen one's: the gap is what was lost.
        best = [(_x(i, n), _y(p.best)) for i, p in enumerate(scene.points)]
        chosen = [(_x(i, n), _y(p.chosen)) for i, p in enumerate(scene.points)]
        if n > 1:
            draw.line(best, fill=BEST, width=2)
            draw.line(chosen, fill=LINE, width=4)
        for (x, y), (_, by), p in zip(chosen, best, scene.points, strict=True):
            colour = MARK.get(p.grade)
            if colour is None:
                r = 4
                draw.ellipse((x - r, y - r, x + r, y + r), fill=LINE)
                continue
            draw.line((x, by, x, y), fill=colour, width=2)
            r = 8
            if p.exact:  # a proven result: a square
                draw.rectangle((x - r, y - r, x + r, y + r), fill=colour, outline=FACE)
            else:
                draw.ellipse((x - r, y - r, x + r, y + r), fill=colour, outline=FACE)
    out = io.BytesIO()
    img.save(out, "PNG", optimize=True)
    return out.getvalue()
