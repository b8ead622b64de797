"""The endgame solver agrees with brute-force minimax on small positions (R16-R20 decide the
outcomes it searches)."""

from __future__ import annotations

import random

import pytest

from durak_core import RuleSet, Suit, position
from durak_core.ai import Budget, make_player
from durak_core.ai.cardinfo import card_table
from durak_core.ai.endgame import EndgameSolver, brute_force
from durak_core.ai.schedule import next_actor
from durak_core.fast import apply_unchecked


def small_positions(count: int, seed: int) -> list[tuple[str, str, str]]:
    rng = random.Random(seed)
    deck = [str(c) for c in RuleSet().deck()]
    out = []
    for _ in range(count):
        cards = rng.sample(deck, rng.randint(3, 7))
        k = rng.randint(1, len(cards) - 1)
        trump = rng.choice(["S", "C", "D", "H"])
        out.append((" ".join(cards[:k]), " ".join(cards[k:]), trump))
    return out


@pytest.mark.parametrize(("a", "b", "trump"), small_positions(40, 1))
def test_solver_value_equals_brute_force(a: str, b: str, trump: str) -> None:
    trump_card = next(
        c
        for c in RuleSet().deck()
        if c.suit == Suit.parse(trump) and str(c) not in (a + " " + b).split()
    )
    s = position(RuleSet(), [a, b], trump=trump_card, attacker=0)
    me = next_actor(s)
    assert me is not None
    ct = card_table(s.rules, Suit(s.trump_suit))
    value, action, exact = EndgameSolver(me, ct).solve(s)
    assert exact
    assert value == brute_force(s, me)
    assert action in s.legal_actions(me)


@pytest.mark.parametrize(("a", "b", "trump"), small_positions(40, 2))
def test_prove_agrees_with_brute_force(a: str, b: str, trump: str) -> None:
    """The narrow-window full-depth pass gets the exact value, and a proven win or draw comes
    with a move that keeps it."""
    trump_card = next(
        c
        for c in RuleSet().deck()
        if c.suit == Suit.parse(trump) and str(c) not in (a + " " + b).split()
    )
    s = position(RuleSet(), [a, b], trump=trump_card, attacker=0)
    me = next_actor(s)
    assert me is not None
    ct = card_table(s.rules, Suit(s.trump_suit))
    value, action, exact = EndgameSolver(me, ct).prove(s.copy())
    assert exact
    assert value == brute_force(s, me)
    assert action in s.legal_actions(me)
    if value > -1.0:
        child = s.copy()
        apply_unchecked(child, me, action)
        assert brute_force(child, me) == value


def test_hard_takes_a_forced_win() -> None:
    """Talon empty, two seats: Hard sees all cards. Leading the 6 of spades lets the defender
    beat it and go out (R18); leading the unbeatable ace of spades wins."""
    s = position(RuleSet(), ["6S AS", "7S"], trump="6H", attacker=0)
    hard = make_player("hard", 1, Budget(None, iterations=50))
    assert str(hard.choose(s.view(0), [])) == "attack AS"


def test_single_legal_action_needs_no_search() -> None:
    s = position(RuleSet(), ["6S", "7S 8S"], trump="6H", attacker=0)
    hard = make_player("hard", 1, Budget(None, iterations=10**9))
    assert str(hard.choose(s.view(0), [])) == "attack 6S"


@pytest.mark.parametrize(("a", "b", "trump"), small_positions(30, 3))
def test_solver_against_a_seat_known_as_easy_equals_brute_force(a: str, b: str, trump: str) -> None:
    """With the other seat shown as Easy (deterministic, published rules) the solver follows
    Easy's one move there: both passes get the value brute force gets against that move, which
    is never below the value against the best reply."""
    trump_card = next(
        c
        for c in RuleSet().deck()
        if c.suit == Suit.parse(trump) and str(c) not in (a + " " + b).split()
    )
    s = position(RuleSet(), [a, b], trump=trump_card, attacker=0)
    me = next_actor(s)
    assert me is not None
    easy = 1 << (1 - me)
    ct = card_table(s.rules, Suit(s.trump_suit))
    expected = brute_force(s, me, ct, easy)
    assert expected >= brute_force(s, me)
    value, action, exact = EndgameSolver(me, ct, easy_seats=easy).solve(s.copy())
    assert exact and value == expected
    value, action, exact = EndgameSolver(me, ct, easy_seats=easy).prove(s.copy())
    assert exact and value == expected
    if value > -1.0:
        child = s.copy()
        apply_unchecked(child, me, action)
        assert brute_force(child, me, ct, easy) == value


def test_hard_wins_a_lost_endgame_against_a_seat_shown_as_easy() -> None:
    """Positions lost against the best reply but won against Easy's published rules: Hard told
    that the other seat is Easy plays a move that wins against Easy."""
    found = 0
    for a, b, trump in small_positions(120, 4):
        trump_card = next(
            c
            for c in RuleSet().deck()
            if c.suit == Suit.parse(trump) and str(c) not in (a + " " + b).split()
        )
        s = position(RuleSet(), [a, b], trump=trump_card, attacker=0)
        me = next_actor(s)
        assert me is not None
        ct = card_table(s.rules, Suit(s.trump_suit))
        easy = 1 << (1 - me)
        if len(s.legal_actions(me)) < 2 or brute_force(s, me) != -1.0:
            continue
        if brute_force(s, me, ct, easy) != 1.0:
            continue
        labels = ["hard", "hard"]
        labels[1 - me] = "easy"
        told = make_player("hard", 1, Budget(None, iterations=50), seats=labels)
        action = told.choose(s.view(me), [])
        child = s.copy()
        apply_unchecked(child, me, action)
        assert brute_force(child, me, ct, easy) == 1.0
        found += 1
    assert found >= 3  # the sample holds such positions


def test_seat_labels_are_checked() -> None:
    s = position(RuleSet(), ["6S AS", "7S"], trump="6H", attacker=0)
    with pytest.raises(TypeError):
        make_player("hard", 1, seats="easy")
    hard = make_player("hard", 1, Budget(None, iterations=5), seats=["easy", "easy", "easy"])
    with pytest.raises(ValueError, match="3 labels for a 2-seat game"):
        hard.choose(s.view(0), [])
