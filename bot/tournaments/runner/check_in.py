"""Check-in (issue #30): with ``check_in`` minutes set at creation, entrants confirm in that
window before the deadline; when it opens each one not yet checked in gets a reminder, and at
the start those who did not confirm are dropped before round 1 is paired, so nobody is rated
on games an AI played for them. Held in the tournament's options: the window's length and
whether its opening was announced (so a restart does not remind twice)."""

from __future__ import annotations

from datetime import datetime, timedelta

from bot.tournaments.storage import TournamentRecord

#: The options that hold it.
MINUTES, ANNOUNCED = "check_in_minutes", "check_in_announced"
HOUR_REMINDED = "check_in_hour_reminded"
#: A second reminder goes out this long before the deadline, when the window opened earlier.
LAST_HOUR = timedelta(hours=1)


def check_in_minutes(t: TournamentRecord) -> int:
    minutes = t.options.get(MINUTES)
    return minutes if isinstance(minutes, int) else 0


def opens_at(t: TournamentRecord) -> datetime | None:
    """When the check-in window opens (None: no check-in)."""
    minutes = check_in_minutes(t)
    if not minutes or t.signup_deadline is None:
        return None
    return t.signup_deadline - timedelta(minutes=minutes)


def window_open(t: TournamentRecord, now: datetime) -> bool:
    at = opens_at(t)
    return at is not None and now >= at


def announced(t: TournamentRecord) -> bool:
    return bool(t.options.get(ANNOUNCED))


def hour_left(t: TournamentRecord, now: datetime) -> bool:
    """The deadline is within the hour and the window opened before that hour began (else the
    window's own reminder came within the hour already)."""
    deadline = t.signup_deadline
    return (
        deadline is not None
        and check_in_minutes(t) > LAST_HOUR.total_seconds() // 60
        and now >= deadline - LAST_HOUR
    )
