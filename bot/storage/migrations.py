"""Versioned schema migrations for the SQLite backend.

Each migration runs in its own ``BEGIN IMMEDIATE`` transaction together with
its row in ``schema_migrations``, so a failed or concurrent start never leaves
a half-applied version. Released migrations are append-only: never edit one,
add the next version instead.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime

import aiosqlite

from .busy import is_busy
from .errors import MigrationError


@dataclass(frozen=True, slots=True)
class Migration:
    version: int
    name: str
    statements: tuple[str, ...]


MIGRATIONS: tuple[Migration, ...] = (
    Migration(
        1,
        "games, seats and win/loss aggregates",
        (
            """CREATE TABLE games (
                game_id TEXT PRIMARY KEY,
                guild_id INTEGER NOT NULL,
                channel_id INTEGER NOT NULL,
                table_id TEXT NOT NULL,
                series_id TEXT NOT NULL,
                game_number INTEGER NOT NULL,
                rules_json TEXT NOT NULL,
                finishing_order_json TEXT NOT NULL,
                durak_seat INTEGER,
                losing_seats_json TEXT NOT NULL,
                started_at TEXT NOT NULL,
                ended_at TEXT NOT NULL,
                seed_commitment TEXT NOT NULL,
                seed TEXT NOT NULL,
                card_order_json TEXT NOT NULL,
                actions_json TEXT NOT NULL,
                recorded_at TEXT NOT NULL
            )""",
            "CREATE INDEX games_channel ON games (guild_id, channel_id, ended_at)",
            """CREATE TABLE game_seats (
                game_id TEXT NOT NULL REFERENCES games (game_id) ON DELETE CASCADE,
                seat INTEGER NOT NULL,
                guild_id INTEGER NOT NULL,
                ended_at TEXT NOT NULL,
                kind TEXT NOT NULL CHECK (kind IN ('human', 'ai')),
                user_id INTEGER,
                ai_level TEXT,
                player_key TEXT NOT NULL,
                display_name TEXT NOT NULL,
                team INTEGER,
                place INTEGER NOT NULL,
                result TEXT NOT NULL CHECK (result IN ('win', 'loss', 'draw', 'played')),
                PRIMARY KEY (game_id, seat)
            )""",
            "CREATE INDEX game_seats_user ON game_seats (user_id, ended_at)",
            """CREATE TABLE guild_stats (
                guild_id INTEGER NOT NULL,
                player_key TEXT NOT NULL,
                kind TEXT NOT NULL CHECK (kind IN ('human', 'ai')),
                user_id INTEGER,
                ai_level TEXT,
                display_name TEXT NOT NULL,
                games INTEGER NOT NULL DEFAULT 0,
                wins INTEGER NOT NULL DEFAULT 0,
                losses INTEGER NOT NULL DEFAULT 0,
                draws INTEGER NOT NULL DEFAULT 0,
                series_won INTEGER NOT NULL DEFAULT 0,
                series_lost INTEGER NOT NULL DEFAULT 0,
                current_streak INTEGER NOT NULL DEFAULT 0,
                best_streak INTEGER NOT NULL DEFAULT 0,
                PRIMARY KEY (guild_id, player_key)
            )""",
            "CREATE INDEX guild_stats_wins ON guild_stats (guild_id, kind, wins DESC)",
            """CREATE TABLE global_stats (
                player_key TEXT PRIMARY KEY,
                kind TEXT NOT NULL CHECK (kind IN ('human', 'ai')),
                user_id INTEGER,
                ai_level TEXT,
                display_name TEXT NOT NULL,
                games INTEGER NOT NULL DEFAULT 0,
                wins INTEGER NOT NULL DEFAULT 0,
                losses INTEGER NOT NULL DEFAULT 0,
                draws INTEGER NOT NULL DEFAULT 0,
                series_won INTEGER NOT NULL DEFAULT 0,
                series_lost INTEGER NOT NULL DEFAULT 0,
                current_streak INTEGER NOT NULL DEFAULT 0,
                best_streak INTEGER NOT NULL DEFAULT 0
            )""",
            """CREATE TABLE series_results (
                series_id TEXT PRIMARY KEY,
                guild_id INTEGER NOT NULL,
                winners_json TEXT NOT NULL,
                losers_json TEXT NOT NULL,
                finished_at TEXT NOT NULL
            )""",
        ),
    ),
    Migration(
        2,
        "openskill ratings per guild",
        (
            # Defaults are openskill's PlackettLuce prior (mu 25, sigma 25/3, ordinal 0),
            # written as literals so the migration never changes with the library.
            "ALTER TABLE guild_stats ADD COLUMN mu REAL NOT NULL DEFAULT 25.0",
            "ALTER TABLE guild_stats ADD COLUMN sigma REAL NOT NULL DEFAULT 8.333333333333334",
            "ALTER TABLE guild_stats ADD COLUMN rating REAL NOT NULL DEFAULT 0.0",
            "CREATE INDEX guild_stats_rating ON guild_stats (guild_id, kind, rating DESC)",
            # Rating after each game, for history; NULL for games recorded before v2.
            "ALTER TABLE game_seats ADD COLUMN mu_after REAL",
            "ALTER TABLE game_seats ADD COLUMN sigma_after REAL",
        ),
    ),
    Migration(
        3,
        "saved tables for resuming after a restart",
        (
            """CREATE TABLE saved_tables (
                table_id TEXT PRIMARY KEY,
                guild_id INTEGER NOT NULL,
                channel_id INTEGER NOT NULL,
                thread_id INTEGER,
                lobby_message_id INTEGER,
                table_message_id INTEGER,
                state_json TEXT NOT NULL,
                meta_json TEXT NOT NULL,
                status TEXT NOT NULL
                    CHECK (status IN ('lobby', 'running', 'finished', 'abandoned')),
                version INTEGER NOT NULL,
                updated_at TEXT NOT NULL
            )""",
            "CREATE INDEX saved_tables_status ON saved_tables (status, updated_at)",
        ),
    ),
    Migration(
        4,
        "per-guild bot settings (e.g. card pictures on/off)",
        (
            """CREATE TABLE guild_settings (
                guild_id INTEGER NOT NULL,
                key TEXT NOT NULL,
                value TEXT NOT NULL,
                PRIMARY KEY (guild_id, key)
            )""",
        ),
    ),
    Migration(
        5,
        "per-user bot settings (e.g. turn notifications)",
        (
            """CREATE TABLE user_settings (
                user_id INTEGER NOT NULL,
                key TEXT NOT NULL,
                value TEXT NOT NULL,
                PRIMARY KEY (user_id, key)
            )""",
        ),
    ),
)

LATEST_VERSION = MIGRATIONS[-1].version

_BOOTSTRAP = """CREATE TABLE IF NOT EXISTS schema_migrations (
    version INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    applied_at TEXT NOT NULL
)"""


async def current_version(conn: aiosqlite.Connection) -> int:
    cur = await conn.execute("SELECT COALESCE(MAX(version), 0) FROM schema_migrations")
    row = await cur.fetchone()
    return int(row[0]) if row else 0


async def migrate(conn: aiosqlite.Connection, target: int | None = None) -> int:
    """Apply pending migrations up to ``target`` (default: latest); return the version.

    ``conn`` must be in autocommit mode (``isolation_level=None``). Safe to run
    from several processes at once: the version is re-read under the write lock.
    """
    target = LATEST_VERSION if target is None else target
    if not 0 <= target <= LATEST_VERSION:
        raise MigrationError(f"unknown schema version {target}")
    await conn.execute(_BOOTSTRAP)
    version = await current_version(conn)
    if version > LATEST_VERSION:
        raise MigrationError(
            f"database schema v{version} is newer than this code (v{LATEST_VERSION})"
        )
    for m in MIGRATIONS:
        if m.version <= version or m.version > target:
            continue
        await conn.execute("BEGIN IMMEDIATE")
        try:
            if await current_version(conn) >= m.version:  # another process won the race
                await conn.execute("ROLLBACK")
                continue
            for stmt in m.statements:
                await conn.execute(stmt)
            await conn.execute(
                "INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)",
                (m.version, m.name, datetime.now(UTC).isoformat()),
            )
            await conn.execute("COMMIT")
        except BaseException as exc:
            await conn.execute("ROLLBACK")
            # Lock contention is retried by the caller; anything else is a broken migration.
            if (
                isinstance(exc, Exception)
                and not isinstance(exc, MigrationError)
                and not is_busy(exc)
            ):
                raise MigrationError(f"migration v{m.version} ({m.name}) failed: {exc}") from exc
            raise
    return await current_version(conn)
