"""Card pictures: milliseconds to render one table image and one hand image (PNG bytes).

Positions come from random legal play in several presets (classic, jokers, double deck,
changing trump, unlimited bout) with 2 to 6 seats, so the pictures hold realistic numbers of
cards and seats. Sprites (card faces, backs, name plates, counts) are cached after their first
drawing, as in the bot; the first (cold) render is reported too. Seats have Cyrillic names and
AI badges, with Russian rank labels and role words (the widest font path).
Prints one line per measurement and a JSON summary as the last line.

    python benchmarks/render_speed.py [--positions 200] [--repeat 5]
    python -m benchmarks.render_speed --messages [--repeat 7]   (a module: it imports tests/)

``--messages`` measures the text the bot writes instead, in microseconds of CPU time: the
table message (embed and buttons), each human's hand message (content and components) and the
saved row (``to_saved``), at every moment of a few series (the tables of
tests/bot/ui/test_render_caches.py: away, leaving, passing for the bout, timeouts, five languages,
readers in other ones). Caches stay warm from run to run, as in a running bot, and each run
plays new games (new states).
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import statistics
import time

from bot.render import SeatLabel, render_hand_png, render_table_png
from bot.render.card_images import card_image
from bot.tables.persistence import to_saved
from bot.ui.hand_view import table_hand
from bot.ui.table_embed import render_table
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


def message_run(seed: int) -> dict[str, list[float]]:
    """CPU seconds per table message, hand message and saved row over a few new series (CPU
    time, not wall time: what the bot's CPU budget counts, and steadier on a shared machine)."""
    # Imported here: the pictures' measurement also runs as a script (without tests/ on the path).
    from tests.bot.ui.test_render_caches import GAMES, LOCALES, moments

    out: dict[str, list[float]] = {"table": [], "hand": [], "saved": []}
    clock = time.process_time
    for i, (name, n, lang) in enumerate(GAMES):
        for table, k in moments(name, n, lang, seed + i):
            t0 = clock()
            render_table(table, images=k % 2 == 0)
            t1 = clock()
            to_saved(table)
            t2 = clock()
            out["table"].append(t1 - t0)
            out["saved"].append(t2 - t1)
            for seat in (0, 1):  # the humans: one in the table's language, one in another
                loc = table.language if seat == 0 else LOCALES[k % len(LOCALES)]
                t0 = clock()
                table_hand(table, seat, loc=loc, images=k % 3 == 0, updates_until=1.7e9)
                out["hand"].append(clock() - t0)
    return out


def messages(repeat: int) -> None:
    message_run(0)  # warms the caches
    runs = [message_run(1000 * (r + 1)) for r in range(repeat)]
    out: dict[str, object] = {
        "python": platform.python_version(),
        "machine": platform.machine(),
        "repeat": repeat,
        "moments_per_run": len(runs[0]["table"]),
    }
    for kind in ("table", "hand", "saved"):
        means = [statistics.fmean(run[kind]) * 1e6 for run in runs]
        out[f"{kind}_us"] = round(statistics.median(means), 1)
        out[f"{kind}_us_min"] = round(min(means), 1)  # the least disturbed run
        out[f"{kind}_us_runs"] = [round(m, 1) for m in means]
        print(f"{kind}: {out[f'{kind}_us']} µs of CPU per message (median of {repeat} runs' means)")
    print(json.dumps(out))


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--positions", type=int, default=200)
    p.add_argument("--repeat", type=int, default=5)
    p.add_argument("--messages", action="store_true", help="the messages' text, not pictures")
    args = p.parse_args()
    if args.messages:
        messages(args.repeat)
        return
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
