"""Pictures of the table and the hand (Pillow): pure functions of engine views → PNG bytes.

No Discord here; the UI attaches the bytes to its messages. Only what a view holds is drawn,
so a table picture shows exactly the public facts (R23) and a hand picture one seat's view.
"""

from __future__ import annotations

from .card_images import CARD_H, CARD_W, back_image, card_image
from .scene import render_card_png, render_hand_png, render_scene_png, render_table_png
from .table import HEIGHT, ROLE_KEYS, WIDTH, SeatLabel, TableScene, table_scene

__all__ = [
    "CARD_H",
    "CARD_W",
    "HEIGHT",
    "ROLE_KEYS",
    "WIDTH",
    "SeatLabel",
    "TableScene",
    "back_image",
    "card_image",
    "render_card_png",
    "render_hand_png",
    "render_scene_png",
    "render_table_png",
    "table_scene",
]
