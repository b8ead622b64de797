"""Tournament pictures: milliseconds to draw the standings picture of a 64-player Swiss and the
bracket of a 64-player single elimination (PNG bytes), and to build the whole standings message
(the core's standings from the stored games, the embed and the picture).

The events are played by the core with seeded random results
(tests/bot/tournaments/tournament_stored.py), in Russian (the widest font path). A picture's
words are rasterised once and cached, as in the bot, where the message is redrawn after every
result: the first (cold) call is reported too.
Prints one line per measurement and a JSON summary as the last line.

    python -m benchmarks.tournament_pictures [--repeat 30]
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import time
from collections.abc import Callable

from bot.tournaments.messages.tournament_bracket import bracket_scene, tournament_bracket
from bot.tournaments.messages.tournament_standings import (
    standings_message,
    standings_scene,
    swiss_standings,
)
from bot.tournaments.messages.tournament_text import Names, translator_for
from bot.tournaments.pictures.bracket import render_bracket_png
from bot.tournaments.pictures.tournament import label, render_standings_png
from tests.bot.tournaments.tournament_stored import Stored, elimination, swiss

TR = translator_for("ru")


def timed(fn: Callable[[], object], repeat: int) -> tuple[float, list[float]]:
    label.cache_clear()
    t0 = time.perf_counter()
    fn()
    cold = (time.perf_counter() - t0) * 1000
    runs = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        runs.append((time.perf_counter() - t0) * 1000)
    return cold, runs


def message(s: Stored) -> Callable[[], object]:
    return lambda: standings_message(s.t, s.entrants, s.rounds, s.games, s.names, TR)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--repeat", type=int, default=30)
    args = p.parse_args()
    sw, el = swiss(64, 2, seed=1), elimination(64, seed=1)
    st = swiss_standings(sw.t, sw.entrants, sw.rounds, sw.games)
    table = standings_scene(sw.t, st, Names(sw.entrants, sw.names, TR), {}, "", TR)
    b = tournament_bracket(el.t, el.entrants, el.rounds, el.games)
    tree = bracket_scene(el.t, b, el.entrants, Names(el.entrants, el.names, TR), set(), "", TR)
    out: dict[str, object] = {
        "python": platform.python_version(),
        "machine": platform.machine(),
        "repeat": args.repeat,
    }
    for name, fn in (
        ("standings_png", lambda: render_standings_png(table)),
        ("bracket_png", lambda: render_bracket_png(tree)),
        ("swiss_message", message(sw)),
        ("bracket_message", message(el)),
    ):
        cold, runs = timed(fn, args.repeat)
        out[f"{name}_ms_median"] = round(statistics.median(runs), 1)
        out[f"{name}_ms_max"] = round(max(runs), 1)
        out[f"{name}_ms_cold"] = round(cold, 1)
        print(f"{name}: median {statistics.median(runs):.1f} ms, max {max(runs):.1f} ms, "
              f"cold {cold:.1f} ms", flush=True)  # fmt: skip
    out["target_ms"] = 100
    print(json.dumps(out))


if __name__ == "__main__":
    main()
