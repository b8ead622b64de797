"""Compiled modules older than their source: edited since the last build, so Python still runs
the old compiled code (an extension module beside a ``.py`` of the same name wins the import).
The install compiles the engine's and the bot's hot modules (.build/backend.py); the bot says
so at start, so that an edit that seems to do nothing is explained at once."""

from __future__ import annotations

from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

#: The packages whose modules the install may compile.
PACKAGES = ("durak_core", "bot")


def stale_twins(root: Path, packages: tuple[str, ...] = PACKAGES) -> list[str]:
    """Sources under ``root``'s ``packages`` edited after their compiled twin was built."""
    stale = []
    for package in packages:
        for source in sorted((root / package).rglob("*.py")):
            for suffix in EXTENSION_SUFFIXES:
                built = source.with_suffix(suffix)
                if built.is_file() and built.stat().st_mtime < source.stat().st_mtime:
                    stale.append(source.relative_to(root).as_posix())
                    break
    return stale
