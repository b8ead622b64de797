"""Card pictures: milliseconds to render one table image and one hand image (PNG bytes).

Positions come from random legal play in several presets (classic, jokers, double deck,
changing trump, unlimited bout) with 2 to 6 seats, so the pictures hold realistic numbers of
cards and seats. Sprites (card faces, backs, name plates, counts) are cached after their first
drawing, as in the bot; the first (cold) render is reported too. Seats have Cyrillic names and
AI badges, with Russian rank labels and role words (the widest font path).
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

from bot.render import SeatLabel, render_hand_png, render_table_png
from bot.render.cards import card_image
from bot.ui.table_picture import rank_labels, role_words
from durak_core import GameState, PublicView, RuleSet, new_game, preset
from durak_core.errors import RulesError

PRESETS = ("classic", "jokers", "double-deck", "changing-trump", "unlimited")
RU = rank_labels("ru")
WORDS = role_words("ru")
SEATS = tuple(
    SeatLabel(name, badge)
    for name, badge in (
        ("Алексей", ""),
        ("ИИ 1 (сильный)", "ИИ · сильный"),
        ("Марина Цветаева", ""),
        ("ИИ 2 (средний)", "ИИ · средний"),
        ("Борис", "играет ИИ"),
        ("Zoë", ""),
    )
)


def positions(n: int, rng: random.Random) -> list[GameState]:
    out: list[GameState] = []
    while len(out) < n:
        rules = preset(rng.choice(PRESETS))
        seats = rng.choice([n for n in (2, 3, 4, 5, 6) if _fits(rules, n)])
        s = new_game(rules, seats, seed=rng.getrandbits(64))
        for _ in range(rng.randrange(0, 60)):
            movers = [p for p in range(s.n) if s.legal_actions(p)]
            if s.finished or not movers:
                break
            seat = rng.choice(movers)
            s, _ = s.apply(seat, rng.choice(s.legal_actions(seat)))
        out.append(s)
    return out


def _fits(rules: RuleSet, seats: int) -> bool:
    try:
        rules.check_seats(seats)
    except RulesError:
        return False
    return True


def time_ms(fn: object, items: list[object]) -> list[float]:
    times = []
    for item in items:
        t0 = time.perf_counter()
        fn(item)  # type: ignore[operator]
        times.append((time.perf_counter() - t0) * 1000)
    return times


def draw_table(v: PublicView) -> bytes:
    return render_table_png(v, SEATS[: v.seats], labels=RU, words=WORDS)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--positions", type=int, default=200)
    p.add_argument("--repeat", type=int, default=5)
    args = p.parse_args()
    states = positions(args.positions, random.Random(2026))
    card_image.cache_clear()
    t0 = time.perf_counter()
    draw_table(states[0].public_view())
    cold = (time.perf_counter() - t0) * 1000
    tables = [s.public_view() for s in states]
    hands = [s.view(0) for s in states]
    # The first pass draws the sprites new positions need (name plates, faces at a bout's
    # size); the later passes are the steady state of a running bot.
    first = time_ms(draw_table, tables)  # type: ignore[arg-type]
    table_runs, hand_runs = [], []
    for _ in range(args.repeat):
        table_runs += time_ms(draw_table, tables)  # type: ignore[arg-type]
        hand_runs += time_ms(lambda v: render_hand_png(v, labels=RU), hands)  # type: ignore[arg-type]
    size = len(draw_table(tables[-1]))
    out = {
        "python": platform.python_version(),
        "machine": platform.machine(),
        "positions": args.positions,
        "repeat": args.repeat,
        "table_ms_median": round(statistics.median(table_runs), 2),
        "table_ms_p95": round(statistics.quantiles(table_runs, n=20)[18], 2),
        "table_ms_cold": round(cold, 2),
        "table_first_pass_ms_median": round(statistics.median(first), 2),
        "table_first_pass_ms_p95": round(statistics.quantiles(first, n=20)[18], 2),
        "table_png_bytes": size,
        "hand_ms_median": round(statistics.median(hand_runs), 2),
        "hand_ms_p95": round(statistics.quantiles(hand_runs, n=20)[18], 2),
        "table_target_ms": {"median": 3, "p95": 6},
    }
    print(f"table: median {out['table_ms_median']} ms, p95 {out['table_ms_p95']} ms, "
          f"cold {out['table_ms_cold']} ms; first pass median "
          f"{out['table_first_pass_ms_median']} ms, p95 {out['table_first_pass_ms_p95']} ms",
          flush=True)  # fmt: skip
    print(f"hand: median {out['hand_ms_median']} ms, p95 {out['hand_ms_p95']} ms", flush=True)
    print(json.dumps(out))


if __name__ == "__main__":
    main()
