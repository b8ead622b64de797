"""docs/architecture.md's map of where the tests of each part are ("Where the tests of a module
are", issue #33): every test file is in it, every package of the code has a row, and every path
it names exists — so a reader looking for the tests of ``bot/x/y.py`` finds them, and a new test
or package cannot be left out of the map."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "architecture.md"
CODE_ROOTS = ("bot", "durak_core")


def _rows() -> list[tuple[list[str], list[str]]]:
    text = DOC.read_text(encoding="utf-8")
    section = text.split("### Where the tests of a module are", 1)[1].split("\n## ", 1)[0]
    rows = []
    for line in section.splitlines():
        cells = line.strip().strip("|").split("|")
        if len(cells) != 2 or not line.startswith("| `"):
            continue
        code, tests = (re.findall(r"`([^`]+)`", cell) for cell in cells)
        rows.append((code, tests))
    return rows


def _matches(pattern: str) -> set[Path]:
    if pattern.endswith("/"):
        return {p for p in (ROOT / pattern).rglob("test_*.py")}
    return set(ROOT.glob(pattern))


def _test_files() -> set[Path]:
    return {p for p in (ROOT / "tests").rglob("test_*.py") if "__pycache__" not in p.parts}


def test_the_map_has_rows() -> None:
    assert len(_rows()) >= 10


def test_every_test_file_is_in_the_map() -> None:
    mapped = set().union(*(_matches(p) for _, tests in _rows() for p in tests))
    missing = sorted(str(p.relative_to(ROOT)) for p in _test_files() - mapped)
    assert not missing, f"test files missing from docs/architecture.md's map: {missing}"


def test_every_path_in_the_map_exists() -> None:
    for code, tests in _rows():
        for path in code:
            assert (ROOT / path.split(" ")[0]).exists(), f"no such code: {path}"
        for pattern in tests:
            assert _matches(pattern), f"{pattern} matches no test file"


def test_every_package_and_top_module_has_a_row() -> None:
    named = [c.split(" ")[0].rstrip("/") for code, _ in _rows() for c in code]
    parts = sorted(
        str(init.parent.relative_to(ROOT))
        for top in CODE_ROOTS
        for init in (ROOT / top).rglob("__init__.py")
        if "__pycache__" not in init.parts and init.parent.name not in CODE_ROOTS
    ) + sorted(
        str(module.relative_to(ROOT))
        for top in CODE_ROOTS
        for module in (ROOT / top).glob("*.py")
        if top == "bot" and module.name != "__init__.py"
    )
    missing = [p for p in parts if not any(p == n or p.startswith(n + "/") for n in named)]
    assert not missing, f"code without a row in docs/architecture.md's map: {missing}"
