"""How good and how fast a game review is (issue #34; docs/ai.md, "Reading a review").

Usage: python -m benchmarks.review_quality [--games G] [--factor F] [--seats N] [--seed S]
                                          [--json PATH]

Plays G classic games (seat 0 Easy, the other seats Normal: Easy's rules of thumb make the
mistakes a review is for), then reviews seat 0's decisions twice: at the default budget
(:class:`~durak_core.coach.review.ReviewBudget`) and at F times that budget. It reports:

* ``seconds_per_decision`` and ``seconds_for_40_decisions`` at the default budget (the budget
  is a 40-decision game in at most 30 s on the reference machine, one core);
* ``agreement``: of the decisions the default review flags as mistakes or blunders (10+ points),
  the share the F-times review flags too (the target is 0.80 with F = 10); in proven endgames
  both are exact and always agree, so ``agreement_midgame`` counts estimates only;
* ``estimate_share``: the share of flagged decisions that rest on an estimate (not both
  values proven; issue #48), and ``estimate_same_grade``: the share of those the F-times
  review grades the same (the goal is 1.0: no grade changes);
* the flagged counts of both reviews.

``--factor 1`` only times the default review. JSON on the last line (and in ``--json``).
"""

from __future__ import annotations

import argparse
import json
import platform
import time
from pathlib import Path

import durak_core
from bot.cli.progress import add_progress_flag, progress_bar, show_progress
from durak_core import RuleSet, new_game
from durak_core.ai import Level, make_player
from durak_core.coach.review import ReviewBudget
from durak_core.coach.review_game import GameReview, decisions, review_game
from durak_core.events import Event, visible_to
from durak_core.verify import GameLog

FLAGGED = ("mistake", "blunder")


def play(seed: int, seats: int) -> GameLog:
    s = new_game(RuleSet(), seats, seed=seed)
    players = [make_player(Level.EASY if t == 0 else Level.NORMAL, seed + t) for t in range(seats)]
    seen: list[list[Event]] = [[] for _ in range(seats)]
    while not s.finished:
        seat = next(t for t in range(seats) if s.legal_actions(t))
        action = players[seat].choose(s.view(seat), seen[seat])
        s, events = s.apply(seat, action)
        for t in range(seats):
            seen[t].extend(visible_to(events, t))
    return GameLog.of(s, seed=seed)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--games", type=int, default=8)
    p.add_argument("--factor", type=int, default=10)
    p.add_argument("--seats", type=int, default=2)
    p.add_argument("--seed", type=int, default=100)
    p.add_argument("--json", type=Path, default=None)
    add_progress_flag(p)
    args = p.parse_args()
    base = ReviewBudget()
    big = base.scaled(args.factor)
    bar = progress_bar(args.games, desc="games", unit="game", enabled=show_progress(args.progress))
    default_time = 0.0
    count = 0
    flagged = 0
    agreed = 0
    flagged_mid = 0
    agreed_mid = 0
    same_grade = 0
    big_flagged = 0
    for g in range(args.games):
        found = decisions(play(args.seed + g, args.seats), (), 0)
        start = time.perf_counter()
        small = review_game(found, 0, base, seed=g)
        default_time += time.perf_counter() - start
        count += len(found)
        if args.factor > 1:
            large: GameReview = review_game(found, 0, big, seed=g + 10_000)
            big_flagged += sum(r.grade in FLAGGED for r in large.reviews)
            for a, b in zip(small.reviews, large.reviews, strict=True):
                if a.grade not in FLAGGED:
                    continue
                flagged += 1
                agreed += b.grade in FLAGGED
                if not a.exact:
                    flagged_mid += 1
                    agreed_mid += b.grade in FLAGGED
                    same_grade += b.grade == a.grade
        else:
            flagged += sum(r.grade in FLAGGED for r in small.reviews)
        bar.update()
    bar.close()
    per = default_time / max(1, count)
    out: dict[str, object] = {
        "benchmark": "review_quality",
        "compiled": durak_core.COMPILED,
        "python": platform.python_version(),
        "games": args.games,
        "seats": args.seats,
        "decisions": count,
        "budget": {"deals": base.deals, "solver_nodes": base.solver_nodes},
        "factor": args.factor,
        "seconds_per_decision": round(per, 4),
        "seconds_for_40_decisions": round(per * 40, 2),
        "flagged_default": flagged,
    }
    if args.factor > 1:
        out |= {
            "flagged_scaled": big_flagged,
            "agreement": round(agreed / flagged, 3) if flagged else None,
            "agreement_midgame": round(agreed_mid / flagged_mid, 3) if flagged_mid else None,
            "flagged_midgame": flagged_mid,
            "estimate_share": round(flagged_mid / flagged, 3) if flagged else None,
            "estimate_same_grade": round(same_grade / flagged_mid, 3) if flagged_mid else None,
        }
    text = json.dumps(out)
    if args.json is not None:
        args.json.write_text(text + "\n")
    print(text)


if __name__ == "__main__":
    main()
