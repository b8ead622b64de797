"""Hard's determinizations agree with everything the seat knows (R23-R25): the seat's view of
every sampled state equals its real view, in every preset (incl. V14's hidden card)."""

from __future__ import annotations

import random

import pytest

from durak_core import PRESETS, RuleSet
from durak_core.ai.determinize import Determinizer
from durak_core.ai.memory import remember

from .helpers import random_positions, valid_seat_counts


@pytest.mark.parametrize("preset_name", list(PRESETS))
def test_sampled_states_match_the_view(preset_name: str) -> None:
    rules = PRESETS[preset_name]
    seats = valid_seat_counts(rules)
    rng = random.Random(3)
    for n in (seats[0], seats[-1]):
        for s, seat, history in random_positions(rules, n, seed=n, every=6):
            view = s.view(seat)
            det = Determinizer(view, remember(view, history), rng)
            for _ in range(2):
                d = det.next()
                assert not d.status()
                assert d.view(seat) == view


def test_few_placements_are_enumerated_exactly() -> None:
    """Near the end of the talon every possible deal is visited in turn."""
    rules = RuleSet()
    for s, seat, history in random_positions(rules, 2, seed=4, every=1):
        view = s.view(seat)
        det = Determinizer(view, remember(view, history), random.Random(1))
        if det.exact and det.count > 1:
            seen = {tuple(det.next().hands) + tuple(det.next().talon) for _ in range(det.count)}
            hands = {tuple(det.next().hands) for _ in range(det.count)}
            assert len(hands) >= 2 and seen
            return
    pytest.fail("no position with a small set of placements")
