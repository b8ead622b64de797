"""Games played at a tournament table, the match they make, its places and their points.

A game's places (R18, R20, R21): the finishing order, first out first, and the Durak last. A
drawn game (R20: nobody holds cards) gives no win and no loss to anyone, not even the first
player out (R21), so every seat shares all the places of the table.

A match is the games at one table in one round (:class:`MatchLength`). Its places rank the
seats by how often each was the Durak (fewest first, V17), then by the sum of their game places
(lowest first); seats equal on both share the places they cover.

Points at an n-seat table: place p earns n - p (first out n - 1, the Durak 0); a shared place
earns the mean of the places it covers, so points are always whole or halves.

>>> g = PlayedGame(round=1, table=1, seats=(7, 8, None), finishing_order=(2, 0), durak=1)
>>> [str(p) for p in TableResult.of((g,)).places()]
['2', '3', '1']
>>> d = PlayedGame(round=1, table=1, seats=(7, 8, None), finishing_order=(2, 0, 1), durak=None)
>>> [str(p) for p in TableResult.of((d,)).places()], TableResult.of((d,)).places()[0].points(3)
(['1–3', '1–3', '1–3'], Fraction(1, 1))
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from .configuration import MatchKind, MatchLength
from .errors import ResultError

Seat = int | None  # a player's user id, or None for an AI seat


@dataclass(frozen=True, slots=True, order=True)
class Place:
    """A finishing place, ``first`` to ``last`` (1-based, equal unless shared)."""

    first: int
    last: int

    @property
    def shared(self) -> bool:
        return self.first != self.last

    def points(self, seats: int) -> Fraction:
        """Place p of ``seats`` earns seats - p; a shared place the mean of those it covers."""
        return Fraction(2 * seats - self.first - self.last, 2)

    def __str__(self) -> str:
        return str(self.first) if not self.shared else f"{self.first}–{self.last}"


def bye_points(seats: int) -> Fraction:
    """A bye at 2-seat tables is worth a win, 1 point, as in the chess Swiss (issue #30); at
    larger tables the mean of a table's points, (n - 1) / 2, what an average place earns (a
    win there, n - 1, would outweigh most places played)."""
    return Fraction(1) if seats == 2 else Fraction(seats - 1, 2)


def half_bye_points(seats: int) -> Fraction:
    """A bye of half a win, as lichess's Swiss gives a late entrant (once, whatever the rounds
    missed), and this bot gives a requested bye too: what a drawn match earns, every place
    shared: ½ at 2-seat tables, (n - 1) / 2 at n-seat ones."""
    return Place(1, seats).points(seats)


@dataclass(frozen=True, slots=True)
class PlayedGame:
    """One finished game at a tournament table, as the bot stores it. ``seats``: who sat in each
    seat (None: an AI). ``finishing_order``: seat indices, first out first (R18); in a draw it
    holds every seat. ``durak``: the seat left holding cards, None for a draw (R20)."""

    round: int
    table: int
    seats: tuple[Seat, ...]
    finishing_order: tuple[int, ...]
    durak: int | None

    def __post_init__(self) -> None:
        n = len(self.seats)
        if not 2 <= n <= 6:
            raise ResultError("seat_count", f"a table has 2 to 6 seats, not {n}")
        humans = [s for s in self.seats if s is not None]
        if len(set(humans)) != len(humans):
            raise ResultError("seats_twice", "a player holds two seats at one table")
        named = [*self.finishing_order, *(() if self.durak is None else (self.durak,))]
        if sorted(named) != list(range(n)):
            raise ResultError(
                "finish",
                f"the finishing order and the Durak must name each of the {n} seats "
                f"once, not {named}",
            )

    @property
    def is_draw(self) -> bool:
        return self.durak is None

    def doubled_places(self) -> tuple[int, ...]:
        """Each seat's game place, doubled so that a draw's shared place is whole."""
        n = len(self.seats)
        if self.durak is None:
            return (n + 1,) * n
        places = [2 * n] * n
        for i, seat in enumerate(self.finishing_order):
            places[seat] = 2 * (i + 1)
        return tuple(places)


@dataclass(frozen=True, slots=True)
class TableResult:
    """The games of one match: one table in one round."""

    round: int
    table: int
    seats: tuple[Seat, ...]
    games: tuple[PlayedGame, ...]
    #: The organiser's result (``override.Override``), which the places are instead of the
    #: games' (games played before it stay listed: they were played, and rated).
    decided: tuple[Place, ...] | None = None

    def __post_init__(self) -> None:
        if self.decided is not None and len(self.decided) != len(self.seats):
            raise ResultError("finish", "an override must place every seat of its table")
        for g in self.games:
            if (g.round, g.table, g.seats) != (self.round, self.table, self.seats):
                raise ResultError(
                    "wrong_table",
                    f"a game of round {g.round} table {g.table} is not of round "
                    f"{self.round} table {self.table} with these seats",
                )

    @classmethod
    def of(cls, games: Sequence[PlayedGame]) -> TableResult:
        if not games:
            raise ResultError("no_games", "a match needs at least one game")
        g = games[0]
        return cls(g.round, g.table, g.seats, tuple(games))

    def durak_counts(self) -> tuple[int, ...]:
        counts = [0] * len(self.seats)
        for g in self.games:
            if g.durak is not None:
                counts[g.durak] += 1
        return tuple(counts)

    def places(self) -> tuple[Place, ...]:
        """Each seat's place in the match (see the module's text)."""
        if self.decided is not None:
            return self.decided
        n = len(self.seats)
        sums = [0] * n
        for g in self.games:
            for seat, p in enumerate(g.doubled_places()):
                sums[seat] += p
        durak = self.durak_counts()
        keys = [(durak[s], sums[s]) for s in range(n)]
        return tuple(
            Place(
                1 + sum(k < keys[s] for k in keys),
                sum(k <= keys[s] for k in keys),
            )
            for s in range(n)
        )

    def is_over(self, length: MatchLength, decisive: bool = False) -> bool:
        """Whether the match has been played out. ``decisive`` (single elimination): a match
        whose first place is shared goes on, one deciding game after another."""
        if self.decided is not None:
            return True
        if length.kind is MatchKind.GAMES:
            over = len(self.games) >= length.count
        else:
            over = bool(self.games) and max(self.durak_counts()) >= length.count
        return over and not (decisive and any(p.first == 1 and p.shared for p in self.places()))
