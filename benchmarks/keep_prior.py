"""Where a Normal seat's hidden cards lie: measures ``durak_core.ai.keep.KEEP``.

Plays Normal against Normal (classic, two seats) and, at every decision of seat 0 with the
talon not empty and a choice to make, looks at each card seat 0 cannot place (and has no
inference about, :mod:`durak_core.ai.memory`): is it in seat 1's hand or in the talon? Per
phase of the talon and per card value it prints found / expected under a uniform deal.

    python benchmarks/keep_prior.py [--games 1500] [--seed 100000] [--jobs 2]

Prints the table and, on the last line, JSON (the rows of ``KEEP``).
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import sys
from collections import Counter

from bot.cli.options import add_deal_flags
from bot.cli.progress import add_progress_flag, progress_bar, show_progress
from durak_core import RuleSet, new_game
from durak_core.ai import Level, make_player
from durak_core.ai.keep import talon_phase
from durak_core.ai.memory import remember
from durak_core.ai.schedule import next_actor
from durak_core.events import Event, visible_to

Tally = tuple[Counter[tuple[int, int]], Counter[tuple[int, int]]]


def _game(seed: int) -> Tally:
    s = new_game(RuleSet(), 2, seed=seed)
    full = len(s.talon)
    players = [make_player(Level.NORMAL, seed=seed), make_player(Level.NORMAL, seed=seed + 1)]
    histories: list[list[Event]] = [[], []]
    found: Counter[tuple[int, int]] = Counter()
    expected: Counter[tuple[int, int]] = Counter()
    while not s.finished:
        seat = next_actor(s)
        assert seat is not None
        view = s.view(seat)
        mem = remember(view, histories[0]) if seat == 0 and s.talon else None
        if mem is not None and mem.hidden and len(view.legal_actions) > 1:
            slots = view.hand_sizes[1] - mem.known[1].bit_count()
            share = slots / mem.hidden.bit_count()
            phase = talon_phase(len(s.talon), full)
            m = mem.hidden & ~mem.lacks[1] & ~mem.passed_over[1]
            while m:
                low = m & -m
                c = low.bit_length() - 1
                m ^= low
                key = (phase, mem.ct.value[c])
                found[key] += s.hands[1] >> c & 1
                expected[key] += share  # type: ignore[assignment]
        action = players[seat].choose(view, tuple(histories[seat]))
        s, events = s.apply(seat, action)
        for t in (0, 1):
            histories[t].extend(visible_to(events, t))
    return found, expected


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    add_deal_flags(ap, games=1500, seed=100_000, jobs=2)
    add_progress_flag(ap)
    args = ap.parse_args(argv)
    found: Counter[tuple[int, int]] = Counter()
    expected: Counter[tuple[int, int]] = Counter()
    seeds = [args.seed + i for i in range(args.games)]
    bar = progress_bar(len(seeds), desc="games", unit="game", enabled=show_progress(args.progress))
    with multiprocessing.Pool(args.jobs) as pool, bar:
        for f, e in pool.imap_unordered(_game, seeds, chunksize=8):
            found.update(f)
            expected.update(e)
            bar.update()
    values = sorted({v for _, v in expected})
    plain, strong = values[:9], values[9:]  # classic: nine plain ranks, then the trumps
    rows = []
    for phase in range(3):
        row = []
        for group in (plain, strong):
            row.append([round(found[phase, v] / expected[phase, v], 2) for v in group])
        rows.append(row)
        print(f"phase {phase}: plain {row[0]}  strong {row[1]}")
    print(json.dumps({"games": args.games, "seed": args.seed, "keep": rows}))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
