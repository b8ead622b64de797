"""Property tests over random games of every preset and seat count (R1–R25, V1–V10)."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings

from durak_core import Action, IllegalActionError, RuleSet, replay
from durak_core.actions import NUM_ACTION_CODES
from durak_core.cards import cards_of
from durak_core.explain import why_illegal
from durak_core.serialize import state_from_json

from .helpers import reshuffle_hidden
from .strategies import games, random_playthrough

SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(games())
def test_invariants_hold_after_every_action_and_every_game_ends(
    game: tuple[RuleSet, int, int, int],
) -> None:
    last = None
    for s in random_playthrough(*game):
        assert s.status() == (), s.status()
        if not s.finished:
            assert s.legal_moves(), "until the game ends someone always has a legal action"
        last = s
    assert last is not None and last.finished and last.result is not None


@SETTINGS
@given(games())
def test_replay_reproduces_the_final_state_and_json_round_trips(
    game: tuple[RuleSet, int, int, int],
) -> None:
    rules, seats, seed, _ = game
    states = list(random_playthrough(*game))
    final = states[-1]
    assert replay(rules, seats, seed=seed, actions=final.log) == final
    assert replay(rules, seats, seed=seed, actions=[f"{t} {a}" for t, a in final.log]) == final
    for s in (states[0], states[len(states) // 2], final):
        assert state_from_json(s.to_json()) == s


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games())
def test_leak_a_seats_view_ignores_everything_hidden_from_it(
    game: tuple[RuleSet, int, int, int],
) -> None:
    """R23–R25: resample every card seat p cannot see; p's view must not change."""
    rng = random.Random(game[3])
    states = list(random_playthrough(*game))
    for s in rng.sample(states, min(8, len(states))):
        for p in range(s.n):
            other = reshuffle_hidden(s, p, rng)
            assert other.view(p) == s.view(p)
        everyone = reshuffle_hidden(s, None, rng)
        assert everyone.public_view() == s.public_view()


@pytest.mark.slow
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games())
def test_public_view_holds_only_public_cards(game: tuple[RuleSet, int, int, int]) -> None:
    """R23/R24: every card in a public view was played, shown, taken or is the trump."""
    for s in random_playthrough(*game):
        v = s.public_view()
        shown = {v.trump_card, *v.discarded, *(c for pair in v.table for c in pair if c)}
        for p, known in enumerate(v.known):
            assert known <= set(cards_of(s.hands[p]))
            shown |= known
        secret = set()
        for p in range(s.n):
            secret |= set(cards_of(s.hands[p] & ~s.known[p]))
        secret |= set(cards_of(sum(1 << i for i in s.talon if i != s.trump_card)))
        assert not (secret & shown)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games())
@pytest.mark.slow
def test_exactly_the_legal_actions_are_accepted(game: tuple[RuleSet, int, int, int]) -> None:
    """The single source of legality: for sampled states, every action code is accepted by
    ``can``/``apply`` iff it is in ``legal_actions``; every rejection names a rule."""
    rng = random.Random(game[2])
    states = list(random_playthrough(*game))
    codes = rng.sample(range(NUM_ACTION_CODES), 150)
    for s in rng.sample(states, min(4, len(states))):
        snapshot = s.copy()
        for seat in range(s.n):
            legal = set(s.legal_actions(seat))
            candidates = {Action.from_code(c) for c in codes} | legal
            for a in candidates:
                assert s.can(seat, a) == (a in legal)
                if a not in legal:
                    if not s.finished:
                        rule, _ = why_illegal(s, seat, a)
                        assert rule[0] in "RV"
                    try:
                        s.apply(seat, a)
                    except IllegalActionError:
                        pass
                    else:
                        raise AssertionError(f"{a} accepted for seat {seat}")
        assert s == snapshot  # rejected actions changed nothing
