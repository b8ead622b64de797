"""The table picture of a table message: its scene (the cache key), the PNG file, the cache.

The picture is drawn by ``bot.render`` from the public view only (R23); this module adds what
the engine does not know — seat names, AI badges, the words of the table's language.
"""

from __future__ import annotations

import asyncio
import functools
import io

import discord
from cachetools import LRUCache

from bot.render import ROLE_KEYS, SeatLabel, TableScene, render_scene_png, table_scene
from bot.tables.table import Table
from bot.text import t

from .card_words import rank_label
from .cycles import PictureFile

TABLE_IMAGE = "table.png"
PICTURE_CACHE = 256


@functools.lru_cache(maxsize=16)
def rank_labels(loc: str | None) -> dict[int, str]:
    """Rank → label for the pictures, as the reader's players write them (do not mutate)."""
    return {r: rank_label(r, loc) for r in range(2, 15)}


@functools.lru_cache(maxsize=16)
def role_words(loc: str | None) -> dict[str, str]:
    """The role words the picture writes under the names (do not mutate)."""
    return {role: t(f"table.role.{role}", loc) for role in ROLE_KEYS}


def seat_badge(table: Table, seat: int) -> str:
    """That an AI plays a human's seat now (idle or left); shorter than the embed's words
    (``table_embed.seat_badges``): the picture has little room. An AI seat's name says it."""
    who, _ = table.player_of(seat)
    return t(f"picture.badge.{who}", table.language) if who in ("away", "left") else ""


def seat_labels(table: Table) -> tuple[SeatLabel, ...]:
    return tuple(SeatLabel(s.name, seat_badge(table, i)) for i, s in enumerate(table.seats))


def table_picture(table: Table) -> TableScene:
    """What the table picture shows — everything drawn (seats, counts, roles, who acts, the
    middle, the language's words) and nothing else: equal keys, equal pictures (the message
    keeps its attachment when an edit would draw the same picture again)."""
    assert table.state is not None
    loc = table.language
    return table_scene(
        table.public_view(), seat_labels(table), labels=rank_labels(loc), words=role_words(loc)
    )


_PICTURES: LRUCache[TableScene, bytes] = LRUCache(maxsize=PICTURE_CACHE)


async def table_file(scene: TableScene) -> discord.File:
    """The table's picture (``table_picture``; attach it with the embed from
    ``render_table(images=True)``), drawn in a worker thread from its scene (PNG encoding
    releases the GIL, so the event loop goes on meanwhile); recent pictures are kept by their
    scene."""
    png = _PICTURES.get(scene)
    if png is None:
        png = await asyncio.to_thread(render_scene_png, scene)
        _PICTURES[scene] = png  # the least recently used picture makes room
    return PictureFile(io.BytesIO(png), filename=TABLE_IMAGE)
