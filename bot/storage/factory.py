"""``open_storage(url)``: the one place that maps ``DATABASE_URL`` to a backend.

- ``sqlite:///relative/path.sqlite3`` or ``sqlite:////absolute/path.sqlite3``
  (SQLAlchemy's spelling: the path follows the third slash);
- ``postgresql://user:password@host:port/database`` (also ``postgres://``);
  further query parameters are passed to asyncpg (e.g. ``?sslmode=require``,
  or a server setting such as ``?search_path=durak``).
"""

from __future__ import annotations

from pathlib import Path

from .errors import StorageError
from .interface import Storage
from .sharding import ShardScope

DEFAULT_DATABASE_URL = "sqlite:///data/durak.sqlite3"


class UnsupportedDatabaseUrl(StorageError, ValueError):
    """``DATABASE_URL`` names no backend this code has."""


def sqlite_url(path: str | Path) -> str:
    return f"sqlite:///{path}"


def sqlite_path(url: str) -> Path:
    """The file of a ``sqlite:///PATH`` URL."""
    path = url.split("://", 1)[1]
    if not path.startswith("/") or path == "/":
        raise UnsupportedDatabaseUrl(f"a SQLite URL is sqlite:///PATH, got {url!r}")
    return Path(path[1:])


def backend_of(url: str) -> str:
    """``"sqlite"`` or ``"postgresql"``, or ``UnsupportedDatabaseUrl``."""
    scheme = url.split("://", 1)[0].lower() if "://" in url else ""
    if scheme == "sqlite":
        return "sqlite"
    if scheme in ("postgresql", "postgres"):
        return "postgresql"
    raise UnsupportedDatabaseUrl(
        f"DATABASE_URL must start with sqlite:/// or postgresql://, got {_redact(url)!r}"
    )


async def open_storage(
    url: str = DEFAULT_DATABASE_URL, *, shards: ShardScope | None = None
) -> Storage:
    """Open (and migrate) the storage ``url`` names; ``shards`` scopes ``load_tables``."""
    if backend_of(url) == "sqlite":
        from .sqlite import SqliteStorage

        return await SqliteStorage.open(sqlite_path(url), shards=shards)
    # Imported here, like SqliteStorage above, to keep the factory free of import cycles.
    from .postgres import PostgresStorage

    return await PostgresStorage.open(url, shards=shards)


def _redact(url: str) -> str:
    # Never echo a password from DATABASE_URL into logs or error messages.
    if "://" not in url or "@" not in url:
        return url
    scheme, rest = url.split("://", 1)
    creds, host = rest.rsplit("@", 1)
    return f"{scheme}://{creds.split(':', 1)[0]}:***@{host}"
