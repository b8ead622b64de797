"""A practice table's hint (issue #34 item 2): Hard's suggestion is a legal action, comes from
the seat's information only (the no-peek test, R24, R25), is deterministic, and needs a
choice."""

from __future__ import annotations

import random

import pytest

from durak_core import PRESETS, RuleSet, position
from durak_core.coach.hint import HintTask, hint
from durak_core.coach.review import REASONS, ReviewBudget
from tests.durak_core.ai.helpers import hidden_reshuffled

SMALL = ReviewBudget(deals=8, solver_nodes=20_000)


@pytest.mark.parametrize("preset_name", ["classic", "transfer", "teams"])
def test_a_hint_ignores_hidden_cards(preset_name: str) -> None:
    """R24, R25 (the hint's no-peek test): re-deal every card hidden from the seat consistently
    with what it knew; its view is the same and so is the hint, reason and chances included."""
    seats = 4 if preset_name == "teams" else 3
    rng = random.Random(7)
    for view, other, history in hidden_reshuffled(
        PRESETS[preset_name], seats, seed=9, every=3, count=5, rng=rng
    ):
        a = hint(view, history, SMALL, seed=5)
        assert a == hint(other, history, SMALL, seed=5)
        assert a.best in view.legal_actions and a.reason in ("", *REASONS)


def test_a_hint_is_deterministic_and_the_worker_task_gives_the_same() -> None:
    s = position(RuleSet(), ["7S 9C QD 6H", "8D 9H KC"], trump="AH", attacker=0, talon="6S 10D")
    view = s.view(0)
    first = hint(view, [], SMALL, seed=3)
    assert first == hint(view, [], SMALL, seed=3) == HintTask(SMALL, 3).run(view, [])
    assert first.best in s.legal_actions(0)


def test_an_endgame_hint_is_proven() -> None:
    """Two seats, talon empty: the suggestion is proven, and it is a forced win here (R20:
    alice leads the 7S bob cannot beat, then her trump; bob is left holding cards)."""
    s = position(RuleSet(), ["7S AH", "8D 9C 10C"], trump="KH", attacker=0, talon="")
    found = hint(s.view(0), [], SMALL)
    assert found.exact and found.best_chance == 1.0


def test_no_hint_without_a_choice() -> None:
    s = position(RuleSet(), ["7S", "8D 9H"], trump="AH", attacker=0, talon="")
    with pytest.raises(ValueError, match="choice"):
        hint(s.view(0), [], SMALL)
