"""Progress bars for long runs: ``durak arena`` and the long benchmarks.

A bar (tqdm: count, rate, ETA) goes to stderr, and only when someone watches: stdout and stderr
both terminals and no JSON asked for. Piped or redirected output, and a JSON last line, stay as
they were. ``--progress`` / ``--no-progress`` decide instead of that guess.
"""

from __future__ import annotations

import argparse
import sys
from typing import NoReturn, TextIO, TypeAlias

from tqdm import tqdm

__all__ = ["Bar", "add_progress_flag", "progress_bar", "say", "show_progress"]

# A bar told its progress (``update``), not one wrapping an iterable. (A string: tqdm is not
# subscriptable at run time; types-tqdm makes it generic for the type checker.)
Bar: TypeAlias = "tqdm[NoReturn]"


def add_progress_flag(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--progress",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="a progress bar with an ETA on stderr (default: only when stdout and stderr are a"
        " terminal and no JSON is asked for)",
    )


def _is_terminal(stream: TextIO | None) -> bool:
    try:
        return stream is not None and stream.isatty()
    except (AttributeError, ValueError):  # a replaced or closed stream
        return False


def show_progress(flag: bool | None, *, json_output: bool = False) -> bool:
    """Whether to draw a bar: ``flag`` when given (``--progress``/``--no-progress``), else
    only for a person at a terminal (stdout and stderr both terminals) who asked for no JSON."""
    if flag is not None:
        return flag
    return not json_output and _is_terminal(sys.stdout) and _is_terminal(sys.stderr)


def progress_bar(total: int, *, desc: str, unit: str, enabled: bool) -> Bar:
    """A bar on stderr (read when called, so a test's capture sees it); a disabled bar writes
    nothing at all."""
    return tqdm(
        total=total,
        desc=desc,
        unit=unit,
        disable=not enabled,
        file=sys.stderr,
        dynamic_ncols=True,
        leave=False,  # the report that follows is what stays on the screen
    )


def say(line: str, file: TextIO | None = None) -> None:
    """Print a line (to stdout by default, flushed) without tearing a bar being drawn."""
    out = sys.stdout if file is None else file
    tqdm.write(line, file=out)
    out.flush()
