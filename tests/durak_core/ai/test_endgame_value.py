"""The learned value of a two-seat endgame at its start (durak_core.ai.endgame_value), which
Hard's playouts score instead of playing the endgame with the heuristics (issue #34, item 4)."""

from __future__ import annotations

import math
import random

import pytest

from benchmarks.endgame_value import fit, position, quality
from durak_core import RuleSet, new_game
from durak_core import position as setup
from durak_core.ai.cardinfo import card_table
from durak_core.ai.endgame_value import CLASSIC, HAND_FEATURES, endgame_model, features
from durak_core.ai.playout import endgame_start, playout_value, reward
from durak_core.cards import Suit
from durak_core.state import GameState


@pytest.mark.slow
def test_the_model_judges_fresh_endgames_better_than_the_heuristic_end() -> None:
    """Positions the model was not fitted on (seeds from 100,000; it saw 0-5,999), each proven
    by the solver: the model's squared error is well under the heuristic playout's."""
    samples = [position(seed, 0.15, 60_000) for seed in range(100_000, 100_060)]
    proven = [x for x in samples if x is not None]
    assert len(proven) >= 40
    exact = [y for _, y, _, _ in proven]
    heuristic = quality([h for _, _, h, _ in proven], exact)
    model = quality([v for _, _, _, v in proven], exact)
    assert model["mse"] < 0.7 * heuristic["mse"], (model, heuristic)
    assert model["agreement"] >= heuristic["agreement"], (model, heuristic)


def endgame(hands: list[str], attacker: int = 0) -> tuple[GameState, int]:
    s = setup(RuleSet(), hands, trump="6H", attacker=attacker)
    return s, s.trump_suit


def test_both_seats_see_the_same_game() -> None:
    s, trump = endgame(["7H 9S 10C JD", "KH 6C 8D QS"])
    ct = card_table(s.rules, Suit(trump))
    assert endgame_start(s)
    assert CLASSIC.value(s, 0, ct) + CLASSIC.value(s, 1, ct) == pytest.approx(1.0)
    assert len(features(s, ct)) == len(CLASSIC.weights) == 2 * len(HAND_FEATURES) + 1


def test_trumps_and_cards_the_other_cannot_beat_are_worth_more() -> None:
    """R7: the ace and king of trumps beat anything; the same plain cards against them."""
    strong, _ = endgame(["AH KH 7S 8C", "9S 10D JC QD"])
    weak, trump = endgame(["9S 10D JC QD", "AH KH 7S 8C"])
    ct = card_table(strong.rules, Suit(trump))
    assert CLASSIC.value(strong, 0, ct) > 0.8
    assert CLASSIC.value(weak, 0, ct) < 0.5
    fewer, _ = endgame(["AH KH 7S 8C 9C", "9S 10D JC QD"])  # one card more to shed
    assert CLASSIC.value(fewer, 0, ct) < CLASSIC.value(strong, 0, ct)


def test_a_playout_with_the_model_stops_where_the_endgame_starts() -> None:
    rules = RuleSet()
    model = endgame_model(rules)
    assert model is CLASSIC
    for seed in range(20):
        s = new_game(rules, 2, seed=seed)
        ct = card_table(rules, Suit(s.trump_suit))
        with_model = s.copy()
        value = playout_value(with_model, ct, 0, model=model)
        if endgame_start(with_model):
            assert value == model.value(with_model, 0, ct)
        else:  # the game ended before its endgame did
            assert with_model.finished and value == reward(with_model, 0)
        played = s.copy()
        assert playout_value(played, ct, 0) == reward(played, 0)
        assert played.finished


def test_no_model_for_other_rules() -> None:
    """The weights were fitted on the classic rules only (V2, V3, V1 change the endgame)."""
    assert endgame_model(RuleSet(deck_size=52)) is None
    assert endgame_model(RuleSet(hand_size=5)) is None
    assert endgame_model(RuleSet(transfer=True)) is None
    assert endgame_model(RuleSet(series_losses=3, under_the_fool=True)) is CLASSIC  # V17, V10


def test_the_fit_recovers_known_weights() -> None:
    """Soft targets drawn from a known logistic model: Newton's method finds its weights."""
    rng = random.Random(5)
    xs = [[rng.uniform(-2, 2), rng.uniform(-2, 2)] for _ in range(4000)]
    ys = [1 / (1 + math.exp(-(1.5 * a - 2.0 * b + 0.5))) for a, b in xs]
    model = fit(xs, ys)
    assert model.weights == pytest.approx((1.5, -2.0), abs=0.05)
    assert model.intercept == pytest.approx(0.5, abs=0.05)
    assert model.attacker_score([1.0, 1.0]) == pytest.approx(1 / (1 + math.exp(0.0)), abs=0.02)
