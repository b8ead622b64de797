"""Machine instructions per random game, counted by valgrind: an engine A/B that a noisy host
cannot blur.

Usage: python -m benchmarks.engine_instructions [--seats 2,4] [--games N] [--warm W]

``engine_speed`` times games, and on a shared virtual machine one build's runs spread ±20 %, so
a 5 % change hides in the noise. This counts instead: for each seat count and path (public,
fast) it runs ``engine_speed``'s own game loop for exactly N games (seeds 0..N-1, the same
random choices) under ``valgrind --tool=callgrind``, once more for only the first W of them
(``--warm``: start-up, first calls and caches warming, ~900 M instructions), and reports the
difference over the N - W games between: instructions per game and per action. Runs of one build
agree within ±0.7 % (what varies is the hash seed, and so the order of sets). Instructions are
not time (a cache miss costs more than an add), but the engine's work is small loops over
integers, so a change in its code shows in the count. Run it against the install of each build
(each checkout's own virtual environment) and compare the counts.

Needs valgrind (Debian's package); prints the reason and exits 2 without it. JSON on the last
line.
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import durak_core
from benchmarks.engine_speed import play_fast, play_public
from durak_core.rules import MAX_SEATS, MIN_SEATS

PLAYS = {"public": play_public, "fast": play_fast}


def play(path: str, seats: int, games: int) -> int:
    """Play ``games`` seeded random games as ``engine_speed`` does; the number of actions."""
    rng, actions = random.Random(seats), 0
    for seed in range(games):
        actions += PLAYS[path](seed, seats, rng)
    return actions


def count(path: str, seats: int, games: int) -> tuple[int, int]:
    """(instructions, actions) of a child process playing ``games`` games under callgrind."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "callgrind.out"
        cmd = [
            "valgrind", "--tool=callgrind", f"--callgrind-out-file={out}",
            sys.executable, "-m", "benchmarks.engine_instructions",
            "--child", path, str(seats), str(games),
        ]  # fmt: skip
        done = subprocess.run(cmd, capture_output=True, text=True)
        if done.returncode != 0:
            raise RuntimeError(f"the counted run failed ({done.returncode}): {done.stderr[-500:]}")
        summary = re.search(r"^summary:\s*(\d+)", out.read_text(), re.MULTILINE)
        if summary is None:
            raise RuntimeError(f"callgrind wrote no summary: {done.stderr[-500:]}")
        return int(summary.group(1)), int(done.stdout.split()[-1])


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--seats", default="2,4")
    p.add_argument("--games", type=int, default=110)
    p.add_argument("--warm", type=int, default=10)
    p.add_argument("--child", nargs=3, metavar=("PATH", "SEATS", "GAMES"), help=argparse.SUPPRESS)
    args = p.parse_args()
    if args.child:
        path, seats, games = args.child
        print(play(path, int(seats), int(games)))
        return 0
    if shutil.which("valgrind") is None:
        print("engine_instructions needs valgrind (apt install valgrind)", file=sys.stderr)
        return 2
    if not 0 <= args.warm < args.games:
        p.error("--warm must be at least 0 and less than --games")
    try:
        seat_counts = [int(x) for x in args.seats.split(",")]
    except ValueError:
        p.error(f"--seats takes seat counts separated by commas, not {args.seats!r}")
    if not all(MIN_SEATS <= n <= MAX_SEATS for n in seat_counts):
        p.error(f"--seats: each from {MIN_SEATS} to {MAX_SEATS} (R3), not {args.seats!r}")
    out: dict[str, object] = {
        "python": platform.python_version(),
        "machine": platform.machine(),
        "compiled": durak_core.COMPILED,
        "games": args.games,
        "warm": args.warm,
    }
    for seats in seat_counts:
        for path in PLAYS:
            base, warm_actions = count(path, seats, args.warm)
            total, actions = count(path, seats, args.games)
            games, actions = args.games - args.warm, actions - warm_actions
            out[f"{seats}_seats_{path}"] = {
                "instructions_per_game": round((total - base) / games),
                "instructions_per_action": round((total - base) / actions),
                "actions_per_game": round(actions / games, 1),
            }
            print(f"{seats} seats, {path}: {out[f'{seats}_seats_{path}']}", file=sys.stderr)
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
