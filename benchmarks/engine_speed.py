"""Random full games per second through the public API and through the fast path.

Usage: python benchmarks/engine_speed.py [--seconds S] [--seats 2,4,6] [--repeat R]
                                         [--clock wall|cpu]
Plays random games (classic rules) for a fixed time per configuration on one core and prints a
JSON object on its last line: games/s and actions/s per seat count, per path (median of R runs),
with the mean actions per game and µs per action (deal included) of the median run.

A random game picks uniformly among every legal (seat, action) pair of every seat; one action is
one card, one take or one pass. The deal (seeded shuffle) is part of each game. ``--clock cpu``
times with this process's CPU time instead of the wall clock (for a machine other jobs share).
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import time
from collections.abc import Callable

from bot.cli.progress import add_progress_flag, progress_bar, say, show_progress
from durak_core import RuleSet, new_game
from durak_core.fast import apply_unchecked, legal_moves

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


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--seconds", type=float, default=3.0)
    p.add_argument("--seats", default="2,4,6")
    p.add_argument("--repeat", type=int, default=3)
    p.add_argument("--clock", choices=("wall", "cpu"), default="wall")
    add_progress_flag(p)
    args = p.parse_args()
    clock = time.perf_counter if args.clock == "wall" else time.process_time
    out: dict[str, object] = {
        "python": platform.python_version(),
        "machine": platform.machine(),
        "seconds_per_run": args.seconds,
        "repeat": args.repeat,
        "clock": args.clock,
    }
    seat_counts = [int(x) for x in args.seats.split(",")]
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
