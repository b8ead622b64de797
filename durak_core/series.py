"""A series of games at one table: scores (R21), the next dealer (R22), its end (V17).

>>> from durak_core import RuleSet
>>> s = Series(RuleSet(series_losses=2), seats=3)
>>> s.next_dealer(), s.first_game
(None, True)
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .errors import RulesError
from .result import GameResult
from .rules import RuleSet


@dataclass
class Series:
    """Mutable bookkeeping of a series (it lives in the bot's table, not in a game state)."""

    rules: RuleSet
    seats: int
    wins: list[int] = field(default_factory=list)
    losses: list[int] = field(default_factory=list)
    games: int = 0
    draws: int = 0
    last_dealer: int | None = None
    last_durak: int | None = None

    def __post_init__(self) -> None:
        self.rules.check_seats(self.seats)
        if not self.wins:
            self.wins = [0] * self.seats
        if not self.losses:
            self.losses = [0] * self.seats

    @property
    def first_game(self) -> bool:
        return self.games == 0

    def record(self, result: GameResult, dealer: int) -> None:
        """R21: add a finished game's points."""
        if self.finished:
            raise RulesError("V17: the series is over")
        self.games += 1
        self.last_dealer = dealer
        if result.is_draw:
            self.draws += 1
        for seat, p in enumerate(result.points):
            self.wins[seat] += p.wins
            self.losses[seat] += p.losses
        self.last_durak = result.durak if not result.is_draw else None
        if result.losers and result.durak is None:  # V7: several of a team left
            self.last_durak = result.losers[0]

    def next_dealer(self) -> int | None:
        """R22: the previous Durak deals; after a draw the deal passes left; None for the first
        game (the engine draws the dealer from the seed, R8)."""
        if self.games == 0:
            return None
        if self.last_durak is not None:
            return self.last_durak
        assert self.last_dealer is not None
        return (self.last_dealer + 1) % self.seats

    @property
    def finished(self) -> bool:
        """V17: someone has been the Durak ``series_losses`` times (never, when 0)."""
        n = self.rules.series_losses
        return bool(n) and max(self.losses) >= n
