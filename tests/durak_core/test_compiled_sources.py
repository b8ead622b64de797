"""A compiled group never runs stale (durak_core/compiled_sources.py): the build records the
SHA-256 of each source it compiled; at import, a group with an edited source (or no record) is
imported from its sources, with a warning naming the edit and the command that compiles again.
Each import runs in a fresh interpreter: the check installs an import hook for the process."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

import pytest

import durak_core
from durak_core.compiled_sources import REBUILD, RECORD

ROOT = Path(__file__).resolve().parents[2]

INIT = """
from pathlib import Path
from durak_core.compiled_sources import run_fresh_sources
EDITED = run_fresh_sources(Path(__file__).parent)
"""


def run(code: str, path: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": f"{path}{os.pathsep}{ROOT}"}
    return subprocess.run(
        [sys.executable, "-c", code],
        env=env,
        cwd=path,  # the first place imports look (-c puts the working directory first)
        capture_output=True,
        text=True,
        timeout=60,
    )


def built_package(tmp: Path) -> Path:
    """``pkg`` with one "compiled" module: a twin that is no loadable extension (importing it
    fails), so whether the twin or the source was imported shows in the result."""
    pkg = tmp / "pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text(INIT)
    (pkg / "mod.py").write_text('VALUE = "source as built"\n')
    (pkg / f"mod{EXTENSION_SUFFIXES[0]}").write_bytes(b"not an extension module")
    sha = hashlib.sha256((pkg / "mod.py").read_bytes()).hexdigest()
    (pkg / RECORD).write_text(json.dumps({"pkg/mod.py": sha}))
    return pkg


@pytest.mark.slow
def test_a_group_built_from_its_sources_runs_compiled(tmp_path: Path) -> None:
    built_package(tmp_path)
    done = run("import pkg.mod", tmp_path)
    # the twin is what Python imports: here it is no extension, so the import fails on it
    assert done.returncode != 0 and "ImportError" in done.stderr, done.stderr
    assert "pkg:" not in done.stderr  # no warning about pkg


@pytest.mark.slow
def test_an_edited_source_runs_as_python_with_a_warning(tmp_path: Path) -> None:
    pkg = built_package(tmp_path)
    (pkg / "mod.py").write_text('VALUE = "edited"\n')
    done = run("import pkg, pkg.mod; print(pkg.mod.VALUE, pkg.EDITED)", tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["edited", "['pkg/mod.py']"]
    assert "RuntimeWarning" in done.stderr and "edited since it was compiled: pkg/mod.py" in (
        done.stderr
    )
    assert REBUILD in done.stderr


@pytest.mark.slow
def test_a_build_without_a_record_runs_as_python_with_a_warning(tmp_path: Path) -> None:
    pkg = built_package(tmp_path)
    (pkg / RECORD).unlink()
    done = run("import pkg.mod; print(pkg.mod.VALUE)", tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "source as built"
    assert "kept no record of its sources" in done.stderr


@pytest.mark.skipif(not durak_core.COMPILED, reason="pure-Python install (no C compiler)")
@pytest.mark.slow
def test_editing_a_compiled_engine_module_takes_effect_at_once(tmp_path: Path) -> None:
    """The real build, copied: an edit to a compiled module of durak_core runs at the next
    import (the engine's group as Python, and the bot's compiled group with it), with the
    warning; no rebuild in the edit → test loop."""
    for package in ("durak_core", "bot"):
        shutil.copytree(ROOT / package, tmp_path / package, ignore=shutil.ignore_patterns("*.pyc"))
    cards = tmp_path / "durak_core" / "cards.py"
    cards.write_text(cards.read_text() + "\nEDITED_MARK = 42\n")
    done = run(
        "import bot, durak_core, durak_core.cards as c, bot.ui.hand_view as h;"
        "print(c.EDITED_MARK, durak_core.COMPILED, h.__file__.endswith('.py'))",
        tmp_path,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["42", "False", "True"]
    assert "durak_core/cards.py" in done.stderr and REBUILD in done.stderr
