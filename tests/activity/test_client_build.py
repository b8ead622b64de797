"""The install builds the Activity's client where npm exists (.build/activity_client.py, called
by the build backend), and never fails because of it: without npm, or when npm fails, it warns
(pip shows a build hook's warnings) and the install goes on."""

from __future__ import annotations

import importlib.util
import os
import stat
from pathlib import Path
from types import ModuleType

import pytest

from bot.ui.help_text import BUILD_COMMAND

_MODULE = Path(__file__).resolve().parents[2] / ".build" / "activity_client.py"


def build_module() -> ModuleType:
    spec = importlib.util.spec_from_file_location("activity_client", _MODULE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def checkout(tmp_path: Path) -> Path:
    """A source checkout's ``activity/`` with its lock file."""
    (tmp_path / "activity").mkdir()
    (tmp_path / "activity" / "package-lock.json").write_text("{}", encoding="utf-8")
    return tmp_path


def fake_npm(bin_dir: Path, body: str) -> None:
    """An ``npm`` on PATH that logs its arguments beside it, then runs ``body`` (sh)."""
    bin_dir.mkdir()
    npm = bin_dir / "npm"
    npm.write_text(f'#!/bin/sh\necho "$*" >> "{bin_dir}/calls"\n{body}\n', encoding="utf-8")
    npm.chmod(npm.stat().st_mode | stat.S_IXUSR)


def test_the_build_and_the_bot_name_one_command() -> None:
    assert build_module().BY_HAND == BUILD_COMMAND


def test_without_npm_the_install_goes_on_and_says_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = checkout(tmp_path)
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    monkeypatch.delenv("DURAK_SKIP_ACTIVITY_BUILD", raising=False)
    with pytest.warns(UserWarning, match="npm was not found") as said:
        assert build_module().build_client(root) is False
    assert BUILD_COMMAND in str(said[0].message)
    assert not (root / "activity" / "dist").exists()


def test_a_failing_npm_is_reported_not_fatal(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = checkout(tmp_path)
    fake_npm(tmp_path / "bin", 'echo "npm ERR! lock file out of date" >&2; exit 1')
    monkeypatch.setenv("PATH", str(tmp_path / "bin") + os.pathsep + "/usr/bin:/bin")
    monkeypatch.delenv("DURAK_SKIP_ACTIVITY_BUILD", raising=False)
    with pytest.warns(UserWarning, match="exited 1") as said:
        assert build_module().build_client(root) is False
    assert "lock file out of date" in str(said[0].message)
    # it stopped at `npm ci`: no build from a failed install
    assert (tmp_path / "bin" / "calls").read_text().splitlines() == ["ci --no-audit --no-fund"]


def test_npm_ci_then_the_build(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = checkout(tmp_path)
    fake_npm(tmp_path / "bin", 'if [ "$1" = run ]; then mkdir -p dist; touch dist/index.html; fi')
    monkeypatch.setenv("PATH", str(tmp_path / "bin") + os.pathsep + "/usr/bin:/bin")
    monkeypatch.delenv("DURAK_SKIP_ACTIVITY_BUILD", raising=False)
    assert build_module().build_client(root) is True
    assert (root / "activity" / "dist" / "index.html").is_file()
    calls = (tmp_path / "bin" / "calls").read_text().splitlines()
    assert calls == ["ci --no-audit --no-fund", "run build"]


def test_it_can_be_skipped(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = checkout(tmp_path)
    fake_npm(tmp_path / "bin", "exit 0")
    monkeypatch.setenv("PATH", str(tmp_path / "bin"))
    monkeypatch.setenv("DURAK_SKIP_ACTIVITY_BUILD", "1")
    with pytest.warns(UserWarning, match="DURAK_SKIP_ACTIVITY_BUILD"):
        assert build_module().build_client(root) is False
    assert not (tmp_path / "bin" / "calls").exists()
