-- Frozen fixture: the PostgreSQL schema v5 as the migrations at commit 86e84cf left it
-- (pg_dump --schema-only, without settings and schema names), one statement a line. Never edit:
-- tests/bot/storage/test_storage_upgrade.py opens a database built from it with today's code.
CREATE TABLE game_seats ( game_id text NOT NULL COLLATE pg_catalog."C", seat integer NOT NULL, guild_id bigint NOT NULL, ended_at timestamp with time zone NOT NULL, kind text NOT NULL, user_id bigint, ai_level text, player_key text NOT NULL COLLATE pg_catalog."C", display_name text NOT NULL, team integer, place integer NOT NULL, result text NOT NULL, mu_after double precision, sigma_after double precision, CONSTRAINT game_seats_kind_check CHECK ((kind = ANY (ARRAY['human'::text, 'ai'::text]))), CONSTRAINT game_seats_result_check CHECK ((result = ANY (ARRAY['win'::text, 'loss'::text, 'draw'::text, 'played'::text]))) );
CREATE TABLE games ( game_id text NOT NULL COLLATE pg_catalog."C", guild_id bigint NOT NULL, channel_id bigint NOT NULL, table_id text NOT NULL, series_id text NOT NULL, game_number integer NOT NULL, rules_json text NOT NULL, finishing_order_json text NOT NULL, durak_seat integer, losing_seats_json text NOT NULL, started_at timestamp with time zone NOT NULL, ended_at timestamp with time zone NOT NULL, seed_commitment text NOT NULL, seed text NOT NULL, card_order_json text NOT NULL, actions_json text NOT NULL, recorded_at timestamp with time zone NOT NULL );
CREATE TABLE global_stats ( player_key text NOT NULL COLLATE pg_catalog."C", kind text NOT NULL, user_id bigint, ai_level text, display_name text NOT NULL, games integer DEFAULT 0 NOT NULL, wins integer DEFAULT 0 NOT NULL, losses integer DEFAULT 0 NOT NULL, draws integer DEFAULT 0 NOT NULL, series_won integer DEFAULT 0 NOT NULL, series_lost integer DEFAULT 0 NOT NULL, current_streak integer DEFAULT 0 NOT NULL, best_streak integer DEFAULT 0 NOT NULL, CONSTRAINT global_stats_kind_check CHECK ((kind = ANY (ARRAY['human'::text, 'ai'::text]))) );
CREATE TABLE guild_settings ( guild_id bigint NOT NULL, key text NOT NULL, value text NOT NULL );
CREATE TABLE guild_stats ( guild_id bigint NOT NULL, player_key text NOT NULL COLLATE pg_catalog."C", kind text NOT NULL, user_id bigint, ai_level text, display_name text NOT NULL, games integer DEFAULT 0 NOT NULL, wins integer DEFAULT 0 NOT NULL, losses integer DEFAULT 0 NOT NULL, draws integer DEFAULT 0 NOT NULL, series_won integer DEFAULT 0 NOT NULL, series_lost integer DEFAULT 0 NOT NULL, current_streak integer DEFAULT 0 NOT NULL, best_streak integer DEFAULT 0 NOT NULL, mu double precision DEFAULT 25.0 NOT NULL, sigma double precision DEFAULT 8.333333333333334 NOT NULL, rating double precision DEFAULT 0.0 NOT NULL, CONSTRAINT guild_stats_kind_check CHECK ((kind = ANY (ARRAY['human'::text, 'ai'::text]))) );
CREATE TABLE saved_tables ( table_id text NOT NULL COLLATE pg_catalog."C", guild_id bigint NOT NULL, channel_id bigint NOT NULL, thread_id bigint, lobby_message_id bigint, table_message_id bigint, state_json text NOT NULL, meta_json text NOT NULL, status text NOT NULL, version integer NOT NULL, updated_at timestamp with time zone NOT NULL, CONSTRAINT saved_tables_status_check CHECK ((status = ANY (ARRAY['lobby'::text, 'running'::text, 'finished'::text, 'abandoned'::text]))) );
CREATE TABLE schema_migrations ( version integer NOT NULL, name text NOT NULL, applied_at timestamp with time zone NOT NULL );
CREATE TABLE series_results ( series_id text NOT NULL COLLATE pg_catalog."C", guild_id bigint NOT NULL, winners_json text NOT NULL, losers_json text NOT NULL, finished_at timestamp with time zone NOT NULL );
CREATE TABLE user_settings ( user_id bigint NOT NULL, key text NOT NULL, value text NOT NULL );
ALTER TABLE ONLY game_seats ADD CONSTRAINT game_seats_pkey PRIMARY KEY (game_id, seat);
ALTER TABLE ONLY games ADD CONSTRAINT games_pkey PRIMARY KEY (game_id);
ALTER TABLE ONLY global_stats ADD CONSTRAINT global_stats_pkey PRIMARY KEY (player_key);
ALTER TABLE ONLY guild_settings ADD CONSTRAINT guild_settings_pkey PRIMARY KEY (guild_id, key);
ALTER TABLE ONLY guild_stats ADD CONSTRAINT guild_stats_pkey PRIMARY KEY (guild_id, player_key);
ALTER TABLE ONLY saved_tables ADD CONSTRAINT saved_tables_pkey PRIMARY KEY (table_id);
ALTER TABLE ONLY schema_migrations ADD CONSTRAINT schema_migrations_pkey PRIMARY KEY (version);
ALTER TABLE ONLY series_results ADD CONSTRAINT series_results_pkey PRIMARY KEY (series_id);
ALTER TABLE ONLY user_settings ADD CONSTRAINT user_settings_pkey PRIMARY KEY (user_id, key);
CREATE INDEX game_seats_user ON game_seats USING btree (user_id, ended_at);
CREATE INDEX games_channel ON games USING btree (guild_id, channel_id, ended_at);
CREATE INDEX guild_stats_rating ON guild_stats USING btree (guild_id, kind, rating DESC);
CREATE INDEX guild_stats_wins ON guild_stats USING btree (guild_id, kind, wins DESC);
CREATE INDEX saved_tables_status ON saved_tables USING btree (status, updated_at);
ALTER TABLE ONLY game_seats ADD CONSTRAINT game_seats_game_id_fkey FOREIGN KEY (game_id) REFERENCES games(game_id) ON DELETE CASCADE;
