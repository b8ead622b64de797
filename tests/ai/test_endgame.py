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
