"""durak puzzles generate: the endgame puzzles of ``/durak puzzle``, made from AI self-play.

Seeded games between the AI players run to an empty talon; the exact solver keeps the bout
starts that are a forced win for the attacker with one winning first move, one per shape,
grades them by the real decisions of the solution, and the set is written as the data file the
bot ships (``durak_core/data/puzzles.json``). The same options make the same file, byte for
byte: the solver's budget is a node count, not a time. A long run checkpoints to ``--out``;
``--resume`` goes on from there. How it works: docs/ai.md, "Puzzles: how they are made".
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from durak_core.coach.puzzle_maker import MakerSettings, MakerStats, make_puzzles
from durak_core.coach.puzzles import Puzzle, PuzzleFormatError, dump_puzzles, parse_puzzles

from .progress import add_progress_flag, progress_bar, show_progress

EXIT_USAGE = 2
DEFAULT_OUT = Path("durak_core/data/puzzles.json")
#: Seconds between the checkpoints a long run writes to ``--out`` (``--resume`` reads one).
CHECKPOINT_SECONDS = 60.0


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="durak puzzles",
        description="durak puzzles generate: make endgame puzzles from AI self-play and write"
        " the data file of /durak puzzle.",
    )
    parser.add_argument("action", choices=["generate"], help="what to do: generate the set")
    defaults = MakerSettings(seed=0, count=0)
    parser.add_argument("--seed", type=int, default=1, help="the seed of the whole set (1)")
    parser.add_argument("--count", type=int, default=600, help="puzzles to make (600)")
    parser.add_argument(
        "--max-cards",
        type=int,
        default=defaults.max_cards,
        help=f"most cards in both hands together ({defaults.max_cards})",
    )
    parser.add_argument(
        "--node-limit",
        type=int,
        default=defaults.node_limit,
        help=f"solver nodes per candidate; more is skipped ({defaults.node_limit})",
    )
    parser.add_argument(
        "--out", type=Path, default=DEFAULT_OUT, help=f"the data file to write ({DEFAULT_OUT})"
    )
    parser.add_argument(
        "--resume",
        action="store_true",
        help="go on from the checkpoint a stopped run of the same options left in --out",
    )
    add_progress_flag(parser)
    return parser


def file_meta(settings: MakerSettings) -> dict[str, object]:
    return {
        "seed": settings.seed,
        "count": settings.count,
        "min_cards": settings.min_cards,
        "max_cards": settings.max_cards,
        "node_limit": settings.node_limit,
        "grading": "real decisions and traps on the solution (docs/ai.md)",
        "rules": "classic",
        # canonical, not as typed: the same settings write the same file, byte for byte
        "command": f"durak puzzles generate --seed {settings.seed} --count {settings.count}"
        f" --max-cards {settings.max_cards} --node-limit {settings.node_limit}",
    }


def read_checkpoint(out: Path, settings: MakerSettings) -> tuple[list[Puzzle], int]:
    """The puzzles and games of a stopped run of ``settings`` in ``out``: nothing if it holds
    none, or the finished set or another run's (then the run starts over)."""
    try:
        text = out.read_text("utf-8")
        meta = json.loads(text)["meta"]
        if meta.get("command") != file_meta(settings)["command"] or "games" not in meta:
            return [], 0
        return list(parse_puzzles(text)), int(meta["games"])
    except (OSError, ValueError, KeyError, TypeError, PuzzleFormatError):
        return [], 0


def main(argv: Sequence[str]) -> int:
    args = list(argv)
    opts = _parser().parse_args(args)  # a bad or missing action: argparse's usage, exit 2
    if opts.count < 1 or opts.max_cards < 2 or opts.node_limit < 1:
        print("--count, --max-cards and --node-limit must be positive", file=sys.stderr)
        return EXIT_USAGE
    if not opts.out.parent.is_dir():
        print(f"no folder {opts.out.parent} to write {opts.out.name} in", file=sys.stderr)
        return EXIT_USAGE
    settings = MakerSettings(
        seed=opts.seed, count=opts.count, max_cards=opts.max_cards, node_limit=opts.node_limit
    )
    bar = progress_bar(
        opts.count, desc="puzzles", unit="puzzle", enabled=show_progress(opts.progress)
    )
    started = time.monotonic()
    resume, games = read_checkpoint(opts.out, settings) if opts.resume else ([], 0)
    last = [started]

    def found(n: int, stats: MakerStats) -> None:
        bar.update(n - bar.n)

    def checkpoint(puzzles: list[Puzzle], stats: MakerStats) -> None:
        if puzzles and time.monotonic() - last[0] >= CHECKPOINT_SECONDS:
            last[0] = time.monotonic()
            opts.out.write_text(dump_puzzles(puzzles, file_meta(settings) | {"games": stats.games}))

    with bar:
        puzzles, stats = make_puzzles(settings, found, resume, games, checkpoint)
    text = dump_puzzles(puzzles, file_meta(settings))
    parse_puzzles(text)  # what the bot will load: refuse to write a file it would refuse
    opts.out.write_text(text, encoding="utf-8")
    grades = {g: sum(1 for p in puzzles if p.grade == g) for g in ("easy", "medium", "hard")}
    print(
        f"{len(puzzles)} puzzles ({', '.join(f'{n} {g}' for g, n in grades.items())}) from "
        f"{stats.games} games, {stats.candidates} positions: {stats.not_won} not a forced win, "
        f"{stats.not_unique} with more than one winning first move, {stats.too_short} too "
        f"short, {stats.over_budget} over the budget, {stats.same_shape} of a shape met "
        f"before; {time.monotonic() - started:.0f} s -> {opts.out}"
    )
    return 0
