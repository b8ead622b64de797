"""The speed-minded kernel keeps one meaning: every listing comes from the one generator, the
fast path reaches the same states, and ``state.log`` is a plain tuple of moves."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings

from durak_core import RuleSet, new_game
from durak_core.fast import apply_unchecked, legal_actions, legal_moves

from .strategies import games


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games())
@pytest.mark.slow
def test_every_listing_agrees_and_the_fast_path_reaches_the_same_states(
    game: tuple[RuleSet, int, int, int],
) -> None:
    """``legal_moves`` skips seats that cannot act: it must still equal every seat's
    ``legal_actions`` in seat order, through the public API and the fast path alike."""
    rules, seats, seed, play_seed = game
    rng = random.Random(play_seed)
    s = new_game(rules, seats, seed=seed)
    f = s.copy()
    applied = []
    while not s.finished:
        moves = s.legal_moves()
        per_seat = tuple((t, a) for t in range(seats) for a in s.legal_actions(t))
        assert moves == per_seat
        assert legal_moves(f) == list(moves)
        assert all(legal_actions(f, t) == list(s.legal_actions(t)) for t in range(seats))
        seat, action = rng.choice(moves)
        s, _ = s.apply(seat, action)
        apply_unchecked(f, seat, action)
        applied.append((seat, action))
        f.log = s.log  # the fast path keeps no log; everything else must match
        assert f == s
    assert type(s.log) is tuple and s.log == tuple(applied)


def test_log_is_a_tuple_that_each_state_keeps_for_itself() -> None:
    s = new_game(RuleSet(), 2, seed=11)
    states = [s]
    for _ in range(12):
        s, _ = s.apply(*s.legal_moves()[0])
        states.append(s)
    branch, _ = states[5].apply(*states[5].legal_moves()[-1])
    assert [len(x.log) for x in states] == list(range(13))
    assert branch.log[:5] == states[12].log[:5] and len(branch.log) == 6
    assert states[12].log[-1] == states[12].log[len(states[12].log) - 1]
    states[3].log = ()  # replacing a log touches no other state
    assert len(states[4].log) == 4
