"""The install builds the Activity's client where npm exists (.build/activity_client.py, called
by the build backend), and never fails because of it: without npm, or when npm fails, it warns
(pip shows a build hook's warnings) and the install goes on. A wheel carries the built client;
the bot serves the checkout's first."""

from __future__ import annotations

import importlib.util
import os
import stat
from pathlib import Path
from types import ModuleType

import pytest

from bot.activity import server as server_module
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


def test_a_wheel_carries_the_built_client_and_the_checkout_stays_clean(tmp_path: Path) -> None:
    module = build_module()
    root = checkout(tmp_path)
    with module.packaged(root):  # nothing built: nothing to carry
        assert not (root / module.PACKAGED).exists()
    (root / "activity" / "dist" / "assets").mkdir(parents=True)
    (root / "activity" / "dist" / "index.html").write_text("<!doctype html>", encoding="utf-8")
    (root / "activity" / "dist" / "assets" / "index-1.js").write_text("0", encoding="utf-8")
    with module.packaged(root):
        carried = root / module.PACKAGED
        assert (carried / "index.html").is_file() and (carried / "assets" / "index-1.js").is_file()
    assert not (root / module.PACKAGED).exists()
    # the package data the wheel takes is that folder
    assert str(module.PACKAGED) == "bot/activity/client"
    assert server_module.PACKAGED_CLIENT.parts[-3:] == ("bot", "activity", "client")


def test_the_bot_serves_the_checkouts_client_first_else_the_wheels(tmp_path: Path) -> None:
    checkout_dist, packaged = tmp_path / "dist", tmp_path / "client"
    assert server_module.find_client(checkout_dist, packaged) == checkout_dist  # none built
    packaged.mkdir()
    (packaged / "index.html").write_text("wheel", encoding="utf-8")
    assert server_module.find_client(checkout_dist, packaged) == packaged  # an installed wheel
    checkout_dist.mkdir()
    (checkout_dist / "index.html").write_text("fresh", encoding="utf-8")
    assert server_module.find_client(checkout_dist, packaged) == checkout_dist  # npm run build
