"""The no-peek test (R24, R25): reshuffle every card hidden from the AI's seat consistently with
its view; the view is unchanged and so is each level's decision (same seed)."""

from __future__ import annotations

import random

import pytest

from durak_core import PRESETS, RuleSet
from durak_core.ai import LEVELS, Budget, Level, make_player

from .helpers import hidden_reshuffled

#: The presets, and V18 (no preset has it): a shown trump is a known card of that hand.
RULES = {**PRESETS, "transfer+show": RuleSet(transfer=True, transfer_by_trump=True)}


@pytest.mark.parametrize(
    "preset_name", ["classic", "transfer", "changing-trump", "teams", "transfer+show"]
)
@pytest.mark.parametrize("level", LEVELS)
def test_decision_ignores_hidden_cards(level: Level, preset_name: str) -> None:
    seats = 4 if preset_name == "teams" else 3
    budget = Budget(None, iterations=12)
    for view, other, history in hidden_reshuffled(
        RULES[preset_name], seats, seed=len(preset_name), every=4, count=6, rng=random.Random(7)
    ):
        a = make_player(level, 9, budget).choose(view, history)
        assert a is make_player(level, 9, budget).choose(other, history)


@pytest.mark.parametrize("preset_name", ["classic", "transfer", "transfer+show"])
def test_hard_told_the_table_ignores_hidden_cards(preset_name: str) -> None:
    """R24, R25: Hard told that the other seats are Easy (so it plays them by Easy's rules,
    which read their hands in its search) still decides only from what its seat sees."""
    budget = Budget(None, iterations=12)
    labels = ["easy", "easy", "easy"]
    for view, other, history in hidden_reshuffled(
        RULES[preset_name], 3, seed=3, every=3, count=6, rng=random.Random(8)
    ):
        a = make_player(Level.HARD, 9, budget, seats=labels).choose(view, history)
        assert a is make_player(Level.HARD, 9, budget, seats=labels).choose(other, history)
