"""Command-line tools: ``durak arena`` (AI strength matches) and ``durak play`` (a game against
AIs in the terminal). Run as ``python -m bot.cli arena ...`` or the ``durak`` script."""

from __future__ import annotations

import sys
from collections.abc import Sequence

USAGE = "usage: durak {arena,play} [options]   (durak arena --help, durak play --help)"


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if not args or args[0] in ("-h", "--help"):
        print(USAGE)
        return 0 if args else 2
    command, rest = args[0], args[1:]
    if command == "arena":
        from .arena import main as arena_main

        return arena_main(rest)
    if command == "play":
        from .play import main as play_main

        return play_main(rest)
    print(f"unknown command {command!r}\n{USAGE}", file=sys.stderr)
    return 2
