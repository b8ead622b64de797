"""Settings from the environment and ``.env`` (pydantic-settings); see ``.env.example``."""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import Field, SecretStr
from pydantic_settings import BaseSettings, SettingsConfigDict

LogLevel = Literal["DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"]


class Settings(BaseSettings):
    """Every setting of the bot. Environment variables win over ``.env``."""

    model_config = SettingsConfigDict(
        env_file=".env",
        env_file_encoding="utf-8",
        extra="ignore",
        case_sensitive=False,
        env_ignore_empty=True,  # `DEV_GUILD_ID=` in .env means "not set"
    )

    #: The bot token from the Discord developer portal (required, never logged).
    discord_token: SecretStr = Field(min_length=1)
    #: SQLite file for games, ratings and saved tables.
    database_path: Path = Path("data/durak.sqlite3")
    #: A guild whose commands ``--sync`` updates instantly (development).
    dev_guild_id: int | None = None
    log_level: LogLevel = "INFO"
    #: Default seconds a player has to act before the table acts for them (0 = no timer).
    turn_timer_seconds: int = Field(default=60, ge=0, le=3600)
    #: Seconds an AI seat waits before acting, so humans can follow the game.
    ai_delay_seconds: float = Field(default=1.5, ge=0, le=30)
    #: Thinking time of one AI decision.
    ai_budget_seconds: float = Field(default=1.0, gt=0, le=30)
    #: Optional cap on AI search iterations (deterministic and fast; used by tests).
    ai_budget_iterations: int | None = Field(default=None, ge=1)
    #: Minimum seconds between two edits of one table message (Discord rate limits).
    table_edit_interval_seconds: float = Field(default=1.0, ge=0, le=10)
    #: Minutes without any human action after which a table is closed and saved as
    #: abandoned (0 = never).
    abandon_after_minutes: float = Field(default=30, ge=0, le=7 * 24 * 60)
