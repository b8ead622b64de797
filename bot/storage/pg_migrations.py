"""Versioned schema migrations for the PostgreSQL backend.

Same versions, names and semantics as the SQLite list in ``migrations.py`` (a
test keeps the two in step), written in PostgreSQL types: BIGINT Discord ids,
TIMESTAMPTZ times, DOUBLE PRECISION ratings, JSON kept as exact TEXT, and text
keys in the "C" collation so ``ORDER BY`` ties break exactly as in SQLite.

Concurrent first starts of several processes are serialised by a session
advisory lock; each version runs in one transaction with its
``schema_migrations`` row (PostgreSQL DDL is transactional).
"""

from __future__ import annotations

from typing import Any

from .errors import MigrationError
from .migrations import Migration

# pg_advisory_lock key shared by every process migrating this database ("durak" + 1).
ADVISORY_LOCK_KEY = 0x6475_7261_6B01

PG_MIGRATIONS: tuple[Migration, ...] = (
    Migration(
        1,
        "games, seats and win/loss aggregates",
        (
            """CREATE TABLE games (
                game_id TEXT COLLATE "C" PRIMARY KEY,
                guild_id BIGINT NOT NULL,
                channel_id BIGINT NOT NULL,
                table_id TEXT NOT NULL,
                series_id TEXT NOT NULL,
                game_number INTEGER NOT NULL,
                rules_json TEXT NOT NULL,
                finishing_order_json TEXT NOT NULL,
                durak_seat INTEGER,
                losing_seats_json TEXT NOT NULL,
                started_at TIMESTAMPTZ NOT NULL,
                ended_at TIMESTAMPTZ NOT NULL,
                seed_commitment TEXT NOT NULL,
                seed TEXT NOT NULL,
                card_order_json TEXT NOT NULL,
                actions_json TEXT NOT NULL,
                recorded_at TIMESTAMPTZ NOT NULL
            )""",
            "CREATE INDEX games_channel ON games (guild_id, channel_id, ended_at)",
            """CREATE TABLE game_seats (
                game_id TEXT COLLATE "C" NOT NULL
                    REFERENCES games (game_id) ON DELETE CASCADE,
                seat INTEGER NOT NULL,
                guild_id BIGINT NOT NULL,
                ended_at TIMESTAMPTZ NOT NULL,
                kind TEXT NOT NULL CHECK (kind IN ('human', 'ai')),
                user_id BIGINT,
                ai_level TEXT,
                player_key TEXT COLLATE "C" NOT NULL,
                display_name TEXT NOT NULL,
                team INTEGER,
                place INTEGER NOT NULL,
                result TEXT NOT NULL CHECK (result IN ('win', 'loss', 'draw', 'played')),
                PRIMARY KEY (game_id, seat)
            )""",
            "CREATE INDEX game_seats_user ON game_seats (user_id, ended_at)",
            """CREATE TABLE guild_stats (
                guild_id BIGINT NOT NULL,
                player_key TEXT COLLATE "C" NOT NULL,
                kind TEXT NOT NULL CHECK (kind IN ('human', 'ai')),
                user_id BIGINT,
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
                player_key TEXT COLLATE "C" PRIMARY KEY,
                kind TEXT NOT NULL CHECK (kind IN ('human', 'ai')),
                user_id BIGINT,
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
                series_id TEXT COLLATE "C" PRIMARY KEY,
                guild_id BIGINT NOT NULL,
                winners_json TEXT NOT NULL,
                losers_json TEXT NOT NULL,
                finished_at TIMESTAMPTZ NOT NULL
            )""",
        ),
    ),
    Migration(
        2,
        "openskill ratings per guild",
        (
            # The same literal openskill prior as the SQLite migration.
            "ALTER TABLE guild_stats ADD COLUMN mu DOUBLE PRECISION NOT NULL DEFAULT 25.0",
            "ALTER TABLE guild_stats ADD COLUMN sigma DOUBLE PRECISION NOT NULL"
            " DEFAULT 8.333333333333334",
            "ALTER TABLE guild_stats ADD COLUMN rating DOUBLE PRECISION NOT NULL DEFAULT 0.0",
            "CREATE INDEX guild_stats_rating ON guild_stats (guild_id, kind, rating DESC)",
            "ALTER TABLE game_seats ADD COLUMN mu_after DOUBLE PRECISION",
            "ALTER TABLE game_seats ADD COLUMN sigma_after DOUBLE PRECISION",
        ),
    ),
    Migration(
        3,
        "saved tables for resuming after a restart",
        (
            """CREATE TABLE saved_tables (
                table_id TEXT COLLATE "C" PRIMARY KEY,
                guild_id BIGINT NOT NULL,
                channel_id BIGINT NOT NULL,
                thread_id BIGINT,
                lobby_message_id BIGINT,
                table_message_id BIGINT,
                state_json TEXT NOT NULL,
                meta_json TEXT NOT NULL,
                status TEXT NOT NULL
                    CHECK (status IN ('lobby', 'running', 'finished', 'abandoned')),
                version INTEGER NOT NULL,
                updated_at TIMESTAMPTZ NOT NULL
            )""",
            "CREATE INDEX saved_tables_status ON saved_tables (status, updated_at)",
        ),
    ),
    Migration(
        4,
        "per-guild bot settings (e.g. card pictures on/off)",
        (
            """CREATE TABLE guild_settings (
                guild_id BIGINT NOT NULL,
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
                user_id BIGINT NOT NULL,
                key TEXT NOT NULL,
                value TEXT NOT NULL,
                PRIMARY KEY (user_id, key)
            )""",
        ),
    ),
)

PG_LATEST_VERSION = PG_MIGRATIONS[-1].version

_BOOTSTRAP = """CREATE TABLE IF NOT EXISTS schema_migrations (
    version INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    applied_at TIMESTAMPTZ NOT NULL
)"""


async def pg_current_version(conn: Any) -> int:
    return int(await conn.fetchval("SELECT COALESCE(MAX(version), 0) FROM schema_migrations"))


async def pg_migrate(conn: Any, target: int | None = None) -> int:
    """Apply pending migrations up to ``target`` (default: latest); return the version.

    The advisory lock is held across the bootstrap too: two first starts racing on
    ``CREATE TABLE IF NOT EXISTS`` can otherwise both fail on PostgreSQL's catalog.
    """
    target = PG_LATEST_VERSION if target is None else target
    if not 0 <= target <= PG_LATEST_VERSION:
        raise MigrationError(f"unknown schema version {target}")
    await conn.execute("SELECT pg_advisory_lock($1)", ADVISORY_LOCK_KEY)
    try:
        await conn.execute(_BOOTSTRAP)
        version = await pg_current_version(conn)
        if version > PG_LATEST_VERSION:
            raise MigrationError(
                f"database schema v{version} is newer than this code (v{PG_LATEST_VERSION})"
            )
        for m in PG_MIGRATIONS:
            if m.version <= version or m.version > target:
                continue
            try:
                async with conn.transaction():
                    for stmt in m.statements:
                        await conn.execute(stmt)
                    await conn.execute(
                        "INSERT INTO schema_migrations (version, name, applied_at)"
                        " VALUES ($1, $2, now())",
                        m.version,
                        m.name,
                    )
            except Exception as exc:
                raise MigrationError(f"migration v{m.version} ({m.name}) failed: {exc}") from exc
        return await pg_current_version(conn)
    finally:
        await conn.execute("SELECT pg_advisory_unlock($1)", ADVISORY_LOCK_KEY)
