"""Compiled modules never run stale: a group whose sources changed since its build runs as Python.

The install compiles groups of modules with mypyc (``.build/backend.py``): ``durak_core``'s hot
path and the bot's text. Python imports an extension module in preference to the ``.py`` beside
it, so after an edit the old compiled code would keep running, silently. The build therefore
writes, beside each group's shared library, ``_compiled_sources.json``: the SHA-256 of every
source it compiled. When the package is imported, :func:`run_fresh_sources` compares those with
the sources as they are now; if any differs (or the record is missing), every module of that
group is imported from its ``.py`` instead — a group's modules call each other natively, so
they go compiled or pure together — and a warning names the edited modules and the command that
compiles them again. An edit therefore takes effect at once (the edit → test loop needs no
rebuild); only its speed waits for the install.

Packaging, not game logic: this module reads the package's own files once, at import.
"""

from __future__ import annotations

import hashlib
import importlib.abc
import importlib.util
import json
import sys
import warnings
from collections.abc import Sequence
from importlib.machinery import EXTENSION_SUFFIXES, ModuleSpec
from pathlib import Path
from types import ModuleType

#: The record a build writes beside a group's shared library (``<package>/_native__mypyc…``).
RECORD = "_compiled_sources.json"
#: What compiles the groups again (an editable install; a plain install re-installs instead).
REBUILD = "python -m pip install -e '.[dev]'"


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def compiled_twin(source: Path) -> Path | None:
    """The extension module built from ``source``, if there is one."""
    for suffix in EXTENSION_SUFFIXES:
        built = source.with_suffix(suffix)
        if built.is_file():
            return built
    return None


def group_modules(package_dir: Path) -> dict[str, Path]:
    """The modules of the group built in ``package_dir``'s package (dotted name → source), from
    its record; empty when nothing there is compiled."""
    record = package_dir / RECORD
    root = package_dir.parent
    if not record.is_file():
        # compiled twins without a record (a build from before records): the group's modules
        # are the ones with a twin
        return {
            _dotted(source, root): source
            for source in sorted(package_dir.rglob("*.py"))
            if compiled_twin(source) is not None
        }
    listed = json.loads(record.read_text(encoding="utf-8"))
    return {_dotted(root / name, root): root / name for name in listed}


def was_compiled(package_dir: Path) -> bool:
    """Whether the install compiled ``package_dir``'s group (edited since or not)."""
    return any(compiled_twin(source) for source in group_modules(package_dir).values())


def edited_sources(package_dir: Path) -> list[str]:
    """The group's sources that differ from what was compiled (all of them, when the record is
    missing but compiled modules are there), as paths relative to the package's parent."""
    root = package_dir.parent
    modules = group_modules(package_dir)
    if not was_compiled(package_dir):
        return []  # a pure install: nothing can be stale
    record = package_dir / RECORD
    if not record.is_file():
        return [source.relative_to(root).as_posix() for source in modules.values()]
    built: dict[str, str] = json.loads(record.read_text(encoding="utf-8"))
    return [
        name
        for name, sha in built.items()
        if not (root / name).is_file() or digest(root / name) != sha
    ]


class _SourceFirst(importlib.abc.MetaPathFinder):
    """Imports the named modules from their ``.py``, ahead of their compiled twins."""

    def __init__(self, sources: dict[str, Path]) -> None:
        self.sources = sources

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> ModuleSpec | None:
        source = self.sources.get(fullname)
        if source is None:
            return None
        return importlib.util.spec_from_file_location(fullname, source)


def run_fresh_sources(package_dir: Path, *, also_pure: bool = False) -> list[str]:
    """Before a package imports its submodules: if its compiled group is out of date (or
    ``also_pure``: a group it depends on runs as Python, so its compiled callers must not),
    import the whole group from source, with a warning. Returns the edited sources."""
    edited = edited_sources(package_dir)
    if not edited and not also_pure:
        return []
    modules = group_modules(package_dir)
    if not modules or not any(compiled_twin(source) for source in modules.values()):
        return edited
    sys.meta_path.insert(0, _SourceFirst(modules))
    if edited:
        why = (
            f"edited since it was compiled: {', '.join(edited)}"
            if (package_dir / RECORD).is_file()
            else "compiled by an install that kept no record of its sources"
        )
        warnings.warn(
            f"{package_dir.name}: {why}; its compiled modules run as Python (the same rules, "
            f"slower) until `{REBUILD}`",
            RuntimeWarning,
            stacklevel=3,
        )
    return edited


def _dotted(source: Path, root: Path) -> str:
    return ".".join(source.relative_to(root).with_suffix("").parts)


__all__ = ["REBUILD", "RECORD", "edited_sources", "run_fresh_sources"]
