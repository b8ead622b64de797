"""The whole-history no-peek test (R24, R25; issue #48, item 3): the cards hidden from a seat
are re-dealt by swapping places in the deck, each re-deal is replayed through the game's actual
moves, and only re-deals under which the seat saw exactly the same events (every move legal)
and whose view is the same (its own cards and the face-up trump are in the view, not in the
events) are kept. Under each kept re-deal the seat's review and hint, computed from that
replay, are those of the real game, though the other hand and the talon differ."""

from __future__ import annotations

import random

import pytest

from durak_core import Action, Card, GameState, RuleSet, new_game
from durak_core.ai import Level, make_player
from durak_core.ai.schedule import next_actor
from durak_core.coach.hint import hint
from durak_core.coach.review import ReviewBudget, review_decision
from durak_core.errors import DurakError
from durak_core.events import Event, visible_to

SMALL = ReviewBudget(deals=8, solver_nodes=20_000)
SEAT = 0

Moves = list[tuple[int, Action]]


def _game(seed: int) -> tuple[GameState, Moves]:
    """A two-seat game of Normal players: the deal and every move."""
    start = new_game(RuleSet(), 2, seed=seed)
    players = [make_player(Level.NORMAL, seed + t) for t in range(2)]
    seen: list[list[Event]] = [[], []]
    s, moves = start, []
    while not s.finished:
        seat = next_actor(s)
        assert seat is not None
        action = players[seat].choose(s.view(seat), seen[seat])
        moves.append((seat, action))
        s, events = s.apply(seat, action)
        for t in (0, 1):
            seen[t].extend(visible_to(events, t))
    return start, moves


def _replay(order: list[int], dealer: int, moves: Moves) -> tuple[GameState, list[Event]] | None:
    """The deal ``order`` played through ``moves``: the state and what SEAT saw, or None if a
    move is illegal under that deal."""
    s = new_game(RuleSet(), 2, order=[Card.from_index(i) for i in order], dealer=dealer)
    seen: list[Event] = []
    try:
        for seat, action in moves:
            s, events = s.apply(seat, action)
            seen.extend(visible_to(events, SEAT))
    except DurakError:
        return None
    return s, seen


def _redeals(
    start: GameState, moves: Moves, count: int, rng: random.Random
) -> tuple[list[tuple[GameState, list[Event]]], int]:
    """Up to ``count`` re-deals consistent with everything SEAT saw in ``moves``: a walk of
    random swaps of two places in the deck, each kept only if the replay is legal and SEAT's
    events and view are identical. Also how many swaps were refused."""
    real = _replay(list(start.order), start.dealer, moves)
    assert real is not None
    order = list(start.order)
    out: list[tuple[GameState, list[Event]]] = []
    refused = 0
    for _ in range(count * 40):
        i, j = rng.sample(range(len(order)), 2)
        trial = order[:]
        trial[i], trial[j] = trial[j], trial[i]
        got = _replay(trial, start.dealer, moves)
        # The seat's own cards and the face-up trump are in its view, not in its events.
        if got is None or got[1] != real[1] or got[0].view(SEAT) != real[0].view(SEAT):
            refused += 1
            continue
        order = trial
        if got[0].hands != real[0].hands or got[0].talon != real[0].talon:
            out.append(got)
            if len(out) >= count:
                break
    return out, refused


@pytest.mark.parametrize("seed", [61, 62])
@pytest.mark.slow
def test_review_and_hint_ignore_hidden_cards_over_the_whole_history(seed: int) -> None:
    start, moves = _game(seed)
    rng = random.Random(seed)
    points = [k for k, (seat, _) in enumerate(moves) if seat == SEAT]
    checked = refusals = 0
    for k in [*rng.sample(points, 4), points[-2]]:  # the last ones: an endgame
        before = moves[:k]
        real = _replay(list(start.order), start.dealer, before)
        assert real is not None
        view = real[0].view(SEAT)
        if len(view.legal_actions) < 2:
            continue
        chosen = moves[k][1]
        review = review_decision(view, real[1], chosen, k + 1, SMALL, seed=3)
        advice = hint(view, real[1], SMALL, seed=5)
        redeals, refused = _redeals(start, before, 3, rng)
        refusals += refused
        for state, seen in redeals:
            other = state.view(SEAT)
            assert review_decision(other, seen, chosen, k + 1, SMALL, seed=3) == review
            assert hint(other, seen, SMALL, seed=5) == advice
            checked += 1
    assert checked >= 3
    assert refusals  # the filter bites: swaps that change what the seat saw are refused
