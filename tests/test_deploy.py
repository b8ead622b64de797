"""The one systemd unit shipped in deploy/ is what the docs point to, and systemd accepts it
(``systemd-analyze verify``, which .ci/run installs where it can)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
UNIT = ROOT / "deploy" / "durak.service"
INSTALL_DIR = "/opt/durak"


def test_systemd_analyze_verify_accepts_the_unit(tmp_path: Path) -> None:
    analyze = shutil.which("systemd-analyze")
    if analyze is None:
        pytest.skip("systemd-analyze is not installed (Debian's package systemd has it)")
    # verify checks that ExecStart's program exists: the unit is checked with its install
    # folder moved to one holding the virtual environment's python, everything else as shipped
    text = UNIT.read_text()
    assert text.count(INSTALL_DIR) >= 2, "the unit's paths are the documented /opt/durak"
    python = tmp_path / "durak" / ".venv" / "bin" / "python"
    python.parent.mkdir(parents=True)
    python.symlink_to(sys.executable)
    unit = tmp_path / "durak.service"
    unit.write_text(text.replace(INSTALL_DIR, str(tmp_path / "durak")))
    proc = subprocess.run(
        [analyze, "verify", str(unit)],
        capture_output=True,
        text=True,
        timeout=60,
        env=dict(os.environ, SYSTEMD_LOG_LEVEL="notice"),
    )
    said = (proc.stdout + proc.stderr).strip()
    # systemd only warns about what it ignores (an end-of-line comment, say): any word counts
    assert proc.returncode == 0 and said == "", said


def test_unit_has_no_end_of_line_comments() -> None:
    for number, line in enumerate(UNIT.read_text().splitlines(), 1):
        if "=" in line and not line.lstrip().startswith("#"):
            assert "#" not in line, f"{UNIT.name}:{number}: systemd takes '#' as part of the value"


def test_docs_point_to_the_one_unit() -> None:
    for doc in ("docs/bot.md", "docs/deploy.md", "README.md"):
        text = (ROOT / doc).read_text()
        assert "deploy/durak.service" in text, doc
        assert not re.search(r"^\[Service\]", text, re.MULTILINE), f"{doc} has its own unit"
