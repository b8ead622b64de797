"""The single-elimination bracket picture (Pillow): a :class:`BracketScene` → PNG, 800 x 600
like the standings (tournament.py says why).

Rounds run left to right, each match a box of its two players, lines joining each match to the
one its winner goes on to; the final's column also holds the champion. At most
:data:`MAX_COLUMNS` rounds are drawn — the round of 16 to the final: a first column of 16 slots
is 30 px a name, the least a phone reads. A bigger bracket (32 or 64 entrants) shows its last
four rounds, and a line says that the earlier ones are in the message's text
(docs/tournaments.md, "What people look at").
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from PIL import Image, ImageDraw

from bot.render.card_images import FACE, GOLD
from bot.render.table import DIM, ROOM

from .tournament import BAND, HEADER, HEIGHT, MARGIN, RULE, WIDTH, header, png, text

MAX_COLUMNS = 4
TOP = HEADER + 40  # below the round names
BOX_FILL = (24, 27, 31)
WINNER_FILL = (38, 70, 48)
LOSER = (128, 128, 132)

#: A slot's player: won the match, lost it, is to play it (or plays it now), had a bye, or is
#: not known yet.
SlotState = Literal["won", "lost", "ready", "bye", "unknown"]


@dataclass(frozen=True, slots=True)
class Slot:
    name: str  # the player, or the word for a bye / a place not decided yet
    seed: int | None
    state: SlotState


@dataclass(frozen=True, slots=True)
class MatchBox:
    top: Slot
    bottom: Slot
    live: bool = False  # being played now: a gold frame


@dataclass(frozen=True, slots=True)
class BracketScene:
    """Everything the bracket picture draws: equal scenes, equal pictures. ``rounds``: the
    drawn rounds (at most MAX_COLUMNS, the last one the final), each its matches top to bottom;
    a round holds half the matches of the one before."""

    title: str
    subtitle: str
    round_names: tuple[str, ...]
    rounds: tuple[tuple[MatchBox, ...], ...]
    champion_label: str
    champion: str  # "" while undecided
    more: str = ""  # e.g. "Rounds 1–2: in the list above"; "" for none


def _slot(
    draw: ImageDraw.ImageDraw, slot: Slot, x: float, top: float, w: float, h: float, size: int
) -> None:
    if slot.state == "won":
        draw.rectangle((x + 2, top + 2, x + w - 3, top + h - 2), fill=WINNER_FILL)
    base = top + h / 2 + size * 0.36
    seed_w = size * 1.3  # a column for the seeds, empty for a bye
    if slot.seed is not None:
        text(draw, x + seed_w, base, str(slot.seed), size - 6, seed_w, DIM, align="right")
    colour = {"won": FACE, "lost": LOSER, "ready": FACE, "bye": DIM, "unknown": DIM}[slot.state]
    bold = slot.state in ("won", "ready")
    if slot.state == "unknown":  # "—", or the two who play for the place: all the room
        seed_w, size = -2, size - 2
    text(draw, x + 8 + seed_w, base, slot.name, size, w - 14 - seed_w, colour, bold=bold)


def draw_bracket(scene: BracketScene) -> Image.Image:
    img = Image.new("RGB", (WIDTH, HEIGHT), ROOM)
    draw = ImageDraw.Draw(img)
    header(draw, scene.title, scene.subtitle)
    cols = len(scene.rounds)
    bottom = HEIGHT - (30 if scene.more else 8)
    col_w = (WIDTH - 2 * MARGIN) / max(cols, 1)
    gap = 26 if cols > 1 else 0
    box_w = col_w - gap
    first = max(1, len(scene.rounds[0]) if scene.rounds else 1)
    # The final's column also holds the champion: with one column, below the final.
    slot_h = (bottom - TOP) / (first if cols > 1 else 2)
    box_h = min(96.0, slot_h - 6)
    size = min(28, max(20, round(box_h * 0.36)))
    centres: list[list[float]] = []
    for c, matches in enumerate(scene.rounds):
        x = MARGIN + c * col_w
        if c < len(scene.round_names):
            text(draw, x + box_w / 2, HEADER + 28, scene.round_names[c], 20, col_w - 4, DIM,
                 align="centre")  # fmt: skip
        span = (bottom - TOP) / max(len(matches), 1) if cols > 1 else slot_h
        ys = [TOP + (i + 0.5) * span for i in range(len(matches))]
        centres.append(ys)
        for i, (match, y) in enumerate(zip(matches, ys, strict=True)):
            if c > 0:  # the lines from the two matches feeding this one
                prev = centres[c - 1]
                joint = x - gap / 2
                for feeder in prev[2 * i : 2 * i + 2]:
                    draw.line((x - gap, feeder, joint, feeder), fill=RULE, width=3)
                draw.line((joint, prev[2 * i], joint, prev[min(2 * i + 1, len(prev) - 1)]),
                          fill=RULE, width=3)  # fmt: skip
                draw.line((joint, y, x, y), fill=RULE, width=3)
            top = y - box_h / 2
            edge, width = (GOLD, 4) if match.live else (RULE, 2)
            draw.rounded_rectangle((x, top, x + box_w, top + box_h), 8, fill=BOX_FILL,
                                   outline=edge, width=width)  # fmt: skip
            _slot(draw, match.top, x, top, box_w, box_h / 2, size)
            _slot(draw, match.bottom, x, top + box_h / 2, box_w, box_h / 2, size)
            draw.line((x + 6, y, x + box_w - 6, y), fill=RULE, width=1)
    _champion(draw, scene, centres, col_w, box_w, box_h, bottom)
    if scene.more:
        text(draw, WIDTH / 2, HEIGHT - 8, scene.more, 20, WIDTH - 2 * MARGIN, DIM,
             align="centre")  # fmt: skip
    return img


def _champion(
    draw: ImageDraw.ImageDraw,
    scene: BracketScene,
    centres: list[list[float]],
    col_w: float,
    box_w: float,
    box_h: float,
    bottom: float,
) -> None:
    """The champion's box in the final's column, below the final (above it when the final sits
    low), joined to it."""
    if not centres:
        return
    x = MARGIN + (len(centres) - 1) * col_w
    final = centres[-1][0]
    h = 92
    top = final + box_h / 2 + 36
    if top + h > bottom:
        top = final - box_h / 2 - 36 - h
    decided = bool(scene.champion)
    link = (final + box_h / 2, top) if top > final else (top + h, final - box_h / 2)
    draw.line((x + box_w / 2, link[0], x + box_w / 2, link[1]), fill=GOLD if decided else RULE,
              width=3)  # fmt: skip
    draw.rounded_rectangle((x, top, x + box_w, top + h), 12, fill=BAND,
                           outline=GOLD if decided else RULE, width=4)  # fmt: skip
    text(draw, x + box_w / 2, top + 32, scene.champion_label, 20, box_w - 16, DIM, align="centre")
    text(draw, x + box_w / 2, top + 72, scene.champion or "?", 30, box_w - 16,
         GOLD if decided else DIM, bold=True, align="centre")  # fmt: skip


def render_bracket_png(scene: BracketScene) -> bytes:
    return png(draw_bracket(scene))
