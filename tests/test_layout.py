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


PACKAGES = ("bot", "durak_core")
#: Module names used in more than one package, each for the same thing seen from two layers
#: (a table's lobby: its rules in ``bot.tables``, its message in ``bot.ui``) or for a role every
#: package of that kind has (its errors). Anything else that repeats is a name to change.
SHARED_MODULE_NAMES = {
    "__init__",
    "__main__",
    "base",  # bot/cogs/base (the cog's base), durak_core/ai/base (the players' base)
    "errors",  # each package's own exception types
    "lobby",  # bot/tables/lobby (seats and start), bot/ui/lobby (its message)
    "table",  # bot/tables/table (the runtime), bot/render/table (its picture)
    "play",  # bot/tables/play (a click applied), bot/cli/play (the terminal game)
    "bracket",  # bot/tournaments/logic/bracket (the rules), …/pictures/bracket (its picture)
    "options",  # bot/cli/options (CLI flags), bot/tournaments/runner/options (a round's tables)
}


def _names(kind: str) -> list[tuple[str, Path]]:
    found: list[tuple[str, Path]] = []
    for top in PACKAGES:
        for path in (ROOT / top).rglob("*.py" if kind == "module" else "__init__.py"):
            if "__pycache__" in path.parts:
                continue
            found.append((path.stem if kind == "module" else path.parent.name, path))
    return found


def test_no_module_name_means_two_things() -> None:
    # issue #33: `events`, `tables`, `cards.py` x3 and `settings.py` x3 meant different things
    # in different packages; a reader (and a grep) could not tell which one a name meant.
    seen: dict[str, list[str]] = {}
    for name, path in _names("module"):
        seen.setdefault(name, []).append(str(path.relative_to(ROOT)))
    repeated = {n: p for n, p in seen.items() if len(p) > 1 and n not in SHARED_MODULE_NAMES}
    assert not repeated, f"module names used twice: {repeated}"


def test_no_module_is_named_like_a_package() -> None:
    packages = {name for name, _ in _names("package")}
    clash = sorted(
        str(path.relative_to(ROOT))
        for name, path in _names("module")
        if name in packages and path.name != "__init__.py"
    )
    assert not clash, f"modules named like a package: {clash}"


def test_no_module_is_over_500_lines() -> None:
    # issue #33: a module a reader can hold in mind; past this, split it by what it holds.
    long = {
        str(path.relative_to(ROOT)): n
        for _, path in _names("module")
        if (n := len(path.read_text(encoding="utf-8").splitlines())) > 500
    }
    assert not long, f"modules over 500 lines: {long}"
