"""What the terminal tools share: help text in plain words, the ``--rules`` option and the
flags of the tools that play seeded deals."""

from __future__ import annotations

import argparse
import sys

from durak_core import PRESETS, RuleSet, parse_rules

RULES_HELP = "a preset, then options, comma-separated, e.g. 'transfer,deck_size=52,jokers'"


def parser(prog: str, doc: str | None) -> argparse.ArgumentParser:
    """An argument parser whose description is ``doc`` as plain text (no reST backticks),
    its paragraphs kept."""
    return argparse.ArgumentParser(
        prog=prog,
        description=(doc or "").replace("``", ""),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )


def add_rules(ap: argparse.ArgumentParser) -> None:
    ap.add_argument("--rules", default="classic", help=RULES_HELP)


def add_deal_flags(ap: argparse.ArgumentParser, *, games: int, seed: int, jobs: int) -> None:
    """``--games``, ``--seed`` and ``--jobs``: how many seeded deals a tool plays (``durak arena``,
    the AI benchmarks), and in how many processes."""
    ap.add_argument("--games", type=int, default=games, help=f"number of games (default {games})")
    ap.add_argument(
        "--seed", type=int, default=seed, help="the deals' seed: the same seed, the same deals"
    )
    ap.add_argument(
        "--jobs",
        type=int,
        default=jobs,
        help=f"processes playing deals side by side (default {jobs})",
    )


def rules_or_none(text: str, seats: int) -> RuleSet | None:
    """The rule set ``--rules`` names for ``seats`` players, or None after one line on stderr
    saying why, with the presets and the options there are."""
    try:
        rules = parse_rules(text)
        rules.check_seats(seats)
    except ValueError as exc:
        options = ", ".join(sorted(set(PRESETS["classic"].options()) - {"name"}))
        print(
            f"--rules: {exc}; presets: {', '.join(PRESETS)}; options: {options}",
            file=sys.stderr,
        )
        return None
    return rules
