"""Whether a Swiss field fits its tables: without AI seats, the players a table size leaves over
sit out every round with a bye (7 players at 4-seat tables: one table, three byes, every
round). The organiser is warned at the start, with what would seat everyone (issue #30 bug 12).

>>> fit = seating_fit(TournamentSettings("Cup", Format.SWISS, table_size=4), 7)
>>> fit.byes, fit.better_size
(3, 3)
>>> seating_fit(TournamentSettings("Cup", Format.SWISS, table_size=4), 9) is None
True
"""

from __future__ import annotations

from dataclasses import dataclass

from .configuration import Format, TournamentSettings

#: Byes a round may leave without a warning (one player sitting out is what an odd field does).
QUIET_BYES = 1
TABLE_SIZES = range(2, 7)


@dataclass(frozen=True, slots=True)
class SeatingFit:
    byes: int  # players without a table each round
    better_size: int | None  # the nearest table size that leaves at most one, if any


def seating_fit(settings: TournamentSettings, entrants: int) -> SeatingFit | None:
    """None when the field fits (AI seats fill tables, a bracket, at most one bye a round)."""
    if settings.format is not Format.SWISS or settings.ai_fill:
        return None
    byes = entrants % settings.table_size
    if byes <= QUIET_BYES:
        return None
    fitting = [s for s in TABLE_SIZES if s <= entrants and entrants % s <= QUIET_BYES]
    better = min(fitting, key=lambda s: (abs(s - settings.table_size), -s), default=None)
    return SeatingFit(byes, better)
