"""Issue #48, item 1: with every card known (two seats, the talon empty or holding only the
face-up trump) a review proves the values within its budget or says they are estimates, and
grades a mistake or a blunder only where the uncertainty cannot change it (R16-R20 decide the
outcomes; R24, R25: the review still reads only the seat's view and history)."""

from __future__ import annotations

import pytest

from durak_core import GameState, RuleSet, parse_action, position
from durak_core.actions import TAKE_ACTION
from durak_core.ai.endgame import brute_force, position_key, relative_key
from durak_core.ai.schedule import next_actor
from durak_core.coach.review import DecisionReview, ReviewBudget, review_decision
from durak_core.events import Event
from tests.durak_core.ai.test_hard_lapses import normal_state_at

#: Too little to prove these positions: the review must fall back to bounded estimates.
TINY = ReviewBudget(deals=8, solver_nodes=300)


def _reviews(s: GameState, history: list[Event], budget: ReviewBudget) -> list[DecisionReview]:
    seat = next_actor(s)
    assert seat is not None
    view = s.view(seat)
    assert view.talon_size == 1 and len(view.active) == 2  # only the face-up trump to draw
    return [review_decision(view, history, a, 1, budget) for a in view.legal_actions]


@pytest.mark.slow
def test_every_move_losing_with_the_trump_left_is_proven_and_no_blunder() -> None:
    """Deal 5016 of two Normal seats, move 45: the trump is the last card to draw and each of
    the three moves loses by force (the seed-5012 kind of position). Proven within the default
    budget: every move is "good", 0 % against 0 %."""
    s, history = normal_state_at(5016, 44)
    reviews = _reviews(s, history, ReviewBudget())
    assert len(reviews) == 3
    for r in reviews:
        assert r.exact and (r.chosen_chance, r.best_chance) == (0.0, 0.0)
        assert r.grade == "good" and r.best is r.chosen


@pytest.mark.slow
def test_a_forced_win_with_the_trump_left_is_proven_not_fifty() -> None:
    """Deal 5005, move 39: each of the seven moves keeps the forced win; each shows 100 %,
    proven."""
    s, history = normal_state_at(5005, 38)
    for r in _reviews(s, history, ReviewBudget()):
        assert r.exact and r.chosen_chance == 1.0 and r.grade == "good"


@pytest.mark.parametrize("deal,version", [(5016, 46), (5005, 40)])
def test_an_unproven_value_is_an_estimate_and_never_a_blunder(deal: int, version: int) -> None:
    """The same positions on a budget too small to prove them: the values are marked as
    estimates and no move is graded a mistake or a blunder, since no proof bounds its loss
    (in truth every move there is as good as any)."""
    s, history = normal_state_at(deal, version)
    reviews = _reviews(s, history, TINY)
    assert not all(r.exact for r in reviews)
    for r in reviews:
        assert r.grade in ("good", "inaccuracy")
        if not r.exact:
            assert r.sure_loss == 0 and r.margin >= r.best_chance - r.chosen_chance - 1e-9


@pytest.mark.slow
def test_a_proven_blunder_stays_a_blunder_on_a_small_budget() -> None:
    """Deal 5000, move 34: three of the four moves turn a forced win into a forced loss. On the
    default budget they are proven blunders; on a small one a move graded a mistake or a
    blunder is one of them."""
    s, history = normal_state_at(5000, 33)
    full = _reviews(s, history, ReviewBudget())
    proven = {r.chosen for r in full if r.exact and r.grade == "blunder"}
    assert len(proven) == 3
    for r in _reviews(s, history, ReviewBudget(deals=8, solver_nodes=5_000)):
        if r.grade in ("mistake", "blunder"):
            assert r.chosen in proven


def test_the_loss_of_a_sampled_estimate_is_graded_less_its_margin() -> None:
    """An estimate's grade is that of its loss less two standard errors: 30 points with an
    error of 8 is only certainly a mistake."""

    def r(chosen: float, best: float, margin: float) -> DecisionReview:
        a = TAKE_ACTION
        return DecisionReview(1, a, a, chosen, best, False, "search", None, 2, 2, margin=margin)

    assert r(0.4, 0.7, 0.0).grade == "blunder"
    assert r(0.4, 0.7, 0.08).grade == "mistake" and r(0.4, 0.7, 0.08).sure_loss == 22
    assert r(0.4, 0.7, 0.3).grade == "good"


def test_relative_keys_merge_only_positions_that_play_alike() -> None:
    """R7, R11: with the 7s gone to the discard pile, 6♠ 8♠ against 9♠ plays as 6♠ 7♠ against
    8♠ did (order and equal ranks kept); 6♠ 8♥ is another position (8♥ matches no rank)."""
    rules = RuleSet()
    a = position(rules, ["6S 8S", "9S"], trump="AH", attacker=0)
    b = position(rules, ["6S 7S", "8S"], trump="AH", attacker=0)
    c = position(rules, ["6S 8H", "9S"], trump="AH", attacker=0)
    assert position_key(a) != position_key(b)
    assert relative_key(a) == relative_key(b) != relative_key(c)


def test_a_throw_in_while_the_defender_is_to_answer_is_proven_per_action() -> None:
    """R11, R14: the attacker may throw in while its card is unbeaten; the simulations' order
    has the defender act first there, so each of the attacker's actions is proven in turn:
    every value matches plain minimax."""
    rules = RuleSet()
    s = position(rules, ["6S 6C 6D AS", "7S 9D KD"], trump="6H", attacker=0)
    s, _ = s.apply(0, parse_action("attack 6S"))
    assert next_actor(s) == 1
    view = s.view(0)
    assert len(view.legal_actions) > 1
    for action in view.legal_actions:
        r = review_decision(view, [], action, 1, ReviewBudget())
        after, _ = s.apply(0, action)
        assert r.exact and r.chosen_chance == 0.5 + 0.5 * brute_force(after, 0)
        best, _ = s.apply(0, r.best)
        assert r.best_chance == 0.5 + 0.5 * brute_force(best, 0)
