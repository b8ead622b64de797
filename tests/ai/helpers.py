"""Helpers for the AI tests: random positions with each seat's observed history."""

from __future__ import annotations

import random
from collections.abc import Iterator

from durak_core import GameState, RuleSet, new_game
from durak_core.ai.schedule import next_actor
from durak_core.events import Event, visible_to


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
