"""A tournament's settings, validated once when they are made.

>>> s = TournamentSettings("Friday cup", Format.SWISS, table_size=4, match=MatchLength.games(1))
>>> s.rounds_for(16), s.rounds_for(17), s.max_rounds(16)
(2, 3, 5)
>>> TournamentSettings("Cup", Format.SINGLE_ELIMINATION, table_size=4)
Traceback (most recent call last):
...
bot.tournaments.logic.errors.SettingsError: single elimination needs 2-seat tables, not 4
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum
from typing import Final

from durak_core.rules import MAX_SEATS, MIN_SEATS  # R3

from .errors import SettingsError
from .fresh import fresh_rounds

MIN_ENTRANTS: Final = 2
MAX_ENTRANTS: Final = 64
MAX_ROUNDS: Final = 15
MAX_GAMES_PER_MATCH: Final = 9
MAX_LOSSES_PER_MATCH: Final = 5
MAX_NAME_LENGTH: Final = 80  # it titles the sign-up message and labels a select option
#: The check-in window before the deadline, in minutes, and the longest break between rounds.
MIN_CHECK_IN_MINUTES: Final = 5
MAX_CHECK_IN_MINUTES: Final = 240
MAX_BREAK_MINUTES: Final = 60
#: A round robin: every pair meets once at 2-seat tables, n - 1 rounds (n with a bye each):
#: from 3 players (a round robin of two is one match) to 8 (7 rounds, an evening).
MIN_ROUND_ROBIN: Final = 3
MAX_ROUND_ROBIN: Final = 8


class Format(StrEnum):
    SINGLE_ELIMINATION = "single_elimination"
    SWISS = "swiss"
    ROUND_ROBIN = "round_robin"


class MatchKind(StrEnum):
    GAMES = "games"  # a fixed number of games
    LOSSES = "losses"  # V17: until one player has been the Durak N times


@dataclass(frozen=True, slots=True)
class MatchLength:
    """How long the match at one table lasts: ``count`` games, or until one player has been the
    Durak ``count`` times (V17)."""

    kind: MatchKind
    count: int

    def __post_init__(self) -> None:
        top = MAX_GAMES_PER_MATCH if self.kind is MatchKind.GAMES else MAX_LOSSES_PER_MATCH
        if not 1 <= self.count <= top:
            what = "games per match" if self.kind is MatchKind.GAMES else "losses per match"
            raise SettingsError(
                "match_length",
                f"{what} must be 1 to {top}, not {self.count}",
                kind=str(self.kind),
                count=self.count,
                maximum=top,
            )

    @classmethod
    def games(cls, count: int) -> MatchLength:
        return cls(MatchKind.GAMES, count)

    @classmethod
    def losses(cls, count: int) -> MatchLength:
        return cls(MatchKind.LOSSES, count)


@dataclass(frozen=True, slots=True)
class TournamentSettings:
    """``rounds``: Swiss only; None means the default for the entrant count (:meth:`rounds_for`).
    ``ai_fill``: Swiss only; AI seats fill the places an uneven entrant count leaves, instead of
    byes. The rule preset and the turn timer are the bot's table options, not held here."""

    name: str
    format: Format
    table_size: int = 2
    match: MatchLength = field(default_factory=lambda: MatchLength.games(1))
    rounds: int | None = None
    player_limit: int = MAX_ENTRANTS
    ai_fill: bool = False

    def __post_init__(self) -> None:
        name = self.name.strip()
        if not name or len(name) > MAX_NAME_LENGTH:
            raise SettingsError(
                "name",
                f"the name must have 1 to {MAX_NAME_LENGTH} characters",
                maximum=MAX_NAME_LENGTH,
            )
        object.__setattr__(self, "name", name)
        if not MIN_SEATS <= self.table_size <= MAX_SEATS:
            raise SettingsError(
                "table_size",
                f"tables have {MIN_SEATS} to {MAX_SEATS} seats (R3), not {self.table_size}",
                size=self.table_size,
                min=MIN_SEATS,
                max=MAX_SEATS,
            )
        if not MIN_ENTRANTS <= self.player_limit <= MAX_ENTRANTS:
            raise SettingsError(
                "player_limit",
                f"the player limit must be {MIN_ENTRANTS} to {MAX_ENTRANTS}, "
                f"not {self.player_limit}",
                limit=self.player_limit,
                maximum=MAX_ENTRANTS,
            )
        if self.format is Format.SINGLE_ELIMINATION:
            self._check_elimination()
        elif self.format is Format.ROUND_ROBIN:
            self._check_round_robin()
        else:
            self._check_swiss()

    def _check_two_seats(self, code: str, played: str) -> None:
        """The formats that pair players one against one (``played``: the format in words)."""
        if self.table_size != 2:
            size = self.table_size
            raise SettingsError(code, f"{played} is played at 2-seat tables, not {size}", size=size)

    def _check_round_robin(self) -> None:
        self._check_two_seats("round_robin_seats", "a round robin")
        if self.rounds is not None or self.ai_fill:
            raise SettingsError(
                "round_robin_rounds",
                "a round robin plays every pair once: rounds and AI seats cannot be set",
            )
        if not MIN_ROUND_ROBIN <= self.player_limit <= MAX_ROUND_ROBIN:
            raise SettingsError(
                "round_robin_limit",
                f"a round robin takes {MIN_ROUND_ROBIN} to {MAX_ROUND_ROBIN} players, "
                f"not a limit of {self.player_limit}",
                limit=self.player_limit,
                low=MIN_ROUND_ROBIN,
                high=MAX_ROUND_ROBIN,
            )

    def _check_elimination(self) -> None:
        self._check_two_seats("elimination_seats", "single elimination")
        if self.rounds is not None:
            raise SettingsError(
                "elimination_rounds",
                "single elimination has as many rounds as its bracket; rounds cannot be set",
            )
        if self.ai_fill:
            raise SettingsError(
                "elimination_ai",
                "single elimination gives byes to the top seeds; AI seats "
                "fill places only in Swiss",
            )

    def _check_swiss(self) -> None:
        if self.rounds is not None and not 1 <= self.rounds <= MAX_ROUNDS:
            raise SettingsError(
                "rounds",
                f"rounds must be 1 to {MAX_ROUNDS}, not {self.rounds}",
                rounds=self.rounds,
                maximum=MAX_ROUNDS,
            )
        if self.player_limit < self.table_size and not self.ai_fill:
            raise SettingsError(
                "limit_below_table",
                f"a limit of {self.player_limit} cannot fill a "
                f"{self.table_size}-seat table without AI seats",
                limit=self.player_limit,
                size=self.table_size,
            )

    def min_entrants(self) -> int:
        """The fewest entrants that can start: one full table, or two humans when AI seats may
        fill the rest; three for a round robin."""
        if self.format is Format.ROUND_ROBIN:
            return MIN_ROUND_ROBIN
        return 2 if self.ai_fill else self.table_size

    def max_rounds(self, entrants: int) -> int:
        """Swiss: the most rounds that still make sense, as many as a player can play while
        meeting new opponents (each round seats them with ``table_size - 1``); at least 1."""
        return max(1, min(MAX_ROUNDS, (entrants - 1) // (self.table_size - 1)))

    def rounds_for(self, entrants: int) -> int:
        """The number of rounds for ``entrants`` players. Single elimination: the bracket's
        depth, ceil(log2(entrants)). Round robin: n - 1, or n when odd. Swiss: the chosen
        number, else the fewest rounds after which only one player can have won every round,
        ceil(log_n(entrants)) at n-seat tables (the winners of a round meet at the top tables
        of the next), at most :meth:`max_rounds`."""
        if self.format is Format.SINGLE_ELIMINATION:
            return max(1, (entrants - 1).bit_length())
        if self.format is Format.ROUND_ROBIN:  # each plays every other once; odd: a bye each
            return entrants if entrants % 2 else entrants - 1
        if self.rounds is not None:
            return self.rounds
        depth, reach = 1, self.table_size
        while reach < entrants:
            depth, reach = depth + 1, reach * self.table_size
        return self.fresh_rounds(entrants, min(depth, self.max_rounds(entrants)))

    def fresh_rounds(self, entrants: int, wanted: int) -> int:
        """Swiss: how many of ``wanted`` rounds seat everyone with new opponents only (issue
        #47 item 4, :func:`~bot.tournaments.logic.fresh.fresh_rounds`)."""
        return fresh_rounds(max(entrants, 2), self.table_size, self.ai_fill, wanted)


def check_deadline(deadline: datetime | None, now: datetime) -> None:
    """A sign-up deadline must lie in the future (None: the organiser starts by hand). ``now``
    is the caller's clock; this module has none."""
    if deadline is not None and deadline <= now:
        raise SettingsError("deadline_past", "the sign-up deadline has already passed")
