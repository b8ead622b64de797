"""A PostgreSQL server for the tests: ``DURAK_TEST_PG_URL`` (``.ci/run`` starts one), or a
throwaway cluster started here with ``initdb``/``pg_ctl`` when those are installed.

When neither is possible, the PostgreSQL half of the tests is skipped with the reason, and a
warning line is printed, so a missing server is never mistaken for a pass.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import uuid
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

ENV = "DURAK_TEST_PG_URL"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _tool(name: str) -> str | None:
    found = shutil.which(name)
    if found:
        return found
    # Debian keeps the server binaries out of PATH.
    for d in sorted(Path("/usr/lib/postgresql").glob("*/bin"), reverse=True):
        if (d / name).exists():
            return str(d / name)
    return None


@contextlib.contextmanager
def pg_server() -> Iterator[tuple[str | None, str]]:
    """Yield ``(url, how)``; ``url`` is None when no server could be had (``how`` says why)."""
    url = os.environ.get(ENV)
    if url:
        yield url, f"{ENV}"
        return
    initdb, pg_ctl = _tool("initdb"), _tool("pg_ctl")
    if not (initdb and pg_ctl):
        yield None, f"no PostgreSQL: {ENV} is unset and initdb/pg_ctl are not installed"
        return
    as_user: list[str] = []
    if os.geteuid() == 0:  # the server refuses to run as root
        runuser = shutil.which("runuser")
        try:
            import pwd

            pwd.getpwnam("postgres")
        except KeyError:
            runuser = None
        if runuser is None:
            yield None, "no PostgreSQL: running as root without a postgres user"
            return
        as_user = [runuser, "-u", "postgres", "--"]
    tmp = tempfile.mkdtemp(prefix="durak-pg-")
    if as_user:
        shutil.chown(tmp, "postgres")
    data, port = os.path.join(tmp, "data"), _free_port()
    started = False
    try:
        subprocess.run(
            [*as_user, initdb, "-D", data, "-A", "trust", "-U", "postgres", "-E", "UTF8"],
            check=True, capture_output=True, timeout=120,
        )  # fmt: skip
        opts = f"-k {tmp} -p {port} -c listen_addresses=127.0.0.1 -c fsync=off"
        subprocess.run(
            [*as_user, pg_ctl, "-D", data, "-o", opts, "-l", os.path.join(tmp, "log"), "-w",
             "start"],
            check=True, capture_output=True, timeout=120,
        )  # fmt: skip
        started = True
        yield f"postgresql://postgres@127.0.0.1:{port}/postgres", "a server started by the tests"
    except (OSError, subprocess.SubprocessError) as exc:
        detail = getattr(exc, "stderr", b"") or b""
        yield None, f"no PostgreSQL: starting one failed: {exc} {detail.decode(errors='replace')}"
    finally:
        if started:
            subprocess.run(
                [*as_user, pg_ctl, "-D", data, "-m", "immediate", "stop"],
                capture_output=True, timeout=60, check=False,
            )  # fmt: skip
        shutil.rmtree(tmp, ignore_errors=True)


def warn_skipped(reason: str) -> None:
    # Loud on purpose: CI output must show that half the storage tests did not run.
    print(f"\nWARNING: PostgreSQL tests SKIPPED: {reason}\n", file=sys.stderr, flush=True)


async def fresh_schema(base_url: str) -> tuple[str, str]:
    """Create an empty schema; return (url whose search_path is it, schema name)."""
    import asyncpg

    name = f"t_{uuid.uuid4().hex[:12]}"
    conn = await asyncpg.connect(base_url)
    try:
        await conn.execute(f'CREATE SCHEMA "{name}"')
    finally:
        await conn.close()
    sep = "&" if "?" in base_url else "?"
    return f"{base_url}{sep}search_path={name}", name


async def drop_schema(base_url: str, name: str) -> None:
    import asyncpg

    conn = await asyncpg.connect(base_url)
    try:
        await conn.execute(f'DROP SCHEMA IF EXISTS "{name}" CASCADE')
    finally:
        await conn.close()


@contextlib.asynccontextmanager
async def pg_schema_or_skip() -> AsyncIterator[str]:
    """A fresh schema's URL for one test, dropped afterwards; without a server the test is
    skipped, and the reason printed (``warn_skipped``)."""
    with pg_server() as (base, how):
        if base is None:
            warn_skipped(how)
            pytest.skip(f"PostgreSQL unavailable: {how}")
        url, schema = await fresh_schema(base)
        try:
            yield url
        finally:
            await drop_schema(base, schema)
