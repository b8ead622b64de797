"""Hard's sequential halving (issue #34, item 4): the weaker half of the root candidates is
dropped at even shares of the decision's budget, whether the budget counts playouts or time,
so the finalists are picked on as much evidence as they are compared on."""

from __future__ import annotations

import time

import pytest

from durak_core.ai import Budget
from durak_core.ai.hard import HardPlayer
from durak_core.ai.root_stats import halvings

from .test_hard_lapses import normal_game_at

#: A decision with six root candidates (two halvings): Normal vs Normal, deal 0, version 21.
DEAL, VERSION = 0, 21


def test_the_cuts_come_at_thirds_of_a_playout_budget() -> None:
    view, history = normal_game_at(DEAL, VERSION)
    hard = HardPlayer(1, Budget(None, iterations=600))
    hard.choose(view, history)
    assert hard.last_mode == "sampled-deals" and hard.last_iterations == 600
    assert len(hard.last_cuts) == halvings(6) == 2
    # A cut comes at the end of the first round past its share: six playouts a round, then three.
    first, second = hard.last_cuts
    assert 200 <= first < 206 and 400 <= second < 403


@pytest.mark.parametrize("seconds", [0.15, 0.4])
def test_the_cuts_come_at_thirds_of_a_time_budget(seconds: float) -> None:
    """The rate of the playouts so far says how many the deadline allows, so a cut comes when
    its share of the time is gone. (The old schedule, after 8 and 16 rounds, cut at about 1%
    and 2% of it.) The shares are of time, not of playouts: on a busy machine a CPU second
    holds fewer playouts at some moments than at others (two cores sharing one), and counting
    playouts made this test measure the machine."""
    view, history = normal_game_at(DEAL, VERSION)
    hard = HardPlayer(1, Budget(seconds, clock=time.process_time))
    hard.choose(view, history)
    assert len(hard.last_cuts) == 2, hard.last_cuts
    assert hard.last_cuts[0] < hard.last_cuts[1] < hard.last_iterations
    first, second = hard.last_cut_shares
    # a cut comes at the end of the first round past its share: a round is well under 1%
    assert 1 / 3 <= first < 1 / 3 + 0.02 and 2 / 3 <= second < 2 / 3 + 0.02, (first, second)
