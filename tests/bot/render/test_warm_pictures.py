"""The pictures' caches are filled at start (bot/render/warm.py), so the first game's pictures
do not build them on the event loop while every table's commands wait."""

from __future__ import annotations

from bot.render import scene
from bot.render.warm import warm_pictures
from durak_core import new_game, preset


def test_warm_pictures_builds_what_the_first_pictures_need() -> None:
    scene._palette.cache_clear()
    scene._hand_png.cache_clear()
    scene._table_base.cache_clear()
    warm_pictures()
    assert scene._palette.cache_info().currsize == 1
    assert scene._table_base.cache_info().currsize == 1
    # Another game's first pictures find the palette built (by the warm-up, once).
    state = new_game(preset("classic"), 4, seed=7)
    scene.render_table_png(state.public_view())
    scene.render_hand_png(state.view(1))
    assert scene._palette.cache_info().misses == 1
    assert scene._palette.cache_info().hits >= 2
