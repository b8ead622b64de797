"""The package's build backend: setuptools, plus the engine's hot modules compiled by mypyc.

pyproject.toml names this module (``backend-path``); everything else about the package lives
there. It is setuptools' own backend with one change: its setup step adds the compiled modules —
the same source files, turned into C extensions (docs/performance.md has what it buys,
docs/architecture.md how it fits). Without a C compiler, without mypyc, or with
``DURAK_PURE_PYTHON=1`` the package installs as pure Python and behaves the same, only slower.
(It lives here rather than in a setup.py so that the repository's top level stays as specified.)

Building a wheel (``pip install .``) or an editable install (``pip install -e .``) also builds the
Discord Activity's browser client where npm exists (:mod:`activity_client`); never fatal.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
from pathlib import Path
from typing import Any

from activity_client import build_client, packaged
from setuptools import setup
from setuptools.build_meta import _BuildMetaBackend
from setuptools.command.build_ext import build_ext

#: The engine's hot path (the checks, the listing, the step, the bout's end, the deal) and what
#: it calls per action; what the bot builds from every new state (the views, the cards they
#: hold, the text of each save); and the AI's search (playouts, heuristics, endgame solver),
#: which runs that path.
COMPILED = [
    "durak_core/actions.py",
    "durak_core/after_bout.py",
    "durak_core/bits.py",
    "durak_core/board.py",
    "durak_core/cards.py",
    "durak_core/deck.py",
    "durak_core/engine.py",
    "durak_core/fast.py",
    "durak_core/legality.py",
    "durak_core/listing.py",
    "durak_core/snapshot_writer.py",
    "durak_core/state.py",
    "durak_core/stepping.py",
    "durak_core/precomputed.py",
    "durak_core/views.py",
    "durak_core/ai/cardinfo.py",
    "durak_core/ai/endgame.py",
    "durak_core/ai/endgame_value.py",
    "durak_core/ai/hard.py",
    "durak_core/ai/heuristics.py",
    "durak_core/ai/memory.py",
    "durak_core/ai/playout.py",
    "durak_core/ai/root_stats.py",
    "durak_core/ai/schedule.py",
]

#: The bot's text of every change: the hand and table messages, cards in words, the catalogue
#: look-up with its plural forms, and the saved row. A group of its own (``bot._native``),
#: built apart from the engine's.
BOT_COMPILED = [
    "bot/text/catalogue.py",
    "bot/text/lookup.py",
    "bot/ui/card_words.py",
    "bot/ui/hand_view.py",
    "bot/ui/hand_layout.py",
    "bot/ui/table_embed.py",
    "bot/tables/persistence.py",
]


def _warn(message: str) -> None:
    print(f"durak_core: {message}; installing pure Python (slower, same rules)", file=sys.stderr)


def _ext_modules() -> list[Any]:
    if os.environ.get("DURAK_PURE_PYTHON"):
        return []
    try:
        from mypyc.build import mypycify
    except ImportError:
        _warn("mypyc is not available")
        return []
    try:
        # One group, so that the modules call each other natively; its shared library lands
        # inside the package (durak_core/_native__mypyc...), not at the top level.
        engine = list(mypycify(COMPILED, opt_level="3", group_name="durak_core._native"))
    except (Exception, SystemExit) as exc:  # a type error (mypyc exits): still installable
        _warn(f"mypyc could not compile the engine ({exc})")
        return []
    return engine + _bot_modules(mypycify)


def _bot_modules(mypycify: Any) -> list[Any]:
    """The bot's group, built apart: if it fails, the engine stays compiled."""
    try:
        return list(mypycify(BOT_COMPILED, opt_level="3", group_name="bot._native"))
    except (Exception, SystemExit) as exc:
        print(f"bot: mypyc could not compile {BOT_COMPILED} ({exc}); pure Python", file=sys.stderr)
        return []


#: Each group's package and the sources it compiles (its shared library is
#: ``<package>/_native__mypyc…``).
GROUPS = {"durak_core": COMPILED, "bot": BOT_COMPILED}
#: Beside each group's shared library: the SHA-256 of every source it was compiled from, which
#: the package checks at import (durak_core/compiled_sources.py: an edited group runs as Python).
RECORD = "_compiled_sources.json"


class _OptionalBuildExt(build_ext):
    """All or nothing: if any extension fails to build (no C compiler), none is installed, so
    the package never mixes a compiled module with a missing shared library. A built group
    gets its record of sources."""

    def run(self) -> None:
        try:
            super().run()
        except Exception as exc:
            _warn(f"the C build failed ({exc})")
            for path in self.get_outputs():
                if os.path.exists(path):
                    os.remove(path)
            self.extensions = []
            return
        root = Path(__file__).resolve().parents[1]
        for ext in self.extensions:
            package, _, name = ext.name.rpartition(".")
            if name.endswith("__mypyc") and package in GROUPS:
                record = Path(self.get_ext_fullpath(ext.name)).parent / RECORD
                sources = {s: hashlib.sha256((root / s).read_bytes()).hexdigest()
                           for s in GROUPS[package]}  # fmt: skip
                record.write_text(json.dumps(sources, indent=1, sort_keys=True) + "\n")


class _Backend(_BuildMetaBackend):
    # setuptools' PEP 517 backend is this class (build_meta's hooks are its bound methods);
    # run_setup is where it would run a setup.py.
    def run_setup(self, setup_script: str = "setup.py") -> None:
        # setuptools also runs this to list the build's requirements and to write the metadata,
        # which need no extension: mypyc's type analysis would run three times per build.
        ext_modules = _ext_modules() if _BUILDING else []
        setup(ext_modules=ext_modules, cmdclass={"build_ext": _OptionalBuildExt})


#: Whether a wheel is being built (the one step that compiles).
_BUILDING = False


_BACKEND = _Backend()
get_requires_for_build_wheel = _BACKEND.get_requires_for_build_wheel
get_requires_for_build_sdist = _BACKEND.get_requires_for_build_sdist
get_requires_for_build_editable = _BACKEND.get_requires_for_build_editable
prepare_metadata_for_build_wheel = _BACKEND.prepare_metadata_for_build_wheel
prepare_metadata_for_build_editable = _BACKEND.prepare_metadata_for_build_editable
build_sdist = _BACKEND.build_sdist


def build_wheel(
    wheel_directory: str,
    config_settings: dict[str, Any] | None = None,
    metadata_directory: str | None = None,
) -> str:
    """A wheel carries the built client as package data (``activity_client.packaged``)."""
    root = Path(__file__).resolve().parents[1]
    build_client(root)
    with packaged(root):
        return str(
            _building(_BACKEND.build_wheel, wheel_directory, config_settings, metadata_directory)
        )


def build_editable(
    wheel_directory: str,
    config_settings: dict[str, Any] | None = None,
    metadata_directory: str | None = None,
) -> str:
    """An editable install serves the checkout's ``activity/dist`` itself."""
    build_client(Path(__file__).resolve().parents[1])
    return str(
        _building(_BACKEND.build_editable, wheel_directory, config_settings, metadata_directory)
    )


def _building(build: Any, *args: Any) -> Any:
    global _BUILDING
    _BUILDING = True
    try:
        return build(*args)
    finally:
        _BUILDING = False
