"""How much Hard searches per decision: playouts per decision at a fixed CPU budget.

Usage: python benchmarks/ai_playouts.py [--games G] [--think-ms MS] [--seed S]

Deals G two-seat classic games, plays each with random moves for up to 40 actions, and at every
position where the seat to act has a choice and the talon is not empty (the Monte Carlo search,
not the endgame solver) asks Hard, with ``--think-ms`` of this process's CPU time, for its
decision. Prints the median, quartiles and count of Hard's playouts per decision, and whether
the engine runs compiled; JSON on the last line. Compare builds by running it in each (for the
pure-Python source, a checkout without the compiled ``.so`` files, through ``PYTHONPATH``).
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import statistics
import time

import durak_core
from bot.cli.progress import add_progress_flag, progress_bar, show_progress
from durak_core import RuleSet, new_game
from durak_core.ai.base import Budget
from durak_core.ai.hard import HardPlayer
from durak_core.events import Event, visible_to


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--games", type=int, default=12)
    p.add_argument("--think-ms", type=float, default=200.0)
    p.add_argument("--seed", type=int, default=5)
    add_progress_flag(p)
    args = p.parse_args()
    bar = progress_bar(args.games, desc="games", unit="game", enabled=show_progress(args.progress))
    rng = random.Random(args.seed)
    playouts: list[int] = []
    for g in range(args.games):
        s = new_game(RuleSet(), 2, seed=1000 + g)
        seen: dict[int, list[Event]] = {0: [], 1: []}
        hard = HardPlayer(g, Budget(args.think_ms / 1000, clock=time.process_time))
        for _ in range(40):
            if s.finished:
                break
            seat, action = rng.choice(s.legal_moves())
            view = s.view(seat)
            if len(view.legal_actions) > 1 and view.talon_size:
                hard.choose(view, seen[seat])
                playouts.append(hard.last_iterations)
            s, events = s.apply(seat, action)
            for t in (0, 1):
                seen[t].extend(visible_to(events, t))
        bar.update()
    bar.close()
    q1, median, q3 = statistics.quantiles(playouts, n=4)
    out = {
        "python": platform.python_version(),
        "machine": platform.machine(),
        "compiled": durak_core.COMPILED,
        "think_ms": args.think_ms,
        "decisions": len(playouts),
        "playouts_per_decision": {"q1": q1, "median": median, "q3": q3},
    }
    print(f"compiled: {durak_core.COMPILED}; {len(playouts)} decisions at {args.think_ms:g} ms")
    print(f"playouts per decision: median {median:.0f} (quartiles {q1:.0f}, {q3:.0f})")
    print(json.dumps(out))


if __name__ == "__main__":
    main()
