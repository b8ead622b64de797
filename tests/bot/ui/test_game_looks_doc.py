"""docs/bot.md "How a game looks" holds what the code renders: the generator's fragment equals
the text between the markers (change a hand's wording without re-running
``python docs/make_game_looks.py`` and this fails), and the pictures it writes have the sizes
the renderer promises."""

from __future__ import annotations

import importlib.util
import io
import sys
from pathlib import Path
from types import ModuleType

from PIL import Image

from bot.render import HEIGHT, WIDTH
from bot.render.card_images import card_size
from bot.render.scene import HAND_CARD, HAND_PER_ROW, HAND_STEP
from bot.tables.play import may_auto_pass

DOCS = Path(__file__).parents[3] / "docs"


def generator() -> ModuleType:
    name = "make_game_looks"
    module = sys.modules.get(name)
    if module is None:
        spec = importlib.util.spec_from_file_location(name, DOCS / f"{name}.py")
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    return module


def test_bot_md_holds_what_the_hand_renders() -> None:
    gen = generator()
    text = (DOCS / "bot.md").read_text(encoding="utf-8")
    fragment = gen.fragment()
    assert gen.region(text) == fragment, "run `python docs/make_game_looks.py`"
    assert gen.replaced(text, fragment) == text
    # Every role the section promises is there, as the bot words it.
    for words in ("You lead", "Bob is still to beat", "You take;", "or be done.",
                  "You are done for this bout", "on 9♠] [8♥ on 9♠] | [8♥ on 8♣] | [Take]",
                  "You have nothing to throw in", "[Transfer 7♦]", "You are out (place 1)",
                  "The game is over."):  # fmt: skip
        assert words in fragment, words


def test_the_pictures_have_the_promised_sizes(tmp_path: Path) -> None:
    gen = generator()
    bot_md = tmp_path / "bot.md"
    bot_md.write_text(f"before\n{gen.START}\nold\n{gen.END}\nafter\n", encoding="utf-8")
    gen.write(tmp_path / "img", bot_md)
    assert bot_md.read_text(encoding="utf-8") == (
        f"before\n{gen.START}\n{gen.fragment()}{gen.END}\nafter\n"
    )
    sizes = {}
    for name in (gen.TABLE_PNG, gen.HAND_PNG, gen.END_PNG):
        with Image.open(io.BytesIO((tmp_path / "img" / name).read_bytes())) as img:
            sizes[name] = img.size
    assert sizes[gen.TABLE_PNG] == sizes[gen.END_PNG] == (WIDTH, HEIGHT)
    cards = len(gen.main_game().play(*gen.MOMENT).table.state.view(gen.BOB).hand)
    cw, ch = card_size(HAND_CARD)
    assert cards <= HAND_PER_ROW
    assert sizes[gen.HAND_PNG] == (16 + HAND_STEP * (cards - 1) + cw, 16 + ch + 8)


def test_the_moment_shows_a_bout_in_progress() -> None:
    """The pictures' moment: pairs beaten and open, Bob (the defender) awaited, an AI seat and
    a seat an AI plays for its away owner."""
    gen = generator()
    table = gen.main_game().play(*gen.MOMENT).table
    v = table.public_view()
    assert sum(d is not None for _, d in v.table) == 2 and sum(d is None for _, d in v.table) == 2
    assert v.awaiting == (gen.BOB,) == (v.defender,)
    assert table.seats[gen.AI].is_ai and table.stand_in(gen.DANA)
    assert may_auto_pass(table.state.view(gen.ALICE))
