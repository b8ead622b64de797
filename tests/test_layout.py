"""The tests and benchmarks import each other by full names (``tests.bot.helpers``), from the
repository root that pyproject.toml's ``pythonpath`` puts on sys.path, and by nothing else."""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_every_folder_of_tests_and_benchmarks_is_a_package() -> None:
    # A folder without __init__.py would be put on sys.path by pytest (its default "prepend"
    # import mode), and a bare ``import helpers`` from it would work by accident.
    folders = {
        path.parent
        for top in ("tests", "benchmarks")
        for path in (ROOT / top).rglob("*.py")
        if "__pycache__" not in path.parts
    }
    missing = sorted(str(f.relative_to(ROOT)) for f in folders if not (f / "__init__.py").is_file())
    assert not missing, f"not packages: {missing}"


def test_no_test_folder_is_on_sys_path() -> None:
    # Checked after collection, so after pytest imported every test module of this run.
    inside = [ROOT / "tests", ROOT / "benchmarks"]
    added = sorted(p for p in sys.path if any(Path(p).resolve().is_relative_to(d) for d in inside))
    assert not added, f"test folders on sys.path: {added}"
