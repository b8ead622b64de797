"""``durak arena``: AI-vs-AI matches on mirrored deals, with confidence intervals and latencies.

Every deal is replayed once per seating: with n seats, player slot p sits at seat (p + r) mod n
in rotation r, so luck of the deal cancels out. ``--games`` counts games (rounded up to whole
deals of n rotations). Work is split over ``--jobs`` processes (spawn-safe). On a terminal a
progress bar with an ETA runs on stderr (``--progress``/``--no-progress``; never by default with
``--json``, whose line stays the last one on stdout).
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import statistics
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from durak_core import RuleSet
from durak_core.ai import LEVELS, Budget, Level, make_player
from durak_core.ai.match import play_game
from durak_core.rules import MAX_SEATS, MIN_SEATS

from .options import add_deal_flags, add_rules, parser, rules_or_none
from .progress import add_progress_flag, progress_bar, show_progress

Z95 = 1.959963984540054
#: How many seats ``--players`` names (R3).
SEATS = f"{MIN_SEATS}-{MAX_SEATS}"
#: ``--clock``: wall time, or the calling thread's CPU time. A strength run on a shared machine
#: uses ``cpu`` so that every decision gets the same search effort; latency targets are wall.
CLOCKS = {"wall": time.perf_counter, "cpu": time.thread_time}


def wilson(k: int, n: int, z: float = Z95) -> tuple[float, float]:
    """95% Wilson score interval of a proportion k/n.

    >>> [round(x, 3) for x in wilson(90, 100)]
    [0.826, 0.945]
    """
    if n == 0:
        return (0.0, 1.0)
    p = k / n
    den = 1 + z * z / n
    mid = (p + z * z / (2 * n)) / den
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
    return (max(0.0, mid - half), min(1.0, mid + half))


def elo(score: float, baseline: float, games: int) -> float:
    """Elo difference implied by a score against the field, relative to the score expected of
    an equal player (``baseline``: 1/2 with two seats, (n-1)/n for avoiding the Durak)."""
    eps = 0.5 / max(games, 1)
    p = min(max(score, eps), 1 - eps)

    def logit(x: float) -> float:
        return 400 * math.log10(x / (1 - x))

    return logit(p) - logit(baseline)


def percentile(xs: Sequence[float], q: float) -> float:
    if not xs:
        return 0.0
    s = sorted(xs)
    i = min(len(s) - 1, max(0, math.ceil(q * len(s)) - 1))
    return s[i]


@dataclass
class Tally:
    label: str
    games: int = 0
    wins: int = 0
    duraks: int = 0
    draws: int = 0
    latencies: list[float] = field(default_factory=list)


def _task(args: tuple[list[str], dict[str, Any], int, int, float | None, str]) -> list[Any]:
    """Play one deal in every seating; returns per game the outcome of every player slot."""
    levels, options, deal, base_seed, think, clock_name = args
    clock = CLOCKS[clock_name]
    rules = RuleSet.from_options(options)
    n = len(levels)
    out: list[Any] = []
    for rot in range(n):
        seat_of = [(p + rot) % n for p in range(n)]
        slot_at = {seat: p for p, seat in enumerate(seat_of)}
        players = []
        labels = [levels[slot_at[seat]] for seat in range(n)]  # what the table shows
        for seat in range(n):
            p = slot_at[seat]
            budget = Budget(think, clock=clock) if think is not None else None
            level = Level(levels[p])
            seed = base_seed * 7919 + deal * 31 + p
            players.append(make_player(level, seed=seed, budget=budget, seats=labels))
        rec = play_game(rules, players, seed=base_seed * 1_000_003 + deal, clock=clock)
        r = rec.result
        games = []
        for p in range(n):
            seat = seat_of[p]
            if r.is_draw:
                outcome = "draw"
            elif seat in r.losers:
                outcome = "durak"
            elif seat in r.winners:
                outcome = "win"
            else:
                outcome = "none"
            games.append((outcome, rec.latencies[seat]))
        out.append(games)
    return out


def run(
    levels: list[str],
    *,
    games: int,
    seed: int,
    rules: RuleSet,
    think_ms: float | None,
    jobs: int,
    clock: str = "wall",
    progress: bool = False,
    label: str = "arena",
) -> dict[str, Any]:
    """Play the match; with ``progress``, a bar counts the games on stderr (``label`` names it)."""
    n = len(levels)
    deals = max(1, math.ceil(games / n))
    think = None if think_ms is None else think_ms / 1000
    tasks = [(levels, rules.options(), d, seed, think, clock) for d in range(deals)]
    t0 = time.perf_counter()
    results = _play(tasks, jobs, n, progress=progress, label=label)
    tallies = _tally(_labels(levels), results)
    return {
        "players": [_player(t, n) for t in tallies],
        "seats": n,
        "rules": rules.name,
        "games": deals * n,
        "deals": deals,
        "seed": seed,
        "think_ms": think_ms,
        "clock": clock,
        "jobs": jobs,
        "seconds": time.perf_counter() - t0,
    }


def _labels(levels: list[str]) -> list[str]:
    """Each seat's level, numbered where a level plays more than one seat ("normal#2")."""
    labels = []
    for p, lv in enumerate(levels):
        dup = levels.count(lv) > 1
        labels.append(f"{lv}#{levels[:p].count(lv) + 1}" if dup else lv)
    return labels


def _play(
    tasks: list[Any], jobs: int, seats: int, *, progress: bool, label: str
) -> list[list[Any]]:
    """Every deal's games, in worker processes when ``jobs`` > 1."""
    results: list[list[Any]] = []
    with progress_bar(len(tasks) * seats, desc=label, unit="game", enabled=progress) as bar:
        if jobs > 1:
            ctx = multiprocessing.get_context("spawn")
            with ctx.Pool(jobs) as pool:
                for deal in pool.imap_unordered(_task, tasks):
                    results.append(deal)
                    bar.update(len(deal))
        else:
            for task in tasks:
                results.append(_task(task))
                bar.update(seats)
    return results


def _tally(labels: list[str], results: list[list[Any]]) -> list[Tally]:
    tallies = [Tally(lb) for lb in labels]
    for deal in results:
        for game in deal:
            for p, (outcome, lat) in enumerate(game):
                t = tallies[p]
                t.games += 1
                t.wins += outcome == "win"
                t.duraks += outcome == "durak"
                t.draws += outcome == "draw"
                t.latencies.extend(lat)
    return tallies


def _player(t: Tally, seats: int) -> dict[str, Any]:
    """One seat's figures: rates with their 95 % intervals, Elo, decision latencies."""
    g = t.games
    score = (g - t.duraks - t.draws / 2) / g
    baseline = 0.5 if seats == 2 else (seats - 1) / seats
    return {
        "player": t.label,
        "games": g,
        "wins": t.wins,
        "duraks": t.duraks,
        "draws": t.draws,
        "win_rate": t.wins / g,
        "win_ci95": list(wilson(t.wins, g)),
        "durak_rate": t.duraks / g,
        "durak_ci95": list(wilson(t.duraks, g)),
        "draw_rate": t.draws / g,
        "draw_ci95": list(wilson(t.draws, g)),
        "elo": elo(score, baseline, g),
        "decisions": len(t.latencies),
        "latency_ms": {
            "p50": 1000 * percentile(t.latencies, 0.50),
            "p95": 1000 * percentile(t.latencies, 0.95),
            "p99": 1000 * percentile(t.latencies, 0.99),
            "max": 1000 * max(t.latencies, default=0.0),
            "mean": 1000 * (statistics.fmean(t.latencies) if t.latencies else 0.0),
        },
    }


def format_report(rep: dict[str, Any]) -> str:
    lines = [
        f"{rep['games']} games ({rep['deals']} deals x {rep['seats']} seatings), "
        f"rules {rep['rules']}, seed {rep['seed']}, think {rep['think_ms']} ms "
        f"({rep.get('clock', 'wall')} clock), "
        f"{rep['seconds']:.1f} s",
        f"{'player':<10} {'win':>22} {'durak':>22} {'draw':>22} {'elo':>7}  "
        "latency ms p50/p95/p99/max",
    ]

    def rate(p: dict[str, Any], key: str) -> str:
        lo, hi = p[key + "_ci95"]
        return f"{100 * p[key + '_rate']:5.1f}% [{100 * lo:4.1f},{100 * hi:5.1f}]"

    for p in rep["players"]:
        lat = p["latency_ms"]
        lines.append(
            f"{p['player']:<10} {rate(p, 'win'):>22} {rate(p, 'durak'):>22} "
            f"{rate(p, 'draw'):>22} {p['elo']:+7.0f}  "
            f"{lat['p50']:.1f}/{lat['p95']:.1f}/{lat['p99']:.1f}/{lat['max']:.1f}"
        )
    return "\n".join(lines)


def parse_args(argv: Sequence[str]) -> argparse.Namespace:
    ap = parser("durak arena", __doc__)
    ap.add_argument(
        "--players",
        required=True,
        help=f"comma-separated levels, one per seat, {SEATS} of: {', '.join(LEVELS)}",
    )
    add_deal_flags(ap, games=100, seed=1, jobs=1)
    add_rules(ap)
    ap.add_argument(
        "--think-ms",
        type=float,
        default=None,
        help="Hard's budget per decision in ms (default 1000; a Hard game then takes about "
        "half a minute)",
    )
    ap.add_argument(
        "--clock",
        choices=sorted(CLOCKS),
        default="wall",
        help="what Hard's budget and the latencies measure: wall time (default) or the"
        " thread's CPU time (the same search effort however busy the machine is)",
    )
    ap.add_argument("--json", action="store_true", help="also print the report as JSON")
    add_progress_flag(ap)
    return ap.parse_args(list(argv))


def main(argv: Sequence[str]) -> int:
    a = parse_args(argv)
    levels = [x.strip().lower() for x in a.players.split(",") if x.strip()]
    bad = [x for x in levels if x not in LEVELS]
    if bad or not MIN_SEATS <= len(levels) <= MAX_SEATS:
        print(f"--players: {SEATS} of {', '.join(LEVELS)} (got {a.players!r})", file=sys.stderr)
        return 2
    rules = rules_or_none(a.rules, len(levels))
    if rules is None:
        return 2
    think = a.think_ms if a.think_ms is not None else 1000.0
    rep = run(
        levels,
        games=a.games,
        seed=a.seed,
        rules=rules,
        think_ms=think,
        jobs=a.jobs,
        clock=a.clock,
        progress=show_progress(a.progress, json_output=a.json),
    )
    print(format_report(rep))
    if a.json:
        print(json.dumps(rep))
    return 0
