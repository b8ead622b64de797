"""How well Hard's deals guess the other hand: a quick measure of any inference about hidden
cards, in seconds instead of an arena's hours (issue #34).

Plays Hard (a fixed ``--iterations`` per decision) against Normal, classic rules, two seats.
At every ``--every``-th decision of Hard with the talon not empty and a choice to make, it
draws ``--deals`` determinizations from Hard's own sampler (``HardPlayer._deals``: the lack,
passed-over and ``KEEP`` weights; row ``deals``) and as many uniform ones (row ``uniform``:
only what the seat knows for certain). For every card Hard cannot place they estimate the
chance that it is in Normal's hand; against the true hand that gives a Brier score and a log
loss per card (lower is better; a hand known exactly scores 0), and the Brier score of the
trump-like cards alone (``CardTable.strong``), the cards that decide most games. With
``--tries K`` the deals of row ``deals`` are also weighted by the history fit
(``benchmarks/history_fit.py``, ``K`` random pasts per deal), once for each factor in
``--mismatch``.

    python benchmarks/inference_quality.py [--games 20] [--deals 300] [--tries 8]
        [--mismatch 1,0.5,0.3,0.15,0.05] [--every 3] [--iterations 30] [--jobs 2] [--seed 1]

Prints one line per weighting and JSON on the last line.
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import platform
import random
import sys
import time
from typing import Any

from benchmarks.history_fit import HistoryFit
from bot.cli.options import add_deal_flags
from durak_core import RuleSet, new_game
from durak_core.ai import Budget, Level, make_player
from durak_core.ai.hard import HardPlayer
from durak_core.ai.memory import remember
from durak_core.ai.schedule import next_actor
from durak_core.bits import set_bits
from durak_core.events import Event, visible_to

#: Probabilities are clipped to [CLIP, 1 - CLIP] for the log loss.
CLIP = 0.01
#: Per weighting: [Brier sum, log-loss sum, cards, effective-deal sum, decisions, Brier sum
#: over the trumps, trumps].
Sums = dict[str, list[float]]


def _score(sums: Sums, key: str, hands: list[int], weights: list[float], hidden: list[int],
           truth: int, trumps: int) -> None:  # fmt: skip
    total = sum(weights)
    if total <= 0.0:  # no deal fits: the unweighted deals
        weights = [1.0] * len(hands)
        total = float(len(hands))
    row = sums.setdefault(key, [0.0] * 7)
    for c in hidden:
        p = sum(w for h, w in zip(hands, weights, strict=True) if h >> c & 1) / total
        y = truth >> c & 1
        row[0] += (p - y) ** 2
        if trumps >> c & 1:
            row[5] += (p - y) ** 2
            row[6] += 1
        q = min(max(p, CLIP), 1.0 - CLIP)
        row[1] -= math.log(q if y else 1.0 - q)
    row[2] += len(hidden)
    row[3] += total * total / sum(w * w for w in weights)
    row[4] += 1


def _game(job: tuple[int, argparse.Namespace]) -> Sums:
    seed, args = job
    rules = RuleSet()
    hard = HardPlayer(seed, Budget(None, iterations=args.iterations), ("hard", "normal"))
    players = [hard, make_player(Level.NORMAL, seed)]
    s = new_game(rules, 2, seed=seed)
    history: list[list[Event]] = [[], []]
    sums: Sums = {}
    k = 0
    while not s.finished:
        seat = next_actor(s)
        assert seat is not None
        view = s.view(seat)
        if seat == 0 and s.talon and len(view.legal_actions) > 1 and history[0]:
            k += 1
            if k % args.every == 0:
                rng = random.Random(f"{seed}:{s.version}")
                mem = remember(view, history[0])
                deals = hard._deals(view, mem, rng, weighted=True)
                states = [deals.next() for _ in range(args.deals)]
                hands = [d.hands[1] for d in states]
                hidden = set_bits(mem.hidden)
                truth = s.hands[1]
                _score(sums, "deals", hands, [1.0] * len(hands), hidden, truth, mem.ct.strong)
                uniform = hard._deals(view, mem, rng, weighted=False)
                plain = [uniform.next().hands[1] for _ in range(args.deals)]
                _score(sums, "uniform", plain, [1.0] * len(plain), hidden, truth, mem.ct.strong)
                if args.tries:
                    fit = HistoryFit(view, history[0], normal=1 << 1)
                    if fit.usable:
                        for f in args.mismatch:
                            # The same random pasts for every factor (one generator per deal).
                            ws = [
                                fit.weight(
                                    d, random.Random(f"{seed}:{s.version}:{i}"), args.tries, f
                                )
                                for i, d in enumerate(states)
                            ]
                            _score(sums, f"fit {f:g}", hands, ws, hidden, truth, mem.ct.strong)
        action = players[seat].choose(view, tuple(history[seat]))
        s, events = s.apply(seat, action)
        for t in (0, 1):
            history[t].extend(visible_to(events, t))
    return sums


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    add_deal_flags(ap, games=20, seed=1, jobs=2)
    ap.add_argument("--deals", type=int, default=300)
    ap.add_argument("--tries", type=int, default=8)
    ap.add_argument("--mismatch", default="1,0.5,0.3,0.15,0.05")
    ap.add_argument("--every", type=int, default=3)
    ap.add_argument("--iterations", type=int, default=30)
    args = ap.parse_args(argv)
    args.mismatch = [float(x) for x in args.mismatch.split(",") if x]
    start = time.time()
    jobs = [(args.seed + g, args) for g in range(args.games)]
    with multiprocessing.Pool(args.jobs) as pool:
        parts = pool.map(_game, jobs)
    sums: Sums = {}
    for part in parts:
        for key, values in part.items():
            acc = sums.setdefault(key, [0.0] * len(values))
            for i, x in enumerate(values):
                acc[i] += x
    rows: list[dict[str, Any]] = []
    for key, (brier, loss, cards, ess, decisions, brier_t, trumps) in sums.items():
        row = {
            "weighting": key,
            "brier": brier / cards,
            "brier_trumps": brier_t / max(trumps, 1),
            "log_loss": loss / cards,
            "effective_deals": ess / decisions,
            "decisions": int(decisions),
        }
        rows.append(row)
        print(
            f"{key:10s} Brier {row['brier']:.4f} (trumps {row['brier_trumps']:.4f})  "
            f"log loss {row['log_loss']:.4f}  "
            f"effective deals {row['effective_deals']:.1f} of {args.deals}  "
            f"({row['decisions']} decisions)"
        )
    out = {
        "benchmark": "inference_quality",
        "games": args.games,
        "deals": args.deals,
        "tries": args.tries,
        "iterations": args.iterations,
        "seed": args.seed,
        "rows": rows,
        "seconds": round(time.time() - start, 1),
        "machine": platform.machine(),
        "python": platform.python_version(),
    }
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
