"""The pictures' caches filled at start, before any player waits for them."""

from __future__ import annotations

from durak_core import new_game, preset

from .scene import render_hand_png, render_table_png


def warm_pictures() -> None:
    """Draw one table and one hand of a fresh deal: this builds the palette (~0.2 s), the
    felt, the fonts and the sprites once per process. Otherwise the first game's pictures
    built them while holding the event loop, and every table's commands waited."""
    state = new_game(preset("classic"), 4, seed=0)
    render_table_png(state.public_view())
    render_hand_png(state.view(0))
