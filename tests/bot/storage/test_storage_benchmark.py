"""benchmarks/storage_speed.py bulk-loads the games table by position, so a migration that adds
a column breaks it; a tiny run keeps it working (its figures: docs/performance.md)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]


@pytest.mark.slow
def test_storage_benchmark_runs_on_the_current_schema() -> None:
    done = subprocess.run(
        [sys.executable, "benchmarks/storage_speed.py", "--games", "3000", "--users", "300",
         "--runs", "8"],
        cwd=ROOT, capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    figures = json.loads(done.stdout.strip().splitlines()[-1])
    assert figures["games"] == 3000 and figures["record_game_ms"] > 0
