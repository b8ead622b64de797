"""The engine's instruction count (benchmarks/engine_instructions.py): the same work in every
build, so a count compares builds; and without valgrind it says what is missing."""

from __future__ import annotations

import shutil
import sys

import pytest

from benchmarks.engine_instructions import main, play


@pytest.mark.parametrize("path", ["public", "fast"])
def test_the_games_counted_are_the_same_games_every_time(path: str) -> None:
    # The count is a difference of two runs: both must play the same seeded games.
    assert play(path, 2, 3) == play(path, 2, 3) > 3 * 20


def test_the_public_and_fast_paths_play_the_same_games() -> None:
    assert play("public", 4, 2) == play("fast", 4, 2)


def test_without_valgrind_it_exits_2_saying_what_to_install(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(shutil, "which", lambda name: None)
    monkeypatch.setattr(sys, "argv", ["engine_instructions"])
    assert main() == 2
    assert "valgrind" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("args", "named"),
    [
        (["--games", "5", "--warm", "5"], "--warm"),
        (["--seats", "2,x"], "--seats"),
        (["--seats", "7"], "--seats"),
    ],
)
def test_bad_arguments_are_refused_before_anything_runs(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], args: list[str], named: str
) -> None:
    monkeypatch.setattr(shutil, "which", lambda name: "/usr/bin/valgrind")
    monkeypatch.setattr(sys, "argv", ["engine_instructions", *args])
    with pytest.raises(SystemExit) as exited:
        main()
    assert exited.value.code == 2
    assert named in capsys.readouterr().err
