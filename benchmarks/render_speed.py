"""Card pictures: milliseconds to render one table image and one hand image (PNG bytes).

Positions come from random legal play in several presets (classic, jokers, double deck,
changing trump, unlimited bout), so the pictures hold realistic numbers of cards. Card faces
are cached after their first drawing, as in the bot; the first (cold) render is reported too.
Prints one line per measurement and a JSON summary as the last line.

    python benchmarks/render_speed.py [--positions 200] [--repeat 5]
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import statistics
import time

from bot.render import render_hand_png, render_table_png
from bot.render.cards import card_image
from durak_core import GameState, new_game, preset

PRESETS = ("classic", "jokers", "double-deck", "changing-trump", "unlimited")
RU = {11: "В", 12: "Д", 13: "К", 14: "Т"}


def positions(n: int, rng: random.Random) -> list[GameState]:
    out: list[GameState] = []
    while len(out) < n:
        s = new_game(preset(rng.choice(PRESETS)), rng.choice((2, 3, 4)), seed=rng.getrandbits(64))
        for _ in range(rng.randrange(0, 60)):
            movers = [p for p in range(s.n) if s.legal_actions(p)]
            if s.finished or not movers:
                break
            seat = rng.choice(movers)
            s, _ = s.apply(seat, rng.choice(s.legal_actions(seat)))
        out.append(s)
    return out


def time_ms(fn: object, items: list[object]) -> list[float]:
    times = []
    for item in items:
        t0 = time.perf_counter()
        fn(item)  # type: ignore[operator]
        times.append((time.perf_counter() - t0) * 1000)
    return times


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--positions", type=int, default=200)
    p.add_argument("--repeat", type=int, default=5)
    args = p.parse_args()
    states = positions(args.positions, random.Random(2026))
    card_image.cache_clear()
    t0 = time.perf_counter()
    render_table_png(states[0].public_view(), labels=RU)
    cold = (time.perf_counter() - t0) * 1000
    tables = [s.public_view() for s in states]
    hands = [s.view(0) for s in states]
    table_runs, hand_runs = [], []
    for _ in range(args.repeat):
        table_runs += time_ms(lambda v: render_table_png(v, labels=RU), tables)  # type: ignore[arg-type]
        hand_runs += time_ms(lambda v: render_hand_png(v, labels=RU), hands)  # type: ignore[arg-type]
    out = {
        "python": platform.python_version(),
        "machine": platform.machine(),
        "positions": args.positions,
        "repeat": args.repeat,
        "table_ms_median": round(statistics.median(table_runs), 2),
        "table_ms_p95": round(statistics.quantiles(table_runs, n=20)[18], 2),
        "table_ms_cold": round(cold, 2),
        "hand_ms_median": round(statistics.median(hand_runs), 2),
        "hand_ms_p95": round(statistics.quantiles(hand_runs, n=20)[18], 2),
        "table_target_ms": 20,
    }
    print(f"table: median {out['table_ms_median']} ms, p95 {out['table_ms_p95']} ms, "
          f"cold {out['table_ms_cold']} ms", flush=True)  # fmt: skip
    print(f"hand: median {out['hand_ms_median']} ms, p95 {out['hand_ms_p95']} ms", flush=True)
    print(json.dumps(out))


if __name__ == "__main__":
    main()
