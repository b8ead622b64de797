"""The compiled build (.build/backend.py, mypyc) is the one in use and was built from the
sources as they are (durak_core/compiled_sources.py)."""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest

from durak_core.compiled_sources import REBUILD, compiled_twin, edited_sources, was_compiled

#: The modules the build compiles (read from the build backend itself: one list).
_BACKEND = Path(__file__).resolve().parents[2] / ".build" / "backend.py"
#: Skipped only where the install compiled nothing (no C compiler, or DURAK_PURE_PYTHON=1); an
#: edited group runs as Python but still has its compiled twins, so its test fails (#49).
PURE_INSTALL = pytest.mark.skipif(
    not was_compiled(_BACKEND.parents[1] / "durak_core"),
    reason="pure-Python install: nothing was compiled (no C compiler, or DURAK_PURE_PYTHON=1)",
)


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


def assert_marked(names: list[str]) -> None:
    """An editor sees before the first line it changes that the module is compiled."""
    for name in names:
        top = (_BACKEND.parents[1] / name).read_text(encoding="utf-8").splitlines()[0]
        assert top.startswith("# Compiled with mypyc at install"), name


def test_every_compiled_module_says_so_at_its_top() -> None:
    assert_marked(compiled_modules())


@PURE_INSTALL
def test_compiled_modules_are_not_stale() -> None:
    assert_fresh(compiled_modules())


def assert_fresh(names: list[str]) -> None:
    """Every module of the list runs compiled, built from its source as it is now (else its
    group runs as Python: compile it again)."""
    root = _BACKEND.parents[1]
    for name in names:
        assert compiled_twin(root / name) is not None, f"no compiled twin of {name} beside it"
        edited = edited_sources(root / name.split("/")[0])
        assert edited == [], f"edited since the install compiled them: {edited}; run {REBUILD}"
        module = importlib.import_module(name.removesuffix(".py").replace("/", "."))
        assert not (module.__file__ or "").endswith(".py"), f"{name} runs as Python"
