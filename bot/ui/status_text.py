"""The ``/durak status`` answer (docs/deploy.md, "Health"): uptime and version, tables open,
games today, answer times over the last 5 minutes, Discord's 429s, the storage's size and the
last error id, in the reader's language. What needs the disk (the database's size, ``git
describe``) is read beforehand, off the event loop (:func:`storage_megabytes`,
:func:`bot.health.version`); the rest is read on the loop, where the health record is kept."""

from __future__ import annotations

from collections.abc import Iterable

from bot.domain import TableStatus
from bot.health import Health
from bot.storage.factory import backend_of, sqlite_path
from bot.text import t


def uptime_text(seconds: float) -> str:
    """``H:MM:SS``, hours past 24 included: the same in every language."""
    whole = int(seconds)
    return f"{whole // 3600}:{whole % 3600 // 60:02}:{whole % 60:02}"


def storage_megabytes(url: str) -> float | None:
    """The SQLite database's size on disk with its write-ahead log, in MB; None for
    PostgreSQL."""
    if backend_of(url) != "sqlite":
        return None
    path = sqlite_path(url)
    files = [path, path.with_name(path.name + "-wal")]
    return sum(f.stat().st_size for f in files if f.exists()) / 1_000_000


def status_text(
    health: Health,
    loc: str,
    *,
    statuses: Iterable[TableStatus],
    storage_mb: float | None,
    version: str,
) -> str:
    open_tables = list(statuses)
    lines = [
        t("status.title", loc),
        t("status.uptime", loc, uptime=uptime_text(health.uptime_seconds), version=version),
        t(
            "status.tables",
            loc,
            lobby=open_tables.count(TableStatus.LOBBY),
            running=open_tables.count(TableStatus.RUNNING),
        ),
        t("status.games", loc, count=health.games_today),
    ]
    times = health.interaction_percentiles()
    if times is None:
        lines.append(t("status.latency_none", loc))
    else:
        p50, p99, count = times
        lines.append(t("status.latency", loc, p50=f"{p50:.0f}", p99=f"{p99:.0f}", count=count))
    lines.append(t("status.rate_limited", loc, count=health.rate_limited))
    if storage_mb is None:
        lines.append(t("status.storage_postgres", loc))
    else:
        lines.append(t("status.storage_sqlite", loc, size=f"{storage_mb:.1f}"))
    if health.last_error_id is None:
        lines.append(t("status.no_error", loc))
    else:
        lines.append(t("status.last_error", loc, id=health.last_error_id))
    return "\n".join(lines)
