"""The stored tournament: its record, entrants, rounds and paired tables, as the tournament
queries (``tournament_queries.py``) return them."""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum

from pydantic import ConfigDict, Field, field_validator

from bot.storage.models import MAX_SEATS, MIN_SEATS, Frozen, json_safe, utc
from bot.tournaments.logic import (
    Entrant,
    Override,
    OverrideKind,
    Pairing,
    SeatedTable,
    TournamentSettings,
)


class TournamentStatus(StrEnum):
    SIGNUP = "signup"
    RUNNING = "running"
    FINISHED = "finished"
    CANCELLED = "cancelled"


class RoundStatus(StrEnum):
    RUNNING = "running"
    FINISHED = "finished"


class NewTournament(Frozen):
    """A tournament as its organiser creates it (``create_tournament``). ``options``: the bot's
    table options for every table of the event (rule preset, turn timer, ...), which the
    tournament core does not hold. ``signup_deadline`` None: the organiser starts by hand."""

    model_config = ConfigDict(frozen=True, extra="forbid", arbitrary_types_allowed=True)

    tournament_id: str = Field(min_length=1, max_length=100)
    guild_id: int
    channel_id: int
    organiser_id: int
    settings: TournamentSettings
    options: dict[str, object] = Field(default_factory=dict)
    signup_deadline: datetime | None = None

    _options_json = field_validator("options")(json_safe)

    @field_validator("signup_deadline")
    @classmethod
    def _utc_deadline(cls, value: datetime | None) -> datetime | None:
        return None if value is None else utc(value)


class TournamentRecord(NewTournament):
    """A stored tournament. ``current_round``: the last round paired (0 before the first)."""

    status: TournamentStatus
    current_round: int = Field(ge=0)
    signup_message_id: int | None = None
    standings_message_id: int | None = None
    created_at: datetime
    started_at: datetime | None = None
    finished_at: datetime | None = None

    @property
    def name(self) -> str:
        return self.settings.name


class EntrantRecord(Frozen):
    """An entrant: the rating at sign-up and the sign-up position seed them (0 first)."""

    user_id: int
    rating: float
    signup_order: int = Field(ge=0)
    withdrawn: bool = False
    #: Confirmed in the check-in window (a tournament with check-in drops the others).
    checked_in: bool = False
    #: The organiser's seed by hand (0: by rating); the first round the entrant plays (above
    #: 1: joined late); the rounds they asked to sit out (issue #47). Kept in the
    #: tournament's options (``tournament_entrants``).
    seed: int = Field(default=0, ge=0)
    joined_round: int = Field(default=1, ge=1)
    rests: tuple[int, ...] = ()

    @property
    def entrant(self) -> Entrant:
        return Entrant(
            self.user_id, self.rating, self.signup_order, self.seed, self.joined_round, self.rests
        )


class TableOverride(Frozen):
    """The organiser's result of a paired table (``bot.tournaments.Override``): who recorded
    it, and when (the tournament's log and its export say so)."""

    kind: OverrideKind
    player: int
    by: int
    at: datetime


class PairedTable(Frozen):
    """A table of a round: who sits in each seat (None: an AI seat), the bot's table once it is
    opened, and the organiser's result if they recorded one."""

    number: int = Field(ge=1)
    seats: tuple[int | None, ...] = Field(min_length=MIN_SEATS, max_length=MAX_SEATS)
    bot_table_id: str | None = None
    override: TableOverride | None = None

    @property
    def seated(self) -> SeatedTable:
        return SeatedTable(self.number, self.seats)


class StoredRound(Frozen):
    """A stored round: its tables and byes, as paired."""

    number: int = Field(ge=1)
    status: RoundStatus
    tables: tuple[PairedTable, ...]
    byes: tuple[int, ...] = ()
    started_at: datetime
    finished_at: datetime | None = None

    @property
    def pairing(self) -> Pairing:
        return Pairing(self.number, tuple(t.seated for t in self.tables), self.byes)

    def overrides(self) -> dict[tuple[int, int], Override]:
        """The organiser's results of this round's tables, by (round, table)."""
        return {
            (self.number, t.number): Override(self.number, t.number, t.override.kind,
                                              t.override.player)
            for t in self.tables
            if t.override is not None
        }  # fmt: skip
