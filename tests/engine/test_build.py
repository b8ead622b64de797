"""The compiled build (.build/backend.py, mypyc) is the one in use and not older than its
source."""

from __future__ import annotations

import importlib
import os
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

import pytest

import durak_core

#: The modules the build compiles (read from the build backend itself: one list).
_BACKEND = Path(__file__).resolve().parents[2] / ".build" / "backend.py"


def compiled_modules(group: str = "COMPILED") -> list[str]:
    """The backend's list ``group``: the engine's modules, or the bot's (``BOT_COMPILED``)."""
    text = _BACKEND.read_text()
    start = text.index(f"\n{group} = [")
    block = text[start : text.index("]", start)]
    return [line.strip().strip('",') for line in block.splitlines()[2:] if line.strip()]


def test_the_build_lists_existing_modules() -> None:
    names = compiled_modules()
    assert "durak_core/engine.py" in names and "durak_core/state.py" in names
    for name in names:
        assert (_BACKEND.parents[1] / name).is_file(), name


@pytest.mark.skipif(not durak_core.COMPILED, reason="pure-Python install (no C compiler)")
def test_compiled_modules_are_not_stale() -> None:
    assert_fresh(compiled_modules())


def assert_fresh(names: list[str]) -> None:
    """An edited module whose compiled twin is older would be shadowed by it: rebuild."""
    for name in names:
        module = importlib.import_module(name.removesuffix(".py").replace("/", "."))
        assert not (module.__file__ or "").endswith(".py"), f"{name} is not compiled"
        source = _BACKEND.parents[1] / name
        built = [p for p in (source.with_suffix(x) for x in EXTENSION_SUFFIXES) if p.is_file()]
        assert built, f"no compiled twin of {name} beside it"
        assert os.path.getmtime(built[0]) >= os.path.getmtime(source), (
            f"{built[0].name} is older than {name}: rebuild with `python -m pip install -e .`"
        )
