"""``/durak-tournament new``'s options: the deadline (a Discord timestamp or an ISO date), the
settings of the tournament core and the table options of its tables."""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta

from discord import app_commands
from discord.app_commands import locale_str

from bot.cogs.new_table import NewTable
from bot.tables.refusals import Refusal, Rejected
from bot.text.translator import ls
from bot.tournaments.logic import (
    Format,
    MatchLength,
    SettingsError,
    SignupError,
    TournamentSettings,
)
from bot.tournaments.logic.configuration import MAX_ENTRANTS, MAX_ROUND_ROBIN, MIN_ENTRANTS
from bot.tournaments.runner.entrants import BYE_LIMIT, LATE_JOIN
from bot.tournaments.runner.options import TableOptions
from bot.tournaments.runner.tournament_runner import BREAK
from durak_core.rules import MAX_SEATS, MIN_SEATS

FORMAT_CHOICES = [app_commands.Choice(name=ls(f"tformat.{f}"), value=f.value) for f in Format]
#: A Discord timestamp as a user pastes it: <t:1234567890> or <t:1234567890:R>.
TIMESTAMP = re.compile(r"^<t:(?P<seconds>-?\d{1,12})(?::[tTdDfFR])?>$")
#: Unix seconds (9 to 11 digits: 1973 to 5138; the range check refuses the absurd).
UNIX = re.compile(r"^\d{9,11}$")
#: A delay: "in 2h", "90m", "1d 6h", "2h30m", "in 59s" (too soon: refused as such).
DELAY = re.compile(
    r"^(?:in\s+)?(?:(\d{1,3})\s*d)?\s*(?:(\d{1,4})\s*h)?\s*(?:(\d{1,5})\s*(?:m|min))?"
    r"\s*(?:(\d{1,7})\s*(?:s|sec))?$",
    re.IGNORECASE,
)
#: A time of day, in UTC: "20:00", "8:30".
TIME_OF_DAY = re.compile(r"^(?P<h>[01]?\d|2[0-3]):(?P<m>[0-5]\d)$")
DATE_ONLY = re.compile(r"^\d{4}-\d{2}-\d{2}$")
#: How far ahead a deadline may be: at least a minute (time to join), at most 60 days.
MIN_LEAD, MAX_LEAD = timedelta(minutes=1), timedelta(days=60)
#: The options in their order (their localised names and descriptions are keyed by these).
TOURNAMENT_OPTIONS = (
    "name", "format", "table_size", "games", "losses", "timer", "rounds", "limit", "deadline",
    "ai_fill", "preset", "transfer", "deck", "first_five", "neighbours", "language", "check_in",
    "decider", "late_join", "break_minutes",
)  # fmt: skip
#: Option names already in the catalogue under ``pname.*`` / ``opt.*`` (shared with /durak new).
SHARED = frozenset({"preset", "transfer", "deck", "first_five", "neighbours", "language"})


#: The numbers an option's description states, from where they are defined.
OPTION_FACTS: dict[str, dict[str, object]] = {
    "table_size": {"min": MIN_SEATS, "max": MAX_SEATS},
    "limit": {"min": MIN_ENTRANTS, "max": MAX_ENTRANTS},
}


def option_text(name: str) -> locale_str:
    """An option's description, the numbers it states filled in."""
    return ls(option_key("opt", name), **OPTION_FACTS.get(name, {}))


def option_key(kind: str, name: str) -> str:
    """``pname.timer`` for a shared option, ``pname.t_games`` for one of the tournament's."""
    return f"{kind}.{name}" if name in SHARED else f"{kind}.t_{name}"


def parse_deadline(text: str | None, now: datetime) -> datetime | None:
    """None (start by hand), or an aware UTC time between a minute and 60 days from ``now``.

    Accepted (issue #30 bug 8): a Discord timestamp (``<t:1767225600:F>``), Unix seconds, an
    ISO date and time (with an offset; without one, UTC), a time of day in UTC (``20:00``:
    the next one to come) and a delay (``in 2h``, ``90m``, ``1d 6h``). Refusals: ``Rejected``
    for text that is no time (a date alone is none: which hour?), the core's
    ``deadline_past`` / ``deadline_soon`` / ``deadline_far`` for a time out of range."""
    if text is None or not text.strip():
        return None
    when = _read_deadline(text.strip(), now)
    if when is None:
        raise Rejected(Refusal.BAD_DEADLINE)
    if when <= now:
        raise SettingsError("deadline_past", "the sign-up deadline has already passed")
    if when - now < MIN_LEAD:
        raise SettingsError("deadline_soon", "the deadline must be at least a minute away")
    if when - now > MAX_LEAD:
        raise SettingsError("deadline_far", "the deadline must be within 60 days", days=60)
    return when.astimezone(UTC)


def _read_deadline(raw: str, now: datetime) -> datetime | None:
    try:
        if (found := TIMESTAMP.match(raw)) is not None:
            return datetime.fromtimestamp(int(found["seconds"]), UTC)
        if UNIX.match(raw):
            return datetime.fromtimestamp(int(raw), UTC)
        if (found := DELAY.match(raw)) is not None and any(found.groups()):
            days, hours, minutes, seconds = (int(x or 0) for x in found.groups())
            return now + timedelta(days=days, hours=hours, minutes=minutes, seconds=seconds)
        if (found := TIME_OF_DAY.match(raw)) is not None:
            at = now.astimezone(UTC).replace(
                hour=int(found["h"]), minute=int(found["m"]), second=0, microsecond=0
            )
            return at if at > now else at + timedelta(days=1)
        if DATE_ONLY.match(raw):
            return None
        when = datetime.fromisoformat(raw.replace("Z", "+00:00"))
    except (ValueError, OverflowError, OSError):
        return None
    return when if when.tzinfo is not None else when.replace(tzinfo=UTC)


def default_limit(fmt: Format) -> int:
    """A round robin takes at most 8 players; the other formats 64."""
    return MAX_ROUND_ROBIN if fmt is Format.ROUND_ROBIN else MAX_ENTRANTS


@dataclass(frozen=True, slots=True)
class NewTournamentAsk:
    name: str
    format: str
    table_size: int
    games: int | None
    losses: int | None
    rounds: int | None
    limit: int | None  # None: the most the format takes
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
            player_limit=self.limit or default_limit(Format(self.format)),
            ai_fill=self.ai_fill,
        )


#: What ``/durak-tournament edit`` may change before the start.
EDITABLE = ("name", "deadline", "limit", "rounds", "timer", "late_join", "break_minutes", "byes")


def controls(
    settings: TournamentSettings, late_join: int | None, break_minutes: int | None, byes: int | None
) -> dict[str, object]:
    """The options of issue #47's controls that were given: the last round a late entrant
    may start with (Swiss and round robin only), the break between rounds in minutes, the
    byes a Swiss player may ask for."""
    if late_join and settings.format is Format.SINGLE_ELIMINATION:
        raise SettingsError("late_elimination", "a bracket takes no late entrants")
    if byes and settings.format is not Format.SWISS:
        raise SettingsError("bye_swiss", "only a Swiss gives byes on request")
    given = {LATE_JOIN: late_join, BREAK: break_minutes, BYE_LIMIT: byes}
    return {key: value for key, value in given.items() if value is not None}


@dataclass(frozen=True, slots=True)
class TournamentEdit:
    """The organiser's changes (None: unchanged). The deadline is parsed on its own."""

    name: str | None
    limit: int | None
    rounds: int | None
    timer: int | None

    def settings(self, now: TournamentSettings, entrants: int) -> TournamentSettings:
        """The edited settings: the core's ``SettingsError`` for settings that make no
        tournament, ``limit_below_entrants`` for a limit under those who have joined."""
        edited = replace(
            now,
            name=now.name if self.name is None else self.name,
            player_limit=now.player_limit if self.limit is None else self.limit,
            rounds=now.rounds if self.rounds is None else self.rounds,
        )
        if edited.player_limit < entrants:
            raise SignupError(
                "limit_below_entrants",
                "more have joined than the limit",
                limit=edited.player_limit,
                count=entrants,
            )
        return edited

    def options(self) -> dict[str, object]:
        return {} if self.timer is None else {"turn_timer": self.timer}


def table_options(
    settings: TournamentSettings, rules_asked: NewTable, timer: int, language: str
) -> TableOptions:
    return TableOptions.made(rules_asked.rules(), timer, language, settings)
