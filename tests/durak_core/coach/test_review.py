"""Game reviews (issue #34): a decision's review comes from the seat's information only (the
no-peek test, R24, R25), proven endgame swings are real win → loss swings (checked by brute
force), the summary's numbers, and the decisions a recorded game yields."""

from __future__ import annotations

import random

import pytest

from durak_core import PRESETS, Action, GameState, RuleSet, Series, new_game, parse_action, position
from durak_core.actions import TAKE_ACTION, attack
from durak_core.ai.endgame import brute_force
from durak_core.ai.memory import remember
from durak_core.ai.schedule import next_actor
from durak_core.cards import Card
from durak_core.coach.review import DecisionReview, ReviewBudget, review_decision, why
from durak_core.coach.review_game import BadRecord, GameReview, decisions, review_game
from durak_core.verify import GameLog
from tests.durak_core.ai.helpers import hidden_reshuffled
from tests.durak_core.ai.test_endgame import endgame_position, small_positions
from tests.durak_core.ai.test_hard_lapses import normal_state_at
from tests.durak_core.helpers import finished_game

SMALL = ReviewBudget(deals=8, solver_nodes=20_000)


def test_the_chosen_action_must_be_legal() -> None:
    s = position(RuleSet(), ["6S 7S", "8S"], trump="AH", attacker=0)
    with pytest.raises(ValueError, match="not one of the seat's legal actions"):
        review_decision(s.view(0), [], TAKE_ACTION)


@pytest.mark.parametrize("preset_name", ["classic", "transfer", "teams"])
def test_review_ignores_hidden_cards(preset_name: str) -> None:
    """R24, R25 (the review's no-peek test): re-deal every card hidden from the reviewed seat
    consistently with what it knew; its view is the same and so is every number of the
    review."""
    seats = 4 if preset_name == "teams" else 3
    rng = random.Random(11)
    for view, other, history in hidden_reshuffled(
        PRESETS[preset_name], seats, seed=5, every=3, count=5, rng=rng
    ):
        chosen = rng.choice(view.legal_actions)
        a = review_decision(view, history, chosen, 1, SMALL, seed=3)
        assert a == review_decision(other, history, chosen, 1, SMALL, seed=3)


def _endgame_reviews(count: int, seed: int) -> list[tuple[GameState, DecisionReview]]:
    """Random walks through small two-seat endgames (talon empty): every decision with a
    choice, the walk's random action reviewed."""
    rng = random.Random(seed)
    out = []
    for a, b, trump in small_positions(count, seed):
        s, _, _ = endgame_position(a, b, trump)
        while not s.finished:
            seat = next_actor(s)
            assert seat is not None
            legal = s.legal_actions(seat)
            chosen = rng.choice(legal)
            if len(legal) > 1:
                out.append((s, review_decision(s.view(seat), [], chosen, 0, SMALL)))
            s, _ = s.apply(seat, chosen)
    return out


def _proven(s: GameState, seat: int, action: Action) -> float:
    after, _ = s.apply(seat, action)
    return 0.5 + 0.5 * brute_force(after, seat)


@pytest.mark.slow
def test_flagged_endgame_decisions_are_proven_swings() -> None:
    """In a proven endgame (two seats, empty talon) a flagged decision is a proven swing:
    brute-force minimax confirms both results, and the best is better (a forced win turned
    into a forced loss among them, R16-R20 decide the outcomes)."""
    swings = {"win_loss": 0, "other": 0}
    checked = 0
    for s, r in _endgame_reviews(30, 4):
        seat = next_actor(s)
        assert seat is not None
        assert r.exact
        assert _proven(s, seat, r.chosen) == r.chosen_chance
        assert _proven(s, seat, r.best) == r.best_chance
        if r.grade in ("mistake", "blunder"):
            assert r.best_chance > r.chosen_chance and r.reason == "proven"
            win_loss = r.best_chance == 1.0 and r.chosen_chance == 0.0
            swings["win_loss" if win_loss else "other"] += 1
        else:
            assert r.best_chance == r.chosen_chance and r.best is r.chosen
        checked += 1
    assert checked > 50
    assert swings["win_loss"] > 0


def test_endgame_blunder_in_a_known_position() -> None:
    """R16-R20: 6♠ and A♠ against a lone 7♠ (hearts trump). Leading the 6 lets the 7 beat it
    and go out first: a forced loss. Leading the ace wins: the 7 cannot beat it, and after the
    take the 6 is beaten but its leader is out first."""
    s = position(RuleSet(), ["6S AS", "7S"], trump="6H", attacker=0)
    good = review_decision(s.view(0), [], parse_action("attack AS"), 1, SMALL)
    bad = review_decision(s.view(0), [], parse_action("attack 6S"), 1, SMALL)
    assert good.exact and good.loss == 0 and good.grade == "good"
    assert bad.exact and bad.best is parse_action("attack AS")
    assert (bad.best_chance, bad.chosen_chance) == (
        _proven(s, 0, bad.best),
        _proven(s, 0, bad.chosen),
    )
    assert bad.loss >= 50 and bad.grade == "blunder"


def test_reasons_come_from_the_heuristics() -> None:
    """The line of why: spending a trump while the talon lasts, a lead the defender cannot
    beat, a rank held twice, the cheaper card."""
    rules = RuleSet()
    s = position(
        rules,
        ["6S 6C AH 9D", "7S 8S 9S KC"],
        trump="7H",
        attacker=0,
        talon="10C JC QC KD",
    )
    view = s.view(0)
    mem = remember(view, [])
    six = Card.parse("6S")
    ace = Card.parse("AH")
    assert why(view, mem, attack(ace), attack(six)) == ("keeps_trump", ace)
    assert why(view, mem, attack(Card.parse("9D")), attack(six)) == ("pair", six)
    end = position(rules, ["6S 9D", "7S"], trump="7H", attacker=0)
    v2 = end.view(0)
    nine = Card.parse("9D")
    # The defender holds one spade only (card counting in the endgame): it cannot beat 9♦.
    assert why(v2, remember(v2, []), attack(six), attack(nine)) == ("unanswered", nine)


def test_summary_numbers() -> None:
    def r(number: int, chosen: float, best: float) -> DecisionReview:
        a = TAKE_ACTION
        return DecisionReview(number, a, a, chosen, best, False, "search", None, 2, 2)

    review = GameReview(0, (r(1, 0.5, 0.52), r(2, 0.2, 0.6), r(3, 0.4, 0.52), r(4, 0.5, 0.8),
                            r(5, 0.3, 0.37), r(6, 0.1, 0.3)))  # fmt: skip
    assert [x.loss for x in review.reviews] == [2, 40, 12, 30, 7, 20]
    assert review.accuracy == pytest.approx(1 / 6)
    assert [x.number for x in review.swings] == [2, 4, 6]  # the three biggest, in game order
    assert [x.number for x in review.flagged] == [2, 3, 4, 6]
    assert (review.count("blunder"), review.count("mistake"), review.count("inaccuracy")) == (
        2,
        2,
        1,
    )
    assert GameReview(0, ()).accuracy == 1.0


def test_decisions_of_a_recorded_game() -> None:
    """Each decision is the seat's own move with a choice, and its view is the replay's view
    of that seat just before the move."""
    s = finished_game(RuleSet(), 3, seed=21)
    log = GameLog.of(s, seed=21)
    for seat in range(3):
        found = decisions(log, (), seat)
        assert found
        replay = new_game(RuleSet(), 3, seed=21)
        moves = [(int(m.split(" ", 1)[0]), parse_action(m.split(" ", 1)[1])) for m in log.actions]
        expected = []
        for number, (mover, action) in enumerate(moves, start=1):
            if mover == seat and len(replay.legal_actions(seat)) > 1:
                expected.append((number, replay.view(seat), action))
            replay, _ = replay.apply(mover, action)
        assert [(d.number, d.view, d.chosen) for d in found] == expected


def test_a_later_game_of_a_series_needs_the_earlier_ones() -> None:
    """R22: the previous Durak deals game 2; without game 1 the deal is another one."""
    rules = RuleSet()
    series = Series(rules, 3)
    logs = []
    for seed in (31, 32):
        s = finished_game(rules, 3, seed, series=series)
        assert s.result is not None
        logs.append(GameLog.of(s, seed=seed))
        series.record(s.result, s.dealer)
    assert decisions(logs[1], logs[:1], 0)
    with pytest.raises(BadRecord):
        decisions(logs[1], (), 0)


def test_a_tampered_record_is_refused() -> None:
    log = GameLog.of(finished_game(RuleSet(), 2, seed=41), seed=41)
    with pytest.raises(BadRecord, match="move 1"):
        decisions(log.replace(actions=["1 take", *log.actions]), (), 0)
    with pytest.raises(BadRecord):
        decisions(log, (), 2)


def test_a_game_review_is_deterministic() -> None:
    log = GameLog.of(finished_game(RuleSet(), 2, seed=51), seed=51)
    found = decisions(log, (), 0)
    seen: list[tuple[int, int]] = []
    a = review_game(found[:6], 0, SMALL, seed=7, progress=lambda d, n: seen.append((d, n)))
    b = review_game(found[:6], 0, SMALL, seed=7)
    assert a == b
    assert seen == [(i, min(6, len(found))) for i in range(1, min(6, len(found)) + 1)]


def test_the_last_draw_is_proven() -> None:
    """Only the face-up trump left to draw: every card's place is known, so each action is
    proven, not replayed on the one deal with the heuristics (deal 98 of two Normal seats:
    beating the 6 of clubs with the queen of trumps loses against the best replies, with the
    ace it wins; the heuristic replay of that one deal loses with both)."""
    s, history = normal_state_at(98, 33)
    seat = next_actor(s)
    assert seat is not None
    view = s.view(seat)
    assert view.talon_size == 1
    budget = ReviewBudget(deals=8, solver_nodes=60_000)
    review = review_decision(view, history, parse_action("defend 6C QS"), budget=budget)
    assert review.exact
    assert (review.chosen_chance, review.best_chance) == (0.0, 1.0)
    assert review.best == parse_action("defend 6C AS")
    assert review.grade == "blunder"
