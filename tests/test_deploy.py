"""What deploy/ ships: the one systemd unit, which the docs point to and systemd accepts
(``systemd-analyze verify``, which .ci/run installs where it can), and the sample Grafana
dashboard, which asks only for metrics the bot exports."""

from __future__ import annotations

import asyncio
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from prometheus_client import generate_latest
from prometheus_client.parser import text_string_to_metric_families

from bot.health import Health
from bot.metrics import Metrics

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


def exported_names() -> set[str]:
    """The names bot/metrics.py exports, from a scrape of a ``Metrics`` fed one observation of
    each kind and holding one table (its state is read on a loop, as the bot's)."""
    loop = asyncio.new_event_loop()
    try:
        metrics = Metrics(Health(), loop, lambda: (["running"], 0))
        for what, labels in (
            ("interaction", ("/durak new",)),
            ("http", ("GET", "/users/@me", "429")),
            ("ai", ()),
            ("save", ()),
            ("game", ()),
        ):
            metrics.observe(what, labels, 0.01)

        async def scrape() -> bytes:
            return await asyncio.to_thread(generate_latest, metrics.registry)

        text = loop.run_until_complete(scrape()).decode()
    finally:
        loop.close()
    return {s.name for f in text_string_to_metric_families(text) for s in f.samples}


def test_grafana_dashboard_queries_what_the_bot_exports() -> None:
    """Every metric the sample dashboard (deploy/grafana-dashboard.json) asks for is one the
    bot exports."""
    dashboard = json.loads((ROOT / "deploy" / "grafana-dashboard.json").read_text())
    exprs = [target["expr"] for panel in dashboard["panels"] for target in panel["targets"]]
    assert len(exprs) >= 8
    asked = {name for expr in exprs for name in re.findall(r"\bdurak_\w+", expr)}
    exported = exported_names()
    assert "durak_interaction_seconds_bucket" in exported
    assert asked - exported == set()
