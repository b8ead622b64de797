"""The PostgreSQL server helper lives beside the storage tests; make it importable here."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "storage"))
