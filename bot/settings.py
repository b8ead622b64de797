"""Settings from the environment and ``.env`` (pydantic-settings); see ``.env.example``."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Final, Literal, Self

from pydantic import AliasChoices, Field, SecretStr, field_validator, model_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

from bot.domain import MAX_TURN_TIMER
from bot.storage.factory import backend_of, sqlite_url
from bot.storage.sharding import ShardScope

#: The turn timer of a table that asks for none, unless ``TURN_TIMER_SECONDS`` says otherwise
#: (and of a tournament, which always has one, when it says 0).
DEFAULT_TURN_TIMER: Final = 60

LogLevel = Literal["DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"]


class StorageSettings(BaseSettings):
    """Where the data lives: all that a tool without Discord (``durak backup``) needs.
    Environment variables win over ``.env``."""

    model_config = SettingsConfigDict(
        env_file=".env",
        env_file_encoding="utf-8",
        extra="ignore",
        case_sensitive=False,
        env_ignore_empty=True,  # `DEV_GUILD_ID=` in .env means "not set"
    )

    #: SQLite file for games, ratings and saved tables (used when DATABASE_URL is unset).
    database_path: Path = Path("data/durak.sqlite3")
    #: Where games, ratings and saved tables live: ``sqlite:///PATH`` or
    #: ``postgresql://user:password@host:port/db`` (needed for several processes).
    database_url: str | None = None

    @field_validator("database_url")
    @classmethod
    def _known_backend(cls, value: str | None) -> str | None:
        if value is not None:
            backend_of(value)  # raises a ValueError naming the accepted schemes
        return value

    @property
    def storage_url(self) -> str:
        """``DATABASE_URL``, or the SQLite file ``DATABASE_PATH`` (older setting) as a URL."""
        return self.database_url or sqlite_url(self.database_path)


class Settings(StorageSettings):
    """Every setting of the bot. Environment variables win over ``.env``."""

    #: The bot token from the Discord developer portal (required, never logged).
    discord_token: SecretStr = Field(min_length=1)
    #: Shards across all processes (Discord requires sharding past 2,500 guilds). Unset: one
    #: unsharded connection.
    shard_count: int | None = Field(default=None, ge=1)
    #: The shards this process runs, comma-separated (``0,1``); unset: all of SHARD_COUNT.
    shard_ids: Annotated[tuple[int, ...] | None, NoDecode] = None
    #: The server ``--sync`` registers the commands in when ``--guild`` is not given (at once);
    #: unset: ``--sync`` registers them globally.
    dev_guild_id: int | None = None
    log_level: LogLevel = "INFO"
    #: Default seconds a player has to act before the table acts for them (0 = no timer).
    turn_timer_seconds: int = Field(default=DEFAULT_TURN_TIMER, ge=0, le=MAX_TURN_TIMER)
    #: Seconds an AI seat waits before acting, so humans can follow the game.
    ai_delay_seconds: float = Field(default=1.5, ge=0, le=30)
    #: Thinking time of one AI decision.
    ai_budget_seconds: float = Field(default=1.0, gt=0, le=30)
    #: Optional cap on AI search iterations (deterministic and fast; used by tests).
    ai_budget_iterations: int | None = Field(default=None, ge=1)
    #: Worker processes for AI decisions, so a long search never holds the event loop's
    #: interpreter lock; 0 = worker threads in the bot process.
    ai_processes: int = Field(default=1, ge=0, le=64)
    #: How long a click waits for its table to be saved before it is answered anyway (the
    #: database is locked or slow: the game goes on in memory and is saved in the background).
    #: Below Discord's 3-second limit for a first answer.
    save_wait_seconds: float = Field(default=2.0, gt=0, le=2.5)
    #: Requests a second this process may make to Discord outside interaction endpoints
    #: (table messages, notifications). Discord allows 50 a second per bot token (its global
    #: rate limit); the default keeps room for the rest. Processes sharing a token (sharding)
    #: share those 50: divide. 0 = no bound (a bot Discord granted a higher limit).
    discord_requests_per_second: float = Field(default=40.0, ge=0, le=100_000)
    #: Minimum seconds between two edits of one table message (Discord rate limits).
    table_edit_interval_seconds: float = Field(default=1.0, ge=0, le=10)
    #: Minimum seconds between two refreshes of a player's hand while its buttons stay the
    #: same (other players' moves the player need not answer); a change of what the player
    #: may do, and the end of a game, refresh the hand at once.
    hand_idle_refresh_seconds: float = Field(default=4.0, ge=0, le=30)
    #: Minimum seconds between two new pictures of one table message: drawing and uploading
    #: the picture is the bot's largest cost, so it follows the text (edited every
    #: TABLE_EDIT_INTERVAL_SECONDS) at this pace; the game's end is drawn at once.
    table_picture_interval_seconds: float = Field(default=3.0, ge=0, le=60)
    #: New table pictures a second across all tables of this process (0 = no bound): bounds
    #: the pictures' CPU however many tables run; past it, pictures lag the text a little more.
    table_pictures_per_second: float = Field(default=12.0, ge=0, le=1000)
    #: Seconds a human may take to act before being told it is their turn (a mention or a DM,
    #: each user's choice in `/durak settings notify:`); at most half the table's turn timer.
    turn_notify_delay_seconds: float = Field(default=15.0, ge=0, le=600)
    #: Minutes without any human action after which a table is closed and saved as
    #: abandoned (0 = never).
    abandon_after_minutes: float = Field(default=30, ge=0, le=7 * 24 * 60)
    #: Serve the Discord Activity (the card table in an iframe, docs/activity.md): a web
    #: server in the bot process. Off unless set; needs the three settings below.
    activity_enabled: bool = False
    #: The application's OAuth2 client id and secret (Developer Portal → OAuth2).
    discord_client_id: int | None = None
    discord_client_secret: SecretStr | None = None
    #: Where the Activity's web server listens (behind an HTTPS reverse proxy); port 0 = any.
    activity_listen_host: str = "127.0.0.1"
    activity_listen_port: int = Field(default=8080, ge=0, le=65535)
    #: The public HTTPS host the portal's URL mapping ``/`` points to (no scheme, no path).
    activity_public_host: str | None = Field(default=None, pattern=r"^[A-Za-z0-9.-]+(:\d+)?$")
    # The Activity server's limits (docs/activity.md, "Limits"): one client's cost is bounded.
    #: Kilobytes of frames waiting to be sent to one browser (besides the newest table frame);
    #: a browser that does not read past it is disconnected (close code 1013).
    activity_send_queue_kib: int = Field(default=256, ge=16, le=65536)
    #: Frames a second one socket may send (twice that in a burst); past it one refusal
    #: (``err.activity_too_fast``) is sent, and the socket is closed (1008) if it goes on.
    activity_frames_per_second: float = Field(default=10.0, ge=0, le=10_000)
    #: Sign-ins (``POST /api/token``) a minute from one client (a user Discord's proxy vouched
    #: for, else an address; as many in a burst), a minute from one address in all (a loose
    #: bound: inside Discord every player comes through the proxy's), and a second from
    #: everyone (twice that in a burst): past any, 429 before Discord is asked. 0 = no bound.
    activity_sign_ins_per_client_per_minute: float = Field(default=10.0, ge=0, le=100_000)
    activity_sign_ins_per_ip_per_minute: float = Field(default=600.0, ge=0, le=100_000)
    activity_sign_ins_per_second: float = Field(default=5.0, ge=0, le=10_000)
    #: The application's public key (Developer Portal → General Information, 64 hex digits):
    #: checks the signed headers Discord's proxy adds, so the limits count each user apart
    #: although every player comes from the proxy's address. Unset: limits go by address.
    discord_public_key: str | None = Field(default=None, pattern=r"^[0-9a-fA-F]{64}$")
    #: Reverse proxies in front of the server that append to X-Forwarded-For: the client's
    #: address is the entry that many from the right (0: the peer address, no header trusted).
    activity_forwarded_hops: int = Field(default=0, ge=0, le=10)
    #: Seconds a user's place in an activity instance, as Discord last confirmed it, is trusted:
    #: a resumed socket past it is checked again, and every instance with open sockets is
    #: checked this often (sockets of users who left it are closed). At most one check per
    #: instance in that time.
    activity_instance_check_seconds: float = Field(default=60.0, ge=1, le=3600)
    #: Hours a chain of resumed sockets may last from its sign-in; then the client signs in
    #: again (silently, through Discord).
    activity_session_max_hours: float = Field(default=12.0, gt=0, le=24 * 7)
    #: Open sockets per user (a new one closes the oldest, close code 4004) and per activity
    #: instance (a new one past it is refused, close code 1013).
    activity_sockets_per_user: int = Field(default=4, ge=1, le=1000)
    activity_sockets_per_instance: int = Field(default=100, ge=1, le=100_000)
    #: Sockets that have not said hello yet (each may wait 10 s) of one client (a user the
    #: proxy vouched for, else an address), and from one address in all (a loose bound: inside
    #: Discord every player's is the proxy's): past either, 429 before the upgrade.
    activity_unsigned_sockets_per_client: int = Field(default=8, ge=1, le=100_000)
    activity_unsigned_sockets_per_ip: int = Field(default=500, ge=1, le=100_000)
    #: Tables one user may host at once that are not finished (a lobby or a game); past it,
    #: opening another, with ``/durak new`` or from the Activity, is refused (``err.table_cap``).
    #: ``ACTIVITY_TABLES_PER_USER``, its first name, is still read.
    tables_per_user: int = Field(
        default=3,
        ge=1,
        le=1000,
        validation_alias=AliasChoices("tables_per_user", "activity_tables_per_user"),
    )
    #: Seconds between two "open a table" frames of one user, past three in a row (each asks
    #: Discord once); past it ``err.activity_too_fast``.
    activity_open_interval_seconds: float = Field(default=10.0, ge=0, le=3600)
    #: Log lines a minute about refused requests and frames (0 = no bound); the rest counted.
    activity_log_lines_per_minute: int = Field(default=60, ge=0, le=100_000)
    #: Origins a WebSocket may be opened from besides the server's own, comma-separated;
    #: unset: ``https://ACTIVITY_PUBLIC_HOST`` and ``https://<client id>.discordsays.com``.
    activity_allowed_origins: Annotated[tuple[str, ...] | None, NoDecode] = None
    #: The pages that may frame the Activity (the CSP's ``frame-ancestors``); unset: itself,
    #: Discord's pages and this application's own ``<client id>.discordsays.com``.
    activity_frame_ancestors: str | None = None

    #: Serve Prometheus metrics at ``http://METRICS_HOST:METRICS_PORT/metrics`` (docs/deploy.md,
    #: "Health"); unset: no endpoint.
    metrics_port: int | None = Field(default=None, ge=1, le=65535)
    #: Where the metrics endpoint listens: loopback unless Prometheus scrapes from elsewhere.
    metrics_host: str = "127.0.0.1"

    @field_validator("shard_ids", mode="before")
    @classmethod
    def _comma_list(cls, value: object) -> object:
        if isinstance(value, str):
            return tuple(int(part) for part in value.split(",") if part.strip())
        return value

    @field_validator("activity_allowed_origins", mode="before")
    @classmethod
    def _origin_list(cls, value: object) -> object:
        if isinstance(value, str):
            return tuple(part.strip().rstrip("/") for part in value.split(",") if part.strip())
        return value

    @model_validator(mode="after")
    def _shards_consistent(self) -> Self:
        if self.shard_ids is not None and self.shard_count is None:
            raise ValueError("SHARD_IDS needs SHARD_COUNT")
        self.shard_scope  # noqa: B018 - validates the ids against the count
        return self

    @model_validator(mode="after")
    def _activity_complete(self) -> Self:
        if self.activity_enabled:
            missing = [
                name
                for name, value in (
                    ("DISCORD_CLIENT_ID", self.discord_client_id),
                    ("DISCORD_CLIENT_SECRET", self.discord_client_secret),
                    ("ACTIVITY_PUBLIC_HOST", self.activity_public_host),
                )
                if value is None
            ]
            if missing:
                raise ValueError("ACTIVITY_ENABLED needs " + ", ".join(missing))
        return self

    @property
    def shard_scope(self) -> ShardScope | None:
        """The guilds this process owns, or None when it runs every shard."""
        return ShardScope.of(self.shard_count, self.shard_ids)
