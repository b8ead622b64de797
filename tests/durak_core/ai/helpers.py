"""Helpers for the AI tests: random positions with each seat's observed history, and the same
positions with every card hidden from the seat dealt anew (the no-peek tests, R24, R25)."""

from __future__ import annotations

import random
from collections.abc import Iterator

from durak_core import GameState, RuleSet, SeatView, new_game
from durak_core.ai.schedule import next_actor
from durak_core.events import Event, visible_to
from tests.durak_core.helpers import reshuffle_hidden


def valid_seat_counts(rules: RuleSet) -> list[int]:
    out = []
    for n in range(2, 7):
        try:
            rules.check_seats(n)
        except ValueError:
            continue
        out.append(n)
    return out


def random_positions(
    rules: RuleSet, seats: int, seed: int, every: int = 5
) -> Iterator[tuple[GameState, int, list[Event]]]:
    """Play a random game; every ``every`` actions yield (state, seat to act, its history)."""
    rng = random.Random(seed)
    s = new_game(rules, seats, seed=seed)
    hist: list[list[Event]] = [[] for _ in range(seats)]
    k = 0
    while not s.finished:
        seat = next_actor(s)
        assert seat is not None
        if k % every == every - 1:
            yield s, seat, list(hist[seat])
        s, events = s.apply(seat, rng.choice(s.legal_actions(seat)))
        for t in range(seats):
            hist[t].extend(visible_to(events, t))
        k += 1


def hidden_reshuffled(
    rules: RuleSet, seats: int, *, seed: int, every: int, count: int, rng: random.Random
) -> list[tuple[SeatView, SeatView, list[Event]]]:
    """Up to ``count`` of the ``random_positions`` where the seat to act has a choice: its view,
    its view once every card hidden from it is dealt anew consistently with what it knew
    (``reshuffle_hidden`` with ``rng``), and its history. R24: the two views are equal."""
    out: list[tuple[SeatView, SeatView, list[Event]]] = []
    for s, seat, history in random_positions(rules, seats, seed=seed, every=every):
        view = s.view(seat)
        if len(view.legal_actions) < 2:
            continue
        other = reshuffle_hidden(s, seat, rng).view(seat)
        assert other == view  # nothing hidden shows in the view
        out.append((view, other, history))
        if len(out) >= count:
            break
    assert out
    return out
