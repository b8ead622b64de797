"""Plain-data models exchanged with the storage layer (pydantic v2, frozen).

Storage never imports the engine: a finished game arrives as a ``GameRecord``
and a running table as an opaque ``state_json`` string inside ``SavedTable``.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime
from typing import Literal

import orjson
from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from bot.domain import TableStatus as TableStatus  # re-exported: the storage API names it
from durak_core.rules import MAX_SEATS as MAX_SEATS  # R3, re-exported
from durak_core.rules import MIN_SEATS as MIN_SEATS

_HEX = re.compile(r"^[0-9a-fA-F]+$")

SeatResult = Literal["win", "loss", "draw", "played"]


class Frozen(BaseModel):
    """The base of every stored record: immutable, no unknown fields."""

    model_config = ConfigDict(frozen=True, extra="forbid")


def json_safe(value: dict[str, object]) -> dict[str, object]:
    # Fail at construction, not half-way through a write transaction.
    try:
        orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS)
    except TypeError as exc:
        raise ValueError(f"must be JSON-serialisable: {exc}") from exc
    return value


def utc(value: datetime) -> datetime:
    # Naive datetimes are ambiguous; refusing them keeps every stored time comparable.
    if value.tzinfo is None or value.utcoffset() is None:
        raise ValueError("datetime must be timezone-aware (UTC)")
    return value.astimezone(UTC)


class TournamentLink(Frozen):
    """Where a game was played in a tournament: its round and table (both 1-based)."""

    tournament_id: str = Field(min_length=1, max_length=100)
    round: int = Field(ge=1)
    table: int = Field(ge=1)


class SeatRecord(Frozen):
    """One seat of a finished game: a Discord user or an AI of some level."""

    seat: int = Field(ge=0, lt=MAX_SEATS)
    kind: Literal["human", "ai"]
    user_id: int | None = None
    ai_level: str | None = None
    display_name: str
    team: int | None = None

    @model_validator(mode="after")
    def _kind_matches_ids(self) -> SeatRecord:
        if self.kind == "human" and (self.user_id is None or self.ai_level is not None):
            raise ValueError(f"seat {self.seat}: a human seat needs user_id and no ai_level")
        if self.kind == "ai" and (self.ai_level is None or self.user_id is not None):
            raise ValueError(f"seat {self.seat}: an AI seat needs ai_level and no user_id")
        if self.kind == "ai" and not self.ai_level:
            raise ValueError(f"seat {self.seat}: ai_level must not be empty")
        return self

    @property
    def player_key(self) -> str:
        """Key of the rated player: one per user, one per AI level."""
        return f"user:{self.user_id}" if self.kind == "human" else f"ai:{self.ai_level}"


class GameRecord(Frozen):
    """Everything kept about a finished game; enough to replay it with the engine."""

    game_id: str = Field(min_length=1, max_length=100)
    guild_id: int
    channel_id: int
    table_id: str = Field(min_length=1)
    series_id: str = Field(min_length=1)
    game_number: int = Field(ge=1)
    rules: dict[str, object]
    seats: list[SeatRecord]
    finishing_order: list[int]
    durak_seat: int | None
    losing_seats: list[int]
    started_at: datetime
    ended_at: datetime
    seed_commitment: str
    seed: str
    card_order: list[str]
    actions: list[str]
    #: Set for a game of a tournament table; it counts like any game and is marked as theirs.
    tournament: TournamentLink | None = None
    #: Played at a practice table (hints on offer): unrated, no tally, marked in history.
    assisted: bool = False

    _utc_times = field_validator("started_at", "ended_at")(utc)
    _rules_json = field_validator("rules")(json_safe)

    @field_validator("seed_commitment", "seed")
    @classmethod
    def _hex(cls, value: str) -> str:
        if not _HEX.match(value):
            raise ValueError("must be a non-empty hex string")
        return value

    @model_validator(mode="after")
    def _consistent(self) -> GameRecord:
        n = len(self.seats)
        if not MIN_SEATS <= n <= MAX_SEATS:
            raise ValueError(f"a game has {MIN_SEATS}..{MAX_SEATS} seats, got {n}")
        numbers = [s.seat for s in self.seats]
        if sorted(numbers) != list(range(n)):
            raise ValueError(f"seat numbers must be 0..{n - 1} once each, got {numbers}")
        users = [s.user_id for s in self.seats if s.user_id is not None]
        if len(users) != len(set(users)):
            raise ValueError("a user may hold only one seat in a game")
        teams = [s.team for s in self.seats]
        if any(t is None for t in teams) and any(t is not None for t in teams):
            raise ValueError("either every seat has a team or none has")
        if teams[0] is not None and len(set(teams)) < 2:
            raise ValueError("a team game needs at least two teams")
        if len(set(self.finishing_order)) != len(self.finishing_order):
            raise ValueError("finishing_order repeats a seat")
        if any(s not in range(n) for s in self.finishing_order + self.losing_seats):
            raise ValueError("finishing_order/losing_seats name a seat that does not exist")
        if len(set(self.losing_seats)) != len(self.losing_seats):
            raise ValueError("losing_seats repeats a seat")
        if self.ended_at < self.started_at:
            raise ValueError("ended_at is before started_at")
        if self.durak_seat is None:
            if self.losing_seats:
                raise ValueError("a draw (durak_seat None) has no losing_seats")
            return self
        self._check_loss()
        return self

    def _check_loss(self) -> None:
        durak = self.durak_seat
        assert durak is not None
        if durak not in range(len(self.seats)):
            raise ValueError(f"durak_seat {durak} does not exist")
        team = self.seats_by_number[durak].team
        expected = {durak} if team is None else {s.seat for s in self.seats if s.team == team}
        if set(self.losing_seats) != expected:
            raise ValueError(
                f"losing_seats must be {sorted(expected)} (the Durak or the Durak's team)"
            )
        # The Durak never goes out; an engine may still list it last.
        if durak in self.finishing_order[:-1]:
            raise ValueError("the Durak can only appear last in finishing_order")
        if not self.finishing_order or self.finishing_order[0] == durak:
            raise ValueError("a game with a Durak needs a first player out who is not the Durak")

    @property
    def seats_by_number(self) -> dict[int, SeatRecord]:
        return {s.seat: s for s in self.seats}

    @property
    def is_draw(self) -> bool:
        return self.durak_seat is None


class SavedTable(Frozen):
    """A table that a restarted bot must resume: opaque engine state plus metadata."""

    table_id: str = Field(min_length=1)
    guild_id: int
    channel_id: int
    thread_id: int | None = None
    lobby_message_id: int | None = None
    table_message_id: int | None = None
    state_json: str
    meta: dict[str, object] = Field(default_factory=dict)
    status: TableStatus
    version: int = Field(ge=0)

    _meta_json = field_validator("meta")(json_safe)


class PlayerStats(Frozen):
    """A player's aggregates in one guild, or across guilds when ``guild_id`` is None.

    A user with no recorded game gets all-zero stats and ``rating=None``.
    """

    user_id: int
    guild_id: int | None
    display_name: str | None
    games: int = 0
    wins: int = 0
    losses: int = 0
    draws: int = 0
    series_won: int = 0
    series_lost: int = 0
    current_streak: int = 0
    best_streak: int = 0
    rating: float | None = None
    mu: float | None = None
    sigma: float | None = None
    #: Assisted games played (practice tables): counted here only, in none of the above.
    assisted_games: int = 0

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0


class LeaderboardEntry(Frozen):
    rank: int
    kind: Literal["human", "ai"]
    user_id: int | None
    ai_level: str | None
    display_name: str
    games: int
    wins: int
    losses: int
    draws: int
    win_rate: float
    rating: float
    best_streak: int


class LeaderboardPage(Frozen):
    """One page of a leaderboard. A page past the end has no entries (not an error)."""

    entries: list[LeaderboardEntry]
    page: int
    pages: int
    total: int


class GameSummary(Frozen):
    """A finished game without its action log (a line of ``/durak history``)."""

    game_id: str
    guild_id: int
    channel_id: int
    table_id: str
    series_id: str
    game_number: int
    started_at: datetime
    ended_at: datetime
    seats: list[SeatRecord]
    finishing_order: list[int]
    durak_seat: int | None
    losing_seats: list[int]
    tournament: TournamentLink | None = None
    #: Played at a practice table (``GameRecord.assisted``).
    assisted: bool = False

    @property
    def is_draw(self) -> bool:
        return self.durak_seat is None


class PuzzleTry(Frozen):
    """A finished try at a server's daily puzzle (``day``: days since 1970-01-01, UTC)."""

    guild_id: int
    day: int
    user_id: int
    puzzle_number: int
    solved: bool
    at: datetime

    _utc_at = field_validator("at")(utc)


class PuzzleStreak(Frozen):
    """Consecutive days with a daily puzzle solved (in any server): ``current`` counts back
    from today, or from yesterday while today's is still to do; ``best`` ever."""

    current: int = 0
    best: int = 0
    solved: int = 0
