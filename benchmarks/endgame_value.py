"""Fits :data:`durak_core.ai.endgame_value.CLASSIC`, the value of a two-seat endgame at its start.

Plays ``--games`` classic two-seat games with the playout policy (the Normal heuristics for
both seats, as in Hard's playouts; a random legal action with probability ``--explore`` for a
wider spread of positions) until the talon runs out. Each position where the endgame starts
(two seats, empty talon, a bout to lead) is proven by the exact solver (positions it cannot
prove within ``--nodes`` are left out) and scored as well by the heuristic playout to the end.
A logistic model of :func:`~durak_core.ai.endgame_value.features` is fitted by Newton's method
(L2 penalty ½‖w‖², the intercept unpenalised; a draw counts as half a win and half a loss) on
the first 70% of the positions and checked on the rest, then fitted on all of them.

    python benchmarks/endgame_value.py [--games 6000] [--seed 0] [--jobs 2]

Prints, for the held-out 30%, the squared error and the agreement with the exact result of the
heuristic playout, of the shipped model and of the new fit; on the last line, JSON with the
new weights.
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import random
import sys
from collections.abc import Sequence
from functools import partial

from bot.cli.options import add_deal_flags
from bot.cli.progress import add_progress_flag, progress_bar, show_progress
from durak_core import RuleSet, new_game
from durak_core.ai.cardinfo import card_table
from durak_core.ai.endgame import EndgameSolver, OutOfBudget
from durak_core.ai.endgame_value import CLASSIC, EndgameModel, features
from durak_core.ai.heuristics import smart_choice
from durak_core.ai.playout import ExactBeat, endgame_start, playout, reward
from durak_core.ai.schedule import next_turn
from durak_core.cards import Suit
from durak_core.fast import apply_unchecked

#: One position: its features, the exact score (1, ½, 0) and the heuristic playout's score,
#: all from the attacker's side, and the shipped model's value there.
Sample = tuple[list[float], float, float, float]


def position(seed: int, explore: float, nodes: int) -> Sample | None:
    rng = random.Random(seed)
    s = new_game(RuleSet(), 2, seed=rng.getrandbits(64))
    ct = card_table(s.rules, Suit(s.trump_suit))
    p_beat = ExactBeat(0, ct.beaters)
    while not s.finished and s.talon:
        turn = next_turn(s)
        assert turn is not None
        seat, legal = turn
        if len(legal) == 1:
            action = legal[0]
        elif rng.random() < explore:
            action = rng.choice(legal)
        else:
            p_beat.hand = s.hands[s.defender]
            hand = s.hands[seat]
            talon = len(s.talon)
            action = smart_choice(legal, hand, s.att, s.dfn, s.taken, talon, ct, p_beat, 1)
        apply_unchecked(s, seat, action)
    if not endgame_start(s):
        return None  # the game ended with the talon
    me = s.attacker
    try:
        value, _, exact = EndgameSolver(me, ct, None, nodes).prove(s.copy())
    except OutOfBudget:
        return None
    if not exact:
        return None
    heuristic = reward(playout(s.copy(), ct), me)
    return features(s, ct), (value + 1) / 2, heuristic, CLASSIC.value(s, me, ct)


def fit(xs: Sequence[list[float]], ys: Sequence[float], rounds: int = 30) -> EndgameModel:
    """Penalised logistic regression with soft targets ``ys`` in [0, 1], by Newton's method."""
    k = len(xs[0]) + 1  # the intercept last
    rows = [[*x, 1.0] for x in xs]
    w = [0.0] * k
    for _ in range(rounds):
        grad = [w[j] if j < k - 1 else 0.0 for j in range(k)]
        hess = [[float(i == j and i < k - 1) for j in range(k)] for i in range(k)]
        for row, y in zip(rows, ys, strict=True):
            z = sum(wj * xj for wj, xj in zip(w, row, strict=True))
            p = 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))
            g = p - y
            h = p * (1.0 - p)
            for i in range(k):
                grad[i] += g * row[i]
                hi = h * row[i]
                hrow = hess[i]
                for j in range(k):
                    hrow[j] += hi * row[j]
        step = _solve(hess, grad)
        w = [wj - sj for wj, sj in zip(w, step, strict=True)]
        if max(abs(x) for x in step) < 1e-9:
            break
    return EndgameModel(tuple(round(x, 5) for x in w[:-1]), round(w[-1], 5))


def _solve(a: list[list[float]], b: list[float]) -> list[float]:
    """``a⁻¹ b`` by Gaussian elimination with partial pivoting (``a`` is positive definite)."""
    n = len(b)
    m = [[*row, rhs] for row, rhs in zip(a, b, strict=True)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(m[r][col]))
        m[col], m[pivot] = m[pivot], m[col]
        for r in range(col + 1, n):
            f = m[r][col] / m[col][col]
            for c in range(col, n + 1):
                m[r][c] -= f * m[col][c]
    x = [0.0] * n
    for r in range(n - 1, -1, -1):
        x[r] = (m[r][n] - sum(m[r][c] * x[c] for c in range(r + 1, n))) / m[r][r]
    return x


def quality(estimates: Sequence[float], exact: Sequence[float]) -> dict[str, float]:
    """Mean squared error against the exact score, and the share on the right side of ½
    (a draw: within 0.25 of it)."""
    n = len(exact)
    mse = sum((e - y) ** 2 for e, y in zip(estimates, exact, strict=True)) / n
    right = sum(
        abs(e - 0.5) < 0.25 if y == 0.5 else (e > 0.5) == (y > 0.5)
        for e, y in zip(estimates, exact, strict=True)
    )
    return {"mse": round(mse, 4), "agreement": round(right / n, 4)}


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    add_deal_flags(parser, games=6000, seed=0, jobs=2)
    parser.add_argument("--explore", type=float, default=0.15)
    parser.add_argument("--nodes", type=int, default=400_000)
    add_progress_flag(parser)
    args = parser.parse_args(argv)
    work = partial(position, explore=args.explore, nodes=args.nodes)
    seeds = range(args.seed, args.seed + args.games)
    bar = progress_bar(args.games, desc="games", unit="game", enabled=show_progress(args.progress))
    samples: list[Sample] = []
    with multiprocessing.Pool(args.jobs) as pool, bar:
        for sample in pool.imap(work, seeds, chunksize=8):  # in seed order: a stable split
            bar.update()
            if sample is not None:
                samples.append(sample)
    xs = [x for x, _, _, _ in samples]
    ys = [y for _, y, _, _ in samples]
    cut = len(samples) * 7 // 10
    held = samples[cut:]
    new = fit(xs[:cut], ys[:cut])
    exact = [y for _, y, _, _ in held]
    report = {
        "positions": len(samples),
        "held_out": len(held),
        "heuristic_playout": quality([h for _, _, h, _ in held], exact),
        "shipped_model": quality([v for _, _, _, v in held], exact),
        "new_fit": quality([new.attacker_score(x) for x, _, _, _ in held], exact),
    }
    for name in ("heuristic_playout", "shipped_model", "new_fit"):
        print(f"{name:18} {report[name]}", file=sys.stderr)
    final = fit(xs, ys)
    print(json.dumps({**report, "weights": final.weights, "intercept": final.intercept}))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
