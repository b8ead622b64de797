"""``durak backup PATH``: a consistent copy of the SQLite database while something writes to it
(SQLite's online backup API), checked and renamed into place; a clear line and no copy when it
cannot make one (docs/deploy.md, "Backups")."""

from __future__ import annotations

import asyncio
import os
import sqlite3
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from bot.storage import open_storage
from bot.storage.factory import sqlite_url

ROOT = Path(__file__).resolve().parents[3]


def durak(*args: str, cwd: Path, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "bot.cli", *args],
        cwd=cwd,
        env={**os.environ, "PYTHONPATH": str(ROOT), **env},
        capture_output=True,
        text=True,
        timeout=60,
    )


class PairWriter(threading.Thread):
    """Commits two rows at a time, as fast as it can, until stopped: a copy taken at any moment
    holds an even number of them."""

    def __init__(self, db: Path) -> None:
        super().__init__(daemon=True)
        self.db = db
        self.stop = threading.Event()
        self.commits = 0

    def run(self) -> None:
        con = sqlite3.connect(self.db, isolation_level=None, timeout=10)
        con.execute("CREATE TABLE IF NOT EXISTS pairs (n INTEGER)")
        while not self.stop.is_set():
            con.execute("BEGIN IMMEDIATE")
            con.execute("INSERT INTO pairs VALUES (?)", (self.commits,))
            con.execute("INSERT INTO pairs VALUES (?)", (self.commits,))
            con.execute("COMMIT")
            self.commits += 1
        con.close()


@pytest.mark.slow
async def test_backup_while_written_is_consistent(tmp_path: Path) -> None:
    db = tmp_path / "data" / "durak.sqlite3"
    storage = await open_storage(sqlite_url(db))  # the bot's schema, in WAL mode
    await storage.close()
    writer = PairWriter(db)
    writer.start()
    try:
        while writer.commits < 200:
            await asyncio.sleep(0.01)
        copy = tmp_path / "backup.sqlite3"
        done = durak("backup", str(copy), cwd=tmp_path, DATABASE_URL=sqlite_url(db))
        during = writer.commits
    finally:
        writer.stop.set()
        writer.join()
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(f"wrote {copy} ("), done.stdout
    con = sqlite3.connect(copy)
    try:
        assert con.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        rows = con.execute("SELECT COUNT(*) FROM pairs").fetchone()[0]
        tables = {r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    finally:
        con.close()
    assert rows % 2 == 0 and 400 <= rows <= 2 * during  # whole transactions, up to one moment
    assert {"games", "saved_tables", "schema_migrations"} <= tables
    assert not list(tmp_path.glob("*.partial"))

    again = durak("backup", str(copy), cwd=tmp_path, DATABASE_URL=sqlite_url(db))
    assert again.returncode == 1 and "exists already" in again.stderr


@pytest.mark.slow
def test_backup_refusals_say_what_to_do(tmp_path: Path) -> None:
    missing = durak("backup", "x.sqlite3", cwd=tmp_path, DATABASE_PATH="nowhere/durak.sqlite3")
    assert missing.returncode == 1
    assert missing.stderr.strip() == "error: no database at nowhere/durak.sqlite3"
    assert not (tmp_path / "x.sqlite3").exists()
    pg = durak(
        "backup", "x.dump", cwd=tmp_path, DATABASE_URL="postgresql://durak:secret@db:5432/durak"
    )
    assert pg.returncode == 2 and "pg_dump" in pg.stderr
    assert "secret" not in pg.stderr
    assert len(pg.stderr.strip().splitlines()) == 1
