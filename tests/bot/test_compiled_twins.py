"""The bot names the modules edited since they were compiled (their old code still runs)."""

from __future__ import annotations

import os
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

from bot.compiled_twins import stale_twins


def _file(path: Path, mtime: float) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("")
    os.utime(path, (mtime, mtime))


def test_only_sources_newer_than_their_compiled_twin_are_stale(tmp_path: Path) -> None:
    suffix = EXTENSION_SUFFIXES[0]
    _file(tmp_path / "bot/ui/hand_view.py", 200.0)  # edited after its build
    _file(tmp_path / f"bot/ui/hand_view{suffix}", 100.0)
    _file(tmp_path / "bot/ui/table_embed.py", 100.0)  # built after its last edit
    _file(tmp_path / f"bot/ui/table_embed{suffix}", 200.0)
    _file(tmp_path / "bot/ui/lobby.py", 300.0)  # never compiled
    _file(tmp_path / "durak_core/views.py", 300.0)
    _file(tmp_path / f"durak_core/views{suffix}", 100.0)
    assert stale_twins(tmp_path) == ["durak_core/views.py", "bot/ui/hand_view.py"]
    assert stale_twins(tmp_path, ("bot",)) == ["bot/ui/hand_view.py"]
