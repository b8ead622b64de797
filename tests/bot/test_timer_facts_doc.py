"""Facts of the turn timer stated in code once: the away-after-expiries count
(bot/tables/timers.py), which the docs repeat and the rules text takes as a parameter; the
default (bot/settings.py) and the limit (bot/domain.py), which the settings, `.env.example`
and the docs use."""

from __future__ import annotations

import re
from pathlib import Path

from bot.domain import MAX_TURN_TIMER
from bot.settings import DEFAULT_TURN_TIMER, Settings
from bot.tables.timers import EXPIRIES_BEFORE_AI
from bot.text import t
from bot.ui.rules_text import rules_text
from durak_core import RuleSet

ROOT = Path(__file__).resolve().parents[2]
NUMBERS = {"one": 1, "two": 2, "three": 3, "four": 4}
#: How the docs say it: "two expiries in a row", "2 consecutive expiries".
SAID = re.compile(r"\b(\w+) (?:consecutive expiries|expiries in a row)\b")


def test_the_docs_state_the_count_of_the_code() -> None:
    said = []
    for path in [ROOT / "README.md", *(ROOT / "docs").glob("*.md")]:
        for match in SAID.finditer(" ".join(path.read_text(encoding="utf-8").split())):
            word = match.group(1).lower()
            said.append((path.name, int(word) if word.isdigit() else NUMBERS[word]))
    assert len(said) >= 3  # bot.md, robustness.md, activity.md, tournaments.md
    assert {count for _, count in said} == {EXPIRIES_BEFORE_AI}, said


def test_the_rules_text_says_the_tables_count() -> None:
    for lang in ("en", "es", "de", "ru", "uk"):
        line = t("rules.timer", lang, n=30, expiries=EXPIRIES_BEFORE_AI)
        assert line in rules_text(RuleSet(), 30, lang)
        assert f"{EXPIRIES_BEFORE_AI}×" in line
        assert "1×" in rules_text(RuleSet(), 30, lang, expiries=1)  # a tournament's table


def test_the_timer_defaults_and_limit_are_the_codes() -> None:
    """`.env.example` and the docs name the settings' default and the one limit."""
    assert Settings.model_fields["turn_timer_seconds"].default == DEFAULT_TURN_TIMER
    example = (ROOT / ".env.example").read_text(encoding="utf-8")
    assert f"TURN_TIMER_SECONDS={DEFAULT_TURN_TIMER}\n" in example
    robustness = (ROOT / "docs" / "robustness.md").read_text(encoding="utf-8")
    assert f"`TURN_TIMER_SECONDS={DEFAULT_TURN_TIMER}`" in robustness
    assert f"[timer 0–{MAX_TURN_TIMER}]" in (ROOT / "docs" / "bot.md").read_text(encoding="utf-8")
