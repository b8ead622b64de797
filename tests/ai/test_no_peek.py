"""The no-peek test (R24, R25): reshuffle every card hidden from the AI's seat consistently with
its view; the view is unchanged and so is each level's decision (same seed)."""

from __future__ import annotations

import random

import pytest

from durak_core import PRESETS, RuleSet
from durak_core.ai import LEVELS, Budget, Level, make_player
from tests.engine.helpers import reshuffle_hidden

from .helpers import random_positions

#: The presets, and V18 (no preset has it): a shown trump is a known card of that hand.
RULES = {**PRESETS, "transfer+show": RuleSet(transfer=True, transfer_by_trump=True)}


@pytest.mark.parametrize(
    "preset_name", ["classic", "transfer", "changing-trump", "teams", "transfer+show"]
)
@pytest.mark.parametrize("level", LEVELS)
def test_decision_ignores_hidden_cards(level: Level, preset_name: str) -> None:
    rules = RULES[preset_name]
    seats = 4 if preset_name == "teams" else 3
    rng = random.Random(7)
    budget = Budget(None, iterations=12)
    checked = 0
    for s, seat, history in random_positions(rules, seats, seed=len(preset_name), every=4):
        view = s.view(seat)
        if len(view.legal_actions) < 2:
            continue
        other = reshuffle_hidden(s, seat, rng)
        other_view = other.view(seat)
        assert other_view == view  # R24: nothing hidden shows in the view
        a = make_player(level, 9, budget).choose(view, history)
        b = make_player(level, 9, budget).choose(other_view, history)
        assert a is b
        checked += 1
        if checked >= 6:
            break
    assert checked


@pytest.mark.parametrize("preset_name", ["classic", "transfer", "transfer+show"])
def test_hard_told_the_table_ignores_hidden_cards(preset_name: str) -> None:
    """R24, R25: Hard told that the other seats are Easy (so it plays them by Easy's rules,
    which read their hands in its search) still decides only from what its seat sees."""
    rules = RULES[preset_name]
    rng = random.Random(8)
    budget = Budget(None, iterations=12)
    labels = ["easy", "easy", "easy"]
    checked = 0
    for s, seat, history in random_positions(rules, 3, seed=3, every=3):
        view = s.view(seat)
        if len(view.legal_actions) < 2:
            continue
        other = reshuffle_hidden(s, seat, rng)
        a = make_player(Level.HARD, 9, budget, seats=labels).choose(view, history)
        b = make_player(Level.HARD, 9, budget, seats=labels).choose(other.view(seat), history)
        assert a is b
        checked += 1
        if checked >= 6:
            break
    assert checked
