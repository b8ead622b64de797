"""The bot's compiled modules (.build/backend.py, ``BOT_COMPILED``: the text of every change)
exist and, in a compiled install, are the ones in use and not older than their source (an
edited hand_view.py would otherwise be shadowed by its stale twin)."""

from __future__ import annotations

from pathlib import Path

from tests.durak_core.test_build import PURE_INSTALL, assert_fresh, assert_marked, compiled_modules

ROOT = Path(__file__).resolve().parents[2]


def test_the_build_lists_existing_bot_modules() -> None:
    names = compiled_modules("BOT_COMPILED")
    assert "bot/ui/hand_view.py" in names and "bot/text/lookup.py" in names
    for name in names:
        assert (ROOT / name).is_file(), name
        assert not name.endswith("__init__.py"), f"{name}: mypyc cannot compile it (bot/text)"


def test_every_compiled_bot_module_says_so_at_its_top() -> None:
    assert_marked(compiled_modules("BOT_COMPILED"))


@PURE_INSTALL
def test_compiled_bot_modules_are_not_stale() -> None:
    assert_fresh(compiled_modules("BOT_COMPILED"))
