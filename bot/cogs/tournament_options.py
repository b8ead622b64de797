"""``/durak tournament new``'s options: the deadline (a Discord timestamp or an ISO date), the
settings of the tournament core and the table options of its tables."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, datetime

from discord import app_commands

from bot.events.options import TableOptions
from bot.tables.refusals import Refusal, Rejected
from bot.text.translator import ls
from bot.tournaments import Format, MatchLength, SettingsError, TournamentSettings

from .new_table import NewTable

FORMAT_CHOICES = [app_commands.Choice(name=ls(f"tformat.{f}"), value=f.value) for f in Format]
#: A Discord timestamp as a user pastes it: <t:1234567890> or <t:1234567890:R>.
TIMESTAMP = re.compile(r"^<t:(?P<seconds>-?\d{1,12})(?::[tTdDfFR])?>$")
#: The options in their order (their localised names and descriptions are keyed by these).
TOURNAMENT_OPTIONS = (
    "name", "format", "table_size", "games", "losses", "timer", "rounds", "limit", "deadline",
    "ai_fill", "preset", "transfer", "deck", "first_five", "neighbours", "language",
)  # fmt: skip
#: Option names already in the catalogue under ``pname.*`` / ``opt.*`` (shared with /durak new).
SHARED = frozenset({"preset", "transfer", "deck", "first_five", "neighbours", "language"})


def option_key(kind: str, name: str) -> str:
    """``pname.timer`` for a shared option, ``pname.t_games`` for one of the tournament's."""
    return f"{kind}.{name}" if name in SHARED else f"{kind}.t_{name}"


def parse_deadline(text: str | None, now: datetime) -> datetime | None:
    """None (start by hand), or an aware UTC time in the future. Refusals: ``Rejected`` for
    text that is no time, the core's ``deadline_past`` for a past one."""
    if text is None or not text.strip():
        return None
    raw = text.strip()
    found = TIMESTAMP.match(raw)
    try:
        if found is not None:
            when = datetime.fromtimestamp(int(found["seconds"]), UTC)
        else:
            when = datetime.fromisoformat(raw.replace("Z", "+00:00"))
            if when.tzinfo is None:
                when = when.replace(tzinfo=UTC)
    except (ValueError, OverflowError, OSError):
        raise Rejected(Refusal.BAD_DEADLINE) from None
    if when <= now:
        raise SettingsError("deadline_past", "the sign-up deadline has already passed")
    return when.astimezone(UTC)


@dataclass(frozen=True, slots=True)
class NewTournamentAsk:
    name: str
    format: str
    table_size: int
    games: int | None
    losses: int | None
    rounds: int | None
    limit: int
    ai_fill: bool

    def settings(self) -> TournamentSettings:
        """Raises the core's ``SettingsError`` for settings that make no tournament."""
        if self.games is not None and self.losses is not None:
            raise Rejected(Refusal.MATCH_BOTH)
        match = (
            MatchLength.losses(self.losses)
            if self.losses is not None
            else MatchLength.games(self.games or 1)
        )
        return TournamentSettings(
            self.name,
            Format(self.format),
            table_size=self.table_size,
            match=match,
            rounds=self.rounds,
            player_limit=self.limit,
            ai_fill=self.ai_fill,
        )


def table_options(
    settings: TournamentSettings, rules_asked: NewTable, timer: int, language: str
) -> TableOptions:
    return TableOptions.made(rules_asked.rules(), timer, language, settings)
