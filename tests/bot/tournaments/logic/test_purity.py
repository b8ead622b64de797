"""bot/tournaments is pure: it imports nothing that talks to Discord, the disk, the network or
the clock, and no random source (docs/architecture.md)."""

from __future__ import annotations

import ast
from pathlib import Path

import bot.tournaments

ALLOWED = {
    "__future__",
    "collections.abc",
    "dataclasses",
    "datetime",
    "durak_core.cards",  # pure too (no I/O, clock or global RNG): the one walk over set bits
    "durak_core.rules",  # pure too: R3's seat counts, stated once
    "enum",
    "fractions",
    "functools",
    "typing",
}


def test_tournaments_import_only_pure_modules() -> None:
    package = Path(bot.tournaments.__file__).parent
    outside: set[str] = set()
    for path in package.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                outside |= {a.name for a in node.names} - ALLOWED
            elif isinstance(node, ast.ImportFrom) and not node.level:
                outside |= {node.module or ""} - ALLOWED
            elif isinstance(node, ast.Attribute) and node.attr in {"now", "utcnow", "today"}:
                outside.add(f"{path.name}: .{node.attr}")
    assert not outside
