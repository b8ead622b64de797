"""``durak arena`` shows a progress bar with an ETA to a person at a terminal, on stderr, and
nothing else changes: piped, or with ``--json``, the output is exactly what it was."""

from __future__ import annotations

import io
import json
import subprocess
import sys

import pytest

from bot.cli import main
from bot.cli.progress import show_progress

ARENA = ["arena", "--players", "easy,random", "--games", "4", "--seed", "2"]


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def drawn(err: str) -> bool:
    """tqdm's marks: a percentage bar, its counter and a rate in games per second."""
    return "%|" in err and "/4 [" in err and "game/s" in err


@pytest.mark.slow
def test_piped_arena_prints_no_bar_and_keeps_json_last() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "bot.cli", *ARENA, "--json"],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    assert proc.stderr == ""  # not a bar, not a carriage return
    rep = json.loads(proc.stdout.strip().splitlines()[-1])
    assert rep["games"] == 4


def test_forced_bar_goes_to_stderr_and_json_stays_last(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([*ARENA, "--json", "--progress"]) == 0
    out, err = capsys.readouterr()
    assert drawn(err) and "arena:" in err, err
    assert "%|" not in out
    assert json.loads(out.strip().splitlines()[-1])["games"] == 4


def test_no_bar_when_captured_unless_asked(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(ARENA) == 0  # capsys: stdout and stderr are not terminals
    out, err = capsys.readouterr()
    assert err == "" and out.startswith("4 games")


def test_the_bar_is_for_a_person_at_a_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "stdout", Terminal())
    monkeypatch.setattr(sys, "stderr", Terminal())
    assert show_progress(None)
    assert not show_progress(None, json_output=True)  # --json: output for a program
    assert not show_progress(False)  # --no-progress
    monkeypatch.setattr(sys, "stdout", io.StringIO())  # `durak arena | tee log`
    assert not show_progress(None)
    assert show_progress(True, json_output=True)  # --progress wins


def test_a_terminal_gets_the_bar_by_default(monkeypatch: pytest.MonkeyPatch) -> None:
    out, err = Terminal(), Terminal()
    monkeypatch.setattr(sys, "stdout", out)
    monkeypatch.setattr(sys, "stderr", err)
    assert main(ARENA) == 0
    assert drawn(err.getvalue()), err.getvalue()
    assert out.getvalue().startswith("4 games")
