"""durak backup: a consistent copy of the bot's SQLite database, safe while the bot runs.

It reads the database the bot uses (DATABASE_URL, else DATABASE_PATH, from the environment or
.env, as the bot does; --database-url to name another) with SQLite's online backup API, so the
copy holds every committed change up to one moment and none after it, whatever the bot writes
meanwhile. The copy is written beside PATH and renamed into place when complete, and checked
(PRAGMA integrity_check) before it is. Restoring and PostgreSQL: docs/deploy.md, "Backups".
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sqlite3
import sys
from collections.abc import Sequence
from pathlib import Path

from pydantic import ValidationError

from bot.settings import StorageSettings
from bot.storage.factory import backend_of, sqlite_path

EXIT_FAILED = 1
EXIT_USAGE = 2


class BackupError(Exception):
    """A backup that could not be made, said in one line."""


def backup_sqlite(source: Path, dest: Path) -> int:
    """Copy the database ``source`` to ``dest`` (not existing) in one step of SQLite's online
    backup (one read transaction: a snapshot, while writers go on); returns the copy's size
    in bytes."""
    if not source.is_file():
        raise BackupError(f"no database at {source}")
    if dest.exists():
        raise BackupError(f"{dest} exists already; give a new file name")
    partial = dest.with_name(dest.name + ".partial")
    partial.unlink(missing_ok=True)
    try:
        with (
            contextlib.closing(sqlite3.connect(f"file:{source}?mode=ro", uri=True)) as src,
            contextlib.closing(sqlite3.connect(partial)) as out,
        ):
            src.backup(out)  # pages=-1: the whole database in one step
            checked = out.execute("PRAGMA integrity_check").fetchone()
        if checked is None or checked[0] != "ok":
            raise BackupError(f"the copy failed SQLite's integrity check: {checked}")
        os.replace(partial, dest)
    except sqlite3.Error as exc:
        raise BackupError(f"SQLite could not copy {source}: {exc}") from exc
    finally:
        partial.unlink(missing_ok=True)
    return dest.stat().st_size


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="durak backup",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("path", type=Path, help="the new file to write the copy to")
    p.add_argument(
        "--database-url",
        default=None,
        help="the database to copy (default: the bot's DATABASE_URL or DATABASE_PATH)",
    )
    return p


def main(argv: Sequence[str]) -> int:
    args = _parser().parse_args(list(argv))
    try:
        url = args.database_url or StorageSettings().storage_url
        backend = backend_of(url)
        source = sqlite_path(url) if backend == "sqlite" else None
    except (ValidationError, ValueError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    if source is None:
        print(
            "error: the database is PostgreSQL: back it up with pg_dump "
            '(pg_dump --format=custom --file=PATH "$DATABASE_URL"; docs/deploy.md, "Backups")',
            file=sys.stderr,
        )
        return EXIT_USAGE
    try:
        size = backup_sqlite(source, args.path)
    except BackupError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_FAILED
    print(f"wrote {args.path} ({size / 1_000_000:.1f} MB), a consistent copy of {source}")
    return 0
