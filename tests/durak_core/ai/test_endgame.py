"""The endgame solver agrees with brute-force minimax on small positions (R16-R20 decide the
outcomes it searches)."""

from __future__ import annotations

import random

import pytest

from durak_core import Event, GameState, RuleSet, Suit, new_game, position, visible_to
from durak_core.ai import Budget, Level, make_player
from durak_core.ai.cardinfo import CardTable, card_table
from durak_core.ai.endgame import EndgameSolver, brute_force
from durak_core.ai.normal import endgame_reply
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


def endgame_position(a: str, b: str, trump: str) -> tuple[GameState, int, CardTable]:
    """Hands ``a`` and ``b``, an empty talon, a trump card of suit ``trump`` that neither hand
    holds: the state, the seat to move and its card table."""
    trump_card = next(
        c
        for c in RuleSet().deck()
        if c.suit == Suit.parse(trump) and str(c) not in (a + " " + b).split()
    )
    s = position(RuleSet(), [a, b], trump=trump_card, attacker=0)
    me = next_actor(s)
    assert me is not None
    return s, me, card_table(s.rules, Suit(s.trump_suit))


@pytest.mark.slow
@pytest.mark.parametrize(("a", "b", "trump"), small_positions(40, 1))
def test_solver_value_equals_brute_force(a: str, b: str, trump: str) -> None:
    s, me, ct = endgame_position(a, b, trump)
    value, action, exact = EndgameSolver(me, ct).solve(s)
    assert exact
    assert value == brute_force(s, me)
    assert action in s.legal_actions(me)


@pytest.mark.slow
@pytest.mark.parametrize(("a", "b", "trump"), small_positions(40, 2))
def test_prove_agrees_with_brute_force(a: str, b: str, trump: str) -> None:
    """The narrow-window full-depth pass gets the exact value, and a proven win or draw comes
    with a move that keeps it."""
    s, me, ct = endgame_position(a, b, trump)
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
    hard = make_player(Level.HARD, 1, Budget(None, iterations=50))
    assert str(hard.choose(s.view(0), [])) == "attack AS"


def test_single_legal_action_needs_no_search() -> None:
    s = position(RuleSet(), ["6S", "7S 8S"], trump="6H", attacker=0)
    hard = make_player(Level.HARD, 1, Budget(None, iterations=10**9))
    assert str(hard.choose(s.view(0), [])) == "attack 6S"


@pytest.mark.slow
@pytest.mark.parametrize(("a", "b", "trump"), small_positions(30, 3))
def test_solver_against_a_seat_known_as_easy_equals_brute_force(a: str, b: str, trump: str) -> None:
    """With the other seat shown as Easy (deterministic, published rules) the solver follows
    Easy's one move there: both passes get the value brute force gets against that move, which
    is never below the value against the best reply."""
    s, me, ct = endgame_position(a, b, trump)
    easy = 1 << (1 - me)
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


@pytest.mark.slow
def test_hard_wins_a_lost_endgame_against_a_seat_shown_as_easy() -> None:
    """Positions lost against the best reply but won against Easy's published rules: Hard told
    that the other seat is Easy plays a move that wins against Easy."""
    found = 0
    for a, b, trump in small_positions(120, 4):
        s, me, ct = endgame_position(a, b, trump)
        easy = 1 << (1 - me)
        if len(s.legal_actions(me)) < 2 or brute_force(s, me) != -1.0:
            continue
        if brute_force(s, me, ct, easy) != 1.0:
            continue
        labels = ["hard", "hard"]
        labels[1 - me] = "easy"
        told = make_player(Level.HARD, 1, Budget(None, iterations=50), seats=labels)
        action = told.choose(s.view(me), [])
        child = s.copy()
        apply_unchecked(child, me, action)
        assert brute_force(child, me, ct, easy) == 1.0
        found += 1
    assert found >= 3  # the sample holds such positions


def test_seat_labels_are_checked() -> None:
    s = position(RuleSet(), ["6S AS", "7S"], trump="6H", attacker=0)
    with pytest.raises(TypeError):
        make_player(Level.HARD, 1, seats="easy")
    hard = make_player(Level.HARD, 1, Budget(None, iterations=5), seats=["easy", "easy", "easy"])
    with pytest.raises(ValueError, match="3 labels for a 2-seat game"):
        hard.choose(s.view(0), [])


def _normal_game_until(seed: int, actions: int) -> tuple[GameState, list[list[Event]]]:
    """A Normal-vs-Normal game (classic, two seats) after ``actions`` actions, with each seat's
    observed history."""
    s = new_game(RuleSet(), 2, seed=seed)
    normals = [make_player(Level.NORMAL, 1), make_player(Level.NORMAL, 2)]
    hist: list[list[Event]] = [[], []]
    while len(s.log) < actions and not s.finished:
        seat = next_actor(s)
        assert seat is not None
        s, events = s.apply(seat, normals[seat].choose(s.view(seat), tuple(hist[seat])))
        for t in (0, 1):
            hist[t].extend(visible_to(events, t))
    return s, hist


@pytest.mark.slow
@pytest.mark.parametrize("seed", [3, 11])
def test_normal_endgame_reply_is_what_normal_plays(seed: int) -> None:
    """Hard predicts a seat shown as Normal in the endgame with ``endgame_reply`` on its own
    copy of the state: at every endgame decision of a Normal-vs-Normal game the prediction is
    the move NormalPlayer makes from its view and history (or None when Normal falls back to
    its heuristics)."""
    s, hist = _normal_game_until(seed, 0)
    normals = [make_player(Level.NORMAL, 1), make_player(Level.NORMAL, 2)]
    compared = 0
    while not s.finished:
        seat = next_actor(s)
        assert seat is not None
        played = normals[seat].choose(s.view(seat), tuple(hist[seat]))
        if not s.talon and len(s.legal_actions(seat)) > 1:
            ct = card_table(s.rules, Suit(s.trump_suit))
            predicted = endgame_reply(s, seat, ct)
            assert predicted is None or predicted == played
            compared += predicted is not None
        s, events = s.apply(seat, played)
        for t in (0, 1):
            hist[t].extend(visible_to(events, t))
    assert compared


@pytest.mark.slow
def test_hard_sets_a_trap_for_a_seat_shown_as_normal() -> None:
    """A position (found by playing Normal-vs-Normal games) lost against the best replies, but
    Normal's fixed look-ahead misses the refutation: Hard told that the other seat is Normal
    plays a trap and wins against the real Normal."""
    s, seen = _normal_game_until(11, 34)
    me = next_actor(s)
    assert me == 0 and not s.talon
    ct = card_table(s.rules, Suit(s.trump_suit))
    assert EndgameSolver(me, ct).prove(s.copy())[0] == -1.0
    hard = make_player(Level.HARD, 1, Budget(None, iterations=300), seats=["normal", "normal"])
    players = [hard, make_player(Level.NORMAL, 2)]
    modes = []
    while not s.finished:
        seat = next_actor(s)
        assert seat is not None
        s, events = s.apply(seat, players[seat].choose(s.view(seat), tuple(seen[seat])))
        if seat == me:
            modes.append(getattr(hard, "last_mode", ""))
        for t in (0, 1):
            seen[t].extend(visible_to(events, t))
    assert modes[0] == "endgame-trap"
    assert s.result is not None and s.result.durak == 1
