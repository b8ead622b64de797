"""Command-line tools, as the ``durak`` script or ``python -m bot.cli``: ``durak COMMAND
--help`` says more about each."""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence

#: Each command, with its one line for ``durak --help``.
COMMANDS = {
    "play": "a game against AI players in the terminal",
    "arena": "AI against AI on mirrored deals: win rates with intervals, decision times",
    "backup": "a consistent copy of the bot's SQLite database, safe while the bot runs",
    "puzzles": "make the endgame puzzles of /durak puzzle from AI self-play (generate)",
}


def usage() -> str:
    width = max(len(name) for name in COMMANDS)
    lines = ["usage: durak COMMAND [options]", "", "commands:"]
    lines += [f"  {name:<{width}}  {line}" for name, line in COMMANDS.items()]
    lines += ["", "durak COMMAND --help shows the options of one command."]
    return "\n".join(lines)


def _command(name: str) -> Callable[[Sequence[str]], int]:
    if name == "arena":
        from .arena import main as arena_main

        return arena_main
    if name == "play":
        from .play import main as play_main

        return play_main
    if name == "puzzles":
        from .generate_puzzles import main as puzzles_main

        return puzzles_main
    from .backup import main as backup_main

    return backup_main


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if not args or args[0] in ("-h", "--help"):
        print(usage())
        return 0 if args else 2
    command, rest = args[0], args[1:]
    if command not in COMMANDS:
        print(f"unknown command {command!r}\n\n{usage()}", file=sys.stderr)
        return 2
    return _command(command)(rest)
