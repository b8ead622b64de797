"""docs/bot.md's usage line of `/durak new` is the command's: its options in their order, with
the ranges the command enforces (docs/make_new_usage.py writes it)."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

from bot.cogs.new_table import NEW_OPTIONS
from bot.domain import MAX_TURN_TIMER
from bot.tables.table import MAX_SEATS, MIN_SEATS

DOCS = Path(__file__).resolve().parents[3] / "docs"


def generator() -> ModuleType:
    spec = importlib.util.spec_from_file_location("make_new_usage", DOCS / "make_new_usage.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_bot_md_holds_the_commands_usage() -> None:
    gen = generator()
    text = (DOCS / "bot.md").read_text(encoding="utf-8")
    assert gen.replaced(text) == text, "run `python docs/make_new_usage.py`"


def test_the_usage_names_every_option_with_the_commands_ranges() -> None:
    usage = " ".join(generator().usage().split())
    named = [word.strip("[]`") for word in usage.split() if word.startswith("[")]
    assert named == list(NEW_OPTIONS)
    assert f"[seats {MIN_SEATS}–{MAX_SEATS}]" in usage
    assert f"[timer 0–{MAX_TURN_TIMER}]" in usage and f"[ai_seats 0–{MAX_SEATS - 1}]" in usage
