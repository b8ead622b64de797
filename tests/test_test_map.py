"""docs/architecture.md's map of where the tests of each part are ("Where the tests of a module
are", issues #33 and #49): ``tests/`` mirrors the source tree — the tests of ``X/Y/z.py`` are in
``tests/X/Y/`` — and the map and the tree agree: every folder of tests is a row and mirrors the
code of its row, every package of the code is named in a row, and every path named exists. So a
reader looking for the tests of ``bot/x/y.py`` finds them, and a new package or folder of tests
cannot be left out of the map."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "architecture.md"
CODE_ROOTS = ("bot", "durak_core")
#: The row of the repository's own tests (the fake Discord, deploy/, docs/, the layout): the
#: one folder that mirrors no code path.
TOP = "tests/"


def _rows() -> list[tuple[list[str], list[str]]]:
    text = DOC.read_text(encoding="utf-8")
    section = text.split("### Where the tests of a module are", 1)[1].split("\n## ", 1)[0]
    rows = []
    for line in section.splitlines():
        cells = line.strip().strip("|").split("|")
        if len(cells) != 2 or not line.startswith("| "):
            continue
        code, tests = (re.findall(r"`([^`]+)`", cell) for cell in cells)
        if code and tests:
            rows.append((code, tests))
    return rows


def _test_folders() -> set[str]:
    """Every folder of tests/ that holds a test file, as ``tests/x/y/``."""
    return {
        p.parent.relative_to(ROOT).as_posix() + "/"
        for p in (ROOT / "tests").rglob("test_*.py")
        if "__pycache__" not in p.parts
    }


def test_the_map_has_rows() -> None:
    assert len(_rows()) >= 10


def test_each_row_names_one_folder_that_mirrors_its_code() -> None:
    for code, tests in _rows():
        assert len(tests) == 1 and tests[0].endswith("/"), f"one folder per row: {tests}"
        if tests[0] != TOP:
            assert tests[0] == "tests/" + code[0], f"{tests[0]} does not mirror {code[0]}"


def test_every_folder_of_tests_is_a_row() -> None:
    listed = [tests[0] for _, tests in _rows()]
    assert len(listed) == len(set(listed)), "a folder in two rows"
    missing = sorted(_test_folders() - set(listed))
    assert not missing, f"folders of tests missing from docs/architecture.md's map: {missing}"


def test_every_listed_folder_exists_and_holds_tests() -> None:
    held = _test_folders()
    for code, tests in _rows():
        for path in code:
            assert (ROOT / path).exists(), f"no such code: {path}"
        assert tests[0] in held, f"{tests[0]} holds no test file"


def test_every_package_and_top_module_is_named() -> None:
    named = {c.rstrip("/") for code, _ in _rows() for c in code}
    parts = sorted(
        str(init.parent.relative_to(ROOT))
        for top in CODE_ROOTS
        for init in (ROOT / top).rglob("__init__.py")
        if "__pycache__" not in init.parts
    ) + sorted(
        str(module.relative_to(ROOT))
        for module in (ROOT / "bot").glob("*.py")
        if module.name != "__init__.py"
    )
    missing = [p for p in parts if p not in named]
    assert not missing, f"code without a row in docs/architecture.md's map: {missing}"
