"""AI strength benchmark: the target matches of the [ai] issue, via the arena.

    python benchmarks/ai_strength.py --think-ms 200 --games 200 --jobs 2
    python benchmarks/ai_strength.py --only hard-normal --think-ms 1000 --games 100 --clock cpu

Prints one line per match and, on the last line, every report as JSON. Targets (lower bound of
the 95% Wilson interval of the win rate, 2 seats, classic, mirrored deals): easy-random >= 90%,
normal-easy >= 60%, hard-normal >= 70%, hard-easy >= 85%; hard-3normal: Hard is the Durak in
<= 15% of 4-seat games (upper bound reported too).
"""

from __future__ import annotations

import argparse
import json
import platform
import sys
import time
from typing import Any

from bot.cli.arena import format_report, run
from bot.cli.options import add_deal_flags
from bot.cli.progress import add_progress_flag, show_progress
from durak_core import preset

MATCHES: dict[str, tuple[list[str], str, float]] = {
    # name: (players, figure, target)
    "easy-random": (["easy", "random"], "win_lower", 0.90),
    "normal-easy": (["normal", "easy"], "win_lower", 0.60),
    "hard-normal": (["hard", "normal"], "win_lower", 0.70),
    "hard-easy": (["hard", "easy"], "win_lower", 0.85),
    "hard-3normal": (["hard", "normal", "normal", "normal"], "durak_rate", 0.15),
}


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--think-ms", type=float, default=1000.0)
    add_deal_flags(ap, games=200, seed=1, jobs=2)
    ap.add_argument("--rules", default="classic")
    ap.add_argument("--only", default="", help="comma-separated match names")
    ap.add_argument(
        "--clock",
        choices=["wall", "cpu"],
        default="wall",
        help="Hard's budget in wall time, or in CPU time (same effort on a busy machine)",
    )
    add_progress_flag(ap)
    a = ap.parse_args(argv)
    progress = show_progress(a.progress)
    names = [x for x in a.only.split(",") if x] or list(MATCHES)
    out: dict[str, Any] = {
        "think_ms": a.think_ms,
        "clock": a.clock,
        "machine": f"{platform.machine()}, {platform.processor() or 'cpu'}, "
        f"python {platform.python_version()}",
        "date": time.strftime("%Y-%m-%d"),
        "matches": {},
    }
    for name in names:
        players, figure, target = MATCHES[name]
        rep = run(
            players,
            games=a.games,
            seed=a.seed,
            rules=preset(a.rules),
            think_ms=a.think_ms,
            jobs=a.jobs,
            clock=a.clock,
            progress=progress,
            label=name,
        )
        first = rep["players"][0]
        if figure == "win_lower":
            value = first["win_ci95"][0]
            met = value >= target
        else:
            value = first["durak_rate"]
            met = first["durak_ci95"][1] <= target
        print(format_report(rep), flush=True)
        print(
            f"{name}: {figure}={value:.3f} target {target} -> {'MET' if met else 'NOT MET'}",
            flush=True,
        )
        out["matches"][name] = {
            "figure": figure,
            "value": value,
            "target": target,
            "met": met,
            "report": rep,
        }
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
