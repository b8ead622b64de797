"""The schema's history, written once for SQLite and PostgreSQL, and the code that applies it.

Column types are named by role (``{id}``, ``{key}``, ``{time}``, ``{real}``); each database
spells them its own way (``dialect.py``): BIGINT Discord ids, TIMESTAMPTZ times, DOUBLE
PRECISION ratings and ``"C"``-collated text keys on PostgreSQL. JSON is kept as exact TEXT on
both. A database made by an earlier release (before the dialect layer) has the same tables,
columns and versions, so it opens as it is.

Each migration runs in one transaction together with its row in ``schema_migrations``, after
re-reading the version under that transaction's lock (SQLite: ``BEGIN IMMEDIATE``; PostgreSQL
also holds a session advisory lock across the whole run, DDL included, which is transactional
there), so a failed or concurrent start never leaves a half-applied version. Released
migrations are append-only: never edit one, add the next version instead.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime

from .connection import Connection
from .dialect import Dialect
from .errors import MigrationError


@dataclass(frozen=True, slots=True)
class Migration:
    version: int
    name: str
    statements: tuple[str, ...]

    def render(self, dialect: Dialect) -> tuple[str, ...]:
        return tuple(dialect.ddl(s) for s in self.statements)


# Who a player is and what they did, kept per guild (guild_stats) and across guilds
# (global_stats). The exact text matters: SQLite keeps it, and the tests compare it with the
# schema earlier releases made.
_PLAYER_TALLIES = """kind TEXT NOT NULL CHECK (kind IN ('human', 'ai')),
                user_id {id},
                ai_level TEXT,
                display_name TEXT NOT NULL,
                games INTEGER NOT NULL DEFAULT 0,
                wins INTEGER NOT NULL DEFAULT 0,
                losses INTEGER NOT NULL DEFAULT 0,
                draws INTEGER NOT NULL DEFAULT 0,
                series_won INTEGER NOT NULL DEFAULT 0,
                series_lost INTEGER NOT NULL DEFAULT 0,
                current_streak INTEGER NOT NULL DEFAULT 0,
                best_streak INTEGER NOT NULL DEFAULT 0"""

MIGRATIONS: tuple[Migration, ...] = (
    Migration(
        1,
        "games, seats and win/loss aggregates",
        (
            """CREATE TABLE games (
                game_id {key} PRIMARY KEY,
                guild_id {id} NOT NULL,
                channel_id {id} NOT NULL,
                table_id TEXT NOT NULL,
                series_id TEXT NOT NULL,
                game_number INTEGER NOT NULL,
                rules_json TEXT NOT NULL,
                finishing_order_json TEXT NOT NULL,
                durak_seat INTEGER,
                losing_seats_json TEXT NOT NULL,
                started_at {time} NOT NULL,
                ended_at {time} NOT NULL,
                seed_commitment TEXT NOT NULL,
                seed TEXT NOT NULL,
                card_order_json TEXT NOT NULL,
                actions_json TEXT NOT NULL,
                recorded_at {time} NOT NULL
            )""",
            "CREATE INDEX games_channel ON games (guild_id, channel_id, ended_at)",
            """CREATE TABLE game_seats (
                game_id {key} NOT NULL REFERENCES games (game_id) ON DELETE CASCADE,
                seat INTEGER NOT NULL,
                guild_id {id} NOT NULL,
                ended_at {time} NOT NULL,
                kind TEXT NOT NULL CHECK (kind IN ('human', 'ai')),
                user_id {id},
                ai_level TEXT,
                player_key {key} NOT NULL,
                display_name TEXT NOT NULL,
                team INTEGER,
                place INTEGER NOT NULL,
                result TEXT NOT NULL CHECK (result IN ('win', 'loss', 'draw', 'played')),
                PRIMARY KEY (game_id, seat)
            )""",
            "CREATE INDEX game_seats_user ON game_seats (user_id, ended_at)",
            """CREATE TABLE guild_stats (
                guild_id {id} NOT NULL,
                player_key {key} NOT NULL,
                """
            + _PLAYER_TALLIES
            + """,
                PRIMARY KEY (guild_id, player_key)
            )""",
            "CREATE INDEX guild_stats_wins ON guild_stats (guild_id, kind, wins DESC)",
            """CREATE TABLE global_stats (
                player_key {key} PRIMARY KEY,
                """
            + _PLAYER_TALLIES
            + """
            )""",
            """CREATE TABLE series_results (
                series_id {key} PRIMARY KEY,
                guild_id {id} NOT NULL,
                winners_json TEXT NOT NULL,
                losers_json TEXT NOT NULL,
                finished_at {time} NOT NULL
            )""",
        ),
    ),
    Migration(
        2,
        "openskill ratings per guild",
        (
            # Defaults are openskill's PlackettLuce prior (mu 25, sigma 25/3, ordinal 0),
            # written as literals so the migration never changes with the library.
            "ALTER TABLE guild_stats ADD COLUMN mu {real} NOT NULL DEFAULT 25.0",
            "ALTER TABLE guild_stats ADD COLUMN sigma {real} NOT NULL DEFAULT 8.333333333333334",
            "ALTER TABLE guild_stats ADD COLUMN rating {real} NOT NULL DEFAULT 0.0",
            "CREATE INDEX guild_stats_rating ON guild_stats (guild_id, kind, rating DESC)",
            # Rating after each game, for history; NULL for games recorded before v2.
            "ALTER TABLE game_seats ADD COLUMN mu_after {real}",
            "ALTER TABLE game_seats ADD COLUMN sigma_after {real}",
        ),
    ),
    Migration(
        3,
        "saved tables for resuming after a restart",
        (
            """CREATE TABLE saved_tables (
                table_id {key} PRIMARY KEY,
                guild_id {id} NOT NULL,
                channel_id {id} NOT NULL,
                thread_id {id},
                lobby_message_id {id},
                table_message_id {id},
                state_json TEXT NOT NULL,
                meta_json TEXT NOT NULL,
                status TEXT NOT NULL
                    CHECK (status IN ('lobby', 'running', 'finished', 'abandoned')),
                version INTEGER NOT NULL,
                updated_at {time} NOT NULL
            )""",
            "CREATE INDEX saved_tables_status ON saved_tables (status, updated_at)",
        ),
    ),
    Migration(
        4,
        "per-guild bot settings (e.g. card pictures on/off)",
        (
            """CREATE TABLE guild_settings (
                guild_id {id} NOT NULL,
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
                user_id {id} NOT NULL,
                key TEXT NOT NULL,
                value TEXT NOT NULL,
                PRIMARY KEY (user_id, key)
            )""",
        ),
    ),
    Migration(
        6,
        "tournaments: entrants, rounds, tables and their games",
        (
            # ``settings_json``: bot.tournaments.TournamentSettings; ``options_json``: the bot's
            # table options for every table of the event (rule preset, turn timer, ...).
            """CREATE TABLE tournaments (
                tournament_id {key} PRIMARY KEY,
                guild_id {id} NOT NULL,
                channel_id {id} NOT NULL,
                organiser_id {id} NOT NULL,
                name TEXT NOT NULL,
                settings_json TEXT NOT NULL,
                options_json TEXT NOT NULL,
                status TEXT NOT NULL
                    CHECK (status IN ('signup', 'running', 'finished', 'cancelled')),
                current_round INTEGER NOT NULL DEFAULT 0,
                signup_deadline {time},
                signup_message_id {id},
                standings_message_id {id},
                created_at {time} NOT NULL,
                started_at {time},
                finished_at {time}
            )""",
            "CREATE INDEX tournaments_guild ON tournaments (guild_id, created_at)",
            "CREATE INDEX tournaments_status ON tournaments (status, created_at)",
            # ``withdrawn`` is 0/1: SQLite has no BOOLEAN. A player who leaves before the start
            # is deleted; one who withdraws after it stays (their results count).
            """CREATE TABLE tournament_entrants (
                tournament_id {key} NOT NULL
                    REFERENCES tournaments (tournament_id) ON DELETE CASCADE,
                user_id {id} NOT NULL,
                rating {real} NOT NULL,
                signup_order INTEGER NOT NULL,
                withdrawn INTEGER NOT NULL DEFAULT 0 CHECK (withdrawn IN (0, 1)),
                joined_at {time} NOT NULL,
                PRIMARY KEY (tournament_id, user_id)
            )""",
            """CREATE TABLE tournament_rounds (
                tournament_id {key} NOT NULL
                    REFERENCES tournaments (tournament_id) ON DELETE CASCADE,
                round_number INTEGER NOT NULL CHECK (round_number >= 1),
                status TEXT NOT NULL CHECK (status IN ('running', 'finished')),
                byes_json TEXT NOT NULL,
                started_at {time} NOT NULL,
                finished_at {time},
                PRIMARY KEY (tournament_id, round_number)
            )""",
            # ``seats_json``: the user id in each seat, in seat order, null for an AI seat.
            """CREATE TABLE tournament_tables (
                tournament_id {key} NOT NULL,
                round_number INTEGER NOT NULL,
                table_number INTEGER NOT NULL CHECK (table_number >= 1),
                seats_json TEXT NOT NULL,
                bot_table_id TEXT,
                PRIMARY KEY (tournament_id, round_number, table_number),
                FOREIGN KEY (tournament_id, round_number)
                    REFERENCES tournament_rounds (tournament_id, round_number) ON DELETE CASCADE
            )""",
            # A recorded game played at a tournament table. A link table rather than columns
            # on ``games``: ordinary games (nearly all) write and read nothing more, and the
            # link can only name a table that was paired.
            """CREATE TABLE tournament_games (
                game_id {key} PRIMARY KEY REFERENCES games (game_id) ON DELETE CASCADE,
                tournament_id {key} NOT NULL,
                round_number INTEGER NOT NULL,
                table_number INTEGER NOT NULL,
                FOREIGN KEY (tournament_id, round_number, table_number)
                    REFERENCES tournament_tables (tournament_id, round_number, table_number)
                    ON DELETE CASCADE
            )""",
            "CREATE INDEX tournament_games_table"
            " ON tournament_games (tournament_id, round_number, table_number)",
        ),
    ),
    Migration(
        7,
        "tournament check-in: whether each entrant confirmed before the start",
        ("ALTER TABLE tournament_entrants ADD COLUMN checked_in INTEGER NOT NULL DEFAULT 0",),
    ),
    Migration(
        8,
        "tournament result overrides: the organiser's walkover or forfeit of a table",
        (
            # ``override_json``: {"kind": "winner" | "forfeit", "player": user id}; with who
            # recorded it and when, for the tournament's log and export. NULL: the games decide.
            "ALTER TABLE tournament_tables ADD COLUMN override_json TEXT",
            "ALTER TABLE tournament_tables ADD COLUMN override_by {id}",
            "ALTER TABLE tournament_tables ADD COLUMN override_at {time}",
        ),
    ),
    Migration(
        9,
        "daily puzzles: each player's first finished try at a server's puzzle of the day",
        (
            # ``day``: days since 1970-01-01 (UTC), the bot's clock; one row per player, server
            # and day (the first try counts), ``solved`` 1 or 0. The streak reads a player's
            # solved days across servers.
            """CREATE TABLE puzzle_attempts (
                guild_id {id} NOT NULL,
                day INTEGER NOT NULL,
                user_id {id} NOT NULL,
                puzzle_number INTEGER NOT NULL,
                solved INTEGER NOT NULL CHECK (solved IN (0, 1)),
                finished_at {time} NOT NULL,
                PRIMARY KEY (guild_id, day, user_id)
            )""",
            "CREATE INDEX puzzle_attempts_user ON puzzle_attempts (user_id, solved, day)",
        ),
    ),
    Migration(
        10,
        "assisted games: a practice table's games (hints offered), unrated",
        # 1: played at a practice table, where Hard's hints were on offer; such a game changes
        # no rating and no tally, and history marks it.
        ("ALTER TABLE games ADD COLUMN assisted INTEGER NOT NULL DEFAULT 0",),
    ),
)

LATEST_VERSION = MIGRATIONS[-1].version

_BOOTSTRAP = """CREATE TABLE IF NOT EXISTS schema_migrations (
    version INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    applied_at {time} NOT NULL
)"""


async def current_version(conn: Connection) -> int:
    row = await conn.fetchrow("SELECT COALESCE(MAX(version), 0) FROM schema_migrations")
    return int(row[0]) if row else 0


async def migrate(conn: Connection, target: int | None = None) -> int:
    """Apply pending migrations up to ``target`` (default: latest); return the version.

    Safe to run from several processes at once. A lock held by another process is raised as
    it is (the caller retries); any other failure is a ``MigrationError``.
    """
    latest = MIGRATIONS[-1].version if MIGRATIONS else 0
    target = latest if target is None else target
    if not 0 <= target <= latest:
        raise MigrationError(f"unknown schema version {target}")
    async with conn.exclusive():
        await conn.execute(conn.dialect.ddl(_BOOTSTRAP))
        version = await current_version(conn)
        if version > latest:
            raise MigrationError(f"database schema v{version} is newer than this code (v{latest})")
        for m in MIGRATIONS:
            if m.version <= version or m.version > target:
                continue
            try:
                async with conn.transaction(write=True):
                    if await current_version(conn) >= m.version:  # another process was first
                        continue
                    for stmt in m.render(conn.dialect):
                        await conn.execute(stmt)
                    await conn.execute(
                        "INSERT INTO schema_migrations (version, name, applied_at)"
                        " VALUES (?, ?, ?)",
                        m.version,
                        m.name,
                        conn.dialect.time(datetime.now(UTC)),
                    )
            except Exception as exc:
                if isinstance(exc, MigrationError) or conn.transient(exc):
                    raise
                raise MigrationError(f"migration v{m.version} ({m.name}) failed: {exc}") from exc
        return await current_version(conn)
