-- Frozen fixture: the SQLite schema v5 exactly as the migrations at commit 86e84cf left it
-- (sqlite_master, in creation order). Never edit: tests/storage/test_storage_upgrade.py opens
-- a database built from it with today's code.
CREATE TABLE schema_migrations (
    version INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    applied_at TEXT NOT NULL
);
CREATE TABLE games (
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
            );
CREATE INDEX games_channel ON games (guild_id, channel_id, ended_at);
CREATE TABLE game_seats (
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
                result TEXT NOT NULL CHECK (result IN ('win', 'loss', 'draw', 'played')), mu_after REAL, sigma_after REAL,
                PRIMARY KEY (game_id, seat)
            );
CREATE INDEX game_seats_user ON game_seats (user_id, ended_at);
CREATE TABLE guild_stats (
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
                best_streak INTEGER NOT NULL DEFAULT 0, mu REAL NOT NULL DEFAULT 25.0, sigma REAL NOT NULL DEFAULT 8.333333333333334, rating REAL NOT NULL DEFAULT 0.0,
                PRIMARY KEY (guild_id, player_key)
            );
CREATE INDEX guild_stats_wins ON guild_stats (guild_id, kind, wins DESC);
CREATE TABLE global_stats (
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
            );
CREATE TABLE series_results (
                series_id TEXT PRIMARY KEY,
                guild_id INTEGER NOT NULL,
                winners_json TEXT NOT NULL,
                losers_json TEXT NOT NULL,
                finished_at TEXT NOT NULL
            );
CREATE INDEX guild_stats_rating ON guild_stats (guild_id, kind, rating DESC);
CREATE TABLE saved_tables (
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
            );
CREATE INDEX saved_tables_status ON saved_tables (status, updated_at);
CREATE TABLE guild_settings (
                guild_id INTEGER NOT NULL,
                key TEXT NOT NULL,
                value TEXT NOT NULL,
                PRIMARY KEY (guild_id, key)
            );
CREATE TABLE user_settings (
                user_id INTEGER NOT NULL,
                key TEXT NOT NULL,
                value TEXT NOT NULL,
                PRIMARY KEY (user_id, key)
            );
