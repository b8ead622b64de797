"""The result of a finished game (R18, R20, R21)."""

from __future__ import annotations

from dataclasses import dataclass

from .board import Board


@dataclass(frozen=True, slots=True)
class SeatPoints:
    """R21 series points of one seat for one game."""

    wins: int
    losses: int
    played: int = 1


@dataclass(frozen=True, slots=True)
class GameResult:
    """``finishing_order``: seats that went out, first out first (R18). ``durak``: the one player
    left holding cards, or None. ``losers``: the Durak, or under V7 the Durak's whole team (also
    when several of its members are left); empty for a draw (R20). ``winners``: the first player
    out (and under V7 their team); empty for a draw (R21)."""

    finishing_order: tuple[int, ...]
    durak: int | None
    losers: tuple[int, ...]
    winners: tuple[int, ...]
    points: tuple[SeatPoints, ...]

    @property
    def is_draw(self) -> bool:
        return not self.losers


def game_result(s: Board) -> GameResult | None:
    """The result, or None while the game is running."""
    if not s.finished:
        return None
    remaining = tuple(t for t in range(s.n) if s.active >> t & 1)
    if not remaining:
        losers: tuple[int, ...] = ()
        winners: tuple[int, ...] = ()
    else:
        losing_team = s.teams[remaining[0]]
        losers = tuple(t for t in range(s.n) if s.teams[t] == losing_team)
        winning_team = s.teams[s.out[0]]
        winners = tuple(t for t in range(s.n) if s.teams[t] == winning_team)
    points = tuple(SeatPoints(wins=int(t in winners), losses=int(t in losers)) for t in range(s.n))
    return GameResult(
        finishing_order=tuple(s.out),
        durak=remaining[0] if len(remaining) == 1 else None,
        losers=losers,
        winners=winners,
        points=points,
    )
