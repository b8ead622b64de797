"""Random full games per second through the public API and through the fast path.

Usage: python benchmarks/engine_speed.py [--seconds S] [--seats 2,4,6] [--repeat R]
                                         [--clock wall|cpu] [--views [--games G]]
Plays random games (classic rules) for a fixed time per configuration on one core and prints a
JSON object on its last line: games/s and actions/s per seat count, per path (median of R runs),
with the mean actions per game and µs per action (deal included) of the median run.

A random game picks uniformly among every legal (seat, action) pair of every seat; one action is
one card, one take or one pass. The deal (seeded shuffle) is part of each game. ``--clock cpu``
times with this process's CPU time instead of the wall clock (for a machine other jobs share).

``--views`` times instead what the bot pays per state it shows and saves, over every state of G
random games per seat count, in µs per call (median of R runs): ``public_view``; ``seat_view``
of each seat; ``table_views``, per state its public view and every seat's view sharing it (as
the bot's table builds them); ``cards_of`` of each hand, known set and discard; and one
``SnapshotWriter`` per game saving its states in order, per state.
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import statistics
import time
from collections.abc import Callable

import durak_core
from bot.cli.progress import add_progress_flag, progress_bar, say, show_progress
from durak_core import GameState, RuleSet, new_game, public_view, seat_view
from durak_core.cards import cards_of
from durak_core.fast import apply_unchecked, legal_moves
from durak_core.snapshot import SnapshotWriter

RULES = RuleSet()


def play_public(seed: int, seats: int, rng: random.Random) -> int:
    s = new_game(RULES, seats, seed=seed)
    actions = 0
    while not s.finished:
        seat, action = rng.choice(s.legal_moves())
        s, _events = s.apply(seat, action)
        actions += 1
    return actions


def play_fast(seed: int, seats: int, rng: random.Random) -> int:
    s = new_game(RULES, seats, seed=seed)
    actions = 0
    while not s.finished:
        seat, action = rng.choice(legal_moves(s))
        apply_unchecked(s, seat, action)
        actions += 1
    return actions


def measure(
    play: Callable[[int, int, random.Random], int],
    seats: int,
    seconds: float,
    clock: Callable[[], float] = time.perf_counter,
) -> dict[str, float]:
    rng = random.Random(seats)
    games = actions = 0
    start = clock()
    deadline = start + seconds
    while clock() < deadline:
        actions += play(games, seats, rng)
        games += 1
    elapsed = clock() - start
    return {
        "games_per_s": games / elapsed,
        "actions_per_s": actions / elapsed,
        "actions_per_game": actions / games,
        "us_per_action": elapsed / actions * 1e6,
    }


def game_states(seed: int, seats: int) -> list[GameState]:
    """Every state of one random game, the deal first."""
    rng = random.Random(seed)
    s = new_game(RULES, seats, seed=seed)
    states = [s]
    while not s.finished:
        s, _events = s.apply(*rng.choice(s.legal_moves()))
        states.append(s)
    return states


def _public_views(games: list[list[GameState]]) -> int:
    for states in games:
        for s in states:
            public_view(s)
    return sum(len(states) for states in games)


def _seat_views(games: list[list[GameState]]) -> int:
    calls = 0
    for states in games:
        for s in states:
            for seat in range(s.n):
                seat_view(s, seat)
            calls += s.n
    return calls


def _table_views(games: list[list[GameState]]) -> int:
    for states in games:
        for s in states:
            public = public_view(s)  # timed too: the table builds it once per state
            for seat in range(s.n):
                seat_view(s, seat, public)
    return sum(len(states) for states in games)


def _cards_of(games: list[list[GameState]]) -> int:
    masks = _masks(games)
    for m in masks:
        cards_of(m)
    return len(masks)


_MASKS: dict[int, list[int]] = {}


def _masks(games: list[list[GameState]]) -> list[int]:
    """Each state's hands, known sets and discard, listed once (untimed: the first run)."""
    if id(games) not in _MASKS:
        _MASKS.clear()
        _MASKS[id(games)] = [m for g in games for s in g for m in (*s.hands, *s.known, s.discard)]
    return _MASKS[id(games)]


def _snapshots(games: list[list[GameState]]) -> int:
    for states in games:
        write = SnapshotWriter()
        for s in states:
            write(s)
    return sum(len(states) for states in games)


#: What ``--views`` times: each runs over every state once and says how many calls it made.
VIEW_PARTS: dict[str, Callable[[list[list[GameState]]], int]] = {
    "public_view": _public_views,
    "seat_view": _seat_views,
    "table_views": _table_views,
    "cards_of": _cards_of,
    "snapshot_writer": _snapshots,
}


def measure_views(
    seats: int, games: int, repeat: int, clock: Callable[[], float]
) -> dict[str, float]:
    """µs per call of each of VIEW_PARTS over ``games`` random games' states, median of
    ``repeat`` runs (one untimed run first, so that the caches are as a running bot's)."""
    states = [game_states(seed, seats) for seed in range(games)]
    out: dict[str, float] = {"states": sum(len(g) for g in states)}
    for name, part in VIEW_PARTS.items():
        part(states)
        runs = []
        for _ in range(repeat):
            start = clock()
            calls = part(states)
            runs.append((clock() - start) / calls * 1e6)
        out[f"{name}_us"] = round(statistics.median(runs), 3)
    return out


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--seconds", type=float, default=3.0)
    p.add_argument("--seats", default="2,4,6")
    p.add_argument("--repeat", type=int, default=3)
    p.add_argument("--clock", choices=("wall", "cpu"), default="wall")
    p.add_argument("--views", action="store_true", help="time views and snapshots instead")
    p.add_argument("--games", type=int, default=20, help="with --views: games per seat count")
    add_progress_flag(p)
    args = p.parse_args()
    clock = time.perf_counter if args.clock == "wall" else time.process_time
    out: dict[str, object] = {
        "python": platform.python_version(),
        "machine": platform.machine(),
        "compiled": durak_core.COMPILED,
        "repeat": args.repeat,
        "clock": args.clock,
    }
    seat_counts = [int(x) for x in args.seats.split(",")]
    if args.views:
        for seats in seat_counts:
            out[f"{seats}_seats_views"] = measure_views(seats, args.games, args.repeat, clock)
            say(f"{seats} seats: {out[f'{seats}_seats_views']}")
        print(json.dumps(out))
        return
    out["seconds_per_run"] = args.seconds
    # One step per timed run, drawn between runs: the bar never runs inside a measurement.
    runs_in_all = len(seat_counts) * 2 * args.repeat
    bar = progress_bar(runs_in_all, desc="runs", unit="run", enabled=show_progress(args.progress))
    for seats in seat_counts:
        for name, play in (("public", play_public), ("fast", play_fast)):
            runs = []
            for _ in range(args.repeat):
                runs.append(measure(play, seats, args.seconds, clock))
                bar.update()
            runs.sort(key=lambda r: r["games_per_s"])
            median = runs[len(runs) // 2]
            med = {k: round(v, 2 if k == "us_per_action" else 1) for k, v in median.items()}
            out[f"{seats}_seats_{name}"] = med
            say(f"{seats} seats, {name}: {med}")
    bar.close()
    print(json.dumps(out))


if __name__ == "__main__":
    main()
