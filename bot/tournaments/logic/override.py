"""A match result the organiser records instead of the games (issue #30 control 4): a table that
went wrong (a player who never came, a broken table) is decided by a walkover or a forfeit.

The match's places are then the override's, whatever games were played at the table:

* ``winner``: the named player takes first place; the other seats share the rest;
* ``forfeit``: the named player takes the last place; the other seats share the rest.

At a 2-seat table (a bracket, a round robin, a 2-seat Swiss) the two say the same thing from
either side: one player wins the match, the other loses it.

>>> Override(1, 2, OverrideKind.WINNER, 7).places((5, 7, None))
(Place(first=2, last=3), Place(first=1, last=1), Place(first=2, last=3))
>>> Override(1, 2, OverrideKind.FORFEIT, 7).places((5, 7))
(Place(first=1, last=1), Place(first=2, last=2))
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from .errors import ResultError
from .results import Place, Seat


class OverrideKind(StrEnum):
    WINNER = "winner"  # a walkover: the player wins the match without it being played out
    FORFEIT = "forfeit"  # the player loses the match without it being played out


@dataclass(frozen=True, slots=True)
class Override:
    """The organiser's result of round ``round``'s table ``table``."""

    round: int
    table: int
    kind: OverrideKind
    player: int

    def places(self, seats: Sequence[Seat]) -> tuple[Place, ...]:
        """Each seat's place in the match, as the override decides it."""
        n = len(seats)
        if self.player not in seats:
            raise ResultError(
                "override_seat",
                f"{self.player} does not sit at round {self.round} table {self.table}",
                player=self.player,
            )
        if self.kind is OverrideKind.WINNER:
            named, rest = Place(1, 1), Place(2, n)
        else:
            named, rest = Place(n, n), Place(1, n - 1)
        return tuple(named if s == self.player else rest for s in seats)

    def winner(self, seats: Sequence[Seat]) -> Seat:
        """The match's sole first place (a bracket goes on with them); None when the override
        leaves first place shared (a forfeit at a table of three or more)."""
        firsts = [s for s, p in zip(seats, self.places(seats), strict=True) if p == Place(1, 1)]
        return firsts[0] if len(firsts) == 1 else None
