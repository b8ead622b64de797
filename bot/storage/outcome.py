"""Backend-independent scoring of a finished game: places, R21 results, ratings.

Kept free of SQL so a PostgreSQL backend computes exactly the same numbers.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass, field

from openskill.models import PlackettLuce

from .models import GameRecord, SeatResult

_MODEL = PlackettLuce()
DEFAULT_MU: float = _MODEL.mu
DEFAULT_SIGMA: float = _MODEL.sigma


@dataclass(frozen=True, slots=True)
class Rating:
    mu: float
    sigma: float

    @property
    def ordinal(self) -> float:
        """Conservative display rating (mu - 3 sigma), as openskill defines it."""
        return self.mu - 3.0 * self.sigma


DEFAULT_RATING = Rating(DEFAULT_MU, DEFAULT_SIGMA)


@dataclass(frozen=True, slots=True)
class RatingChange:
    """A player's rating in the game's guild (the ordinal, as the leaderboard shows it) before
    and after one game."""

    before: float
    after: float

    @property
    def delta(self) -> float:
        return self.after - self.before


@dataclass(frozen=True, slots=True)
class RecordedGame:
    """What ``record_game`` did: the game's id and, when this call stored it, the rating change
    of every human seat (by seat number). Empty when the game had been stored already (by an
    earlier try, or another process): the change is then not known here."""

    game_id: str
    ratings: Mapping[int, RatingChange] = field(default_factory=dict)


def rating_changes(
    rec: GameRecord, prior: Mapping[str, Rating], new: Mapping[str, Rating]
) -> dict[int, RatingChange]:
    """The change of each human seat's rating: an AI level's rating is nobody's to show."""
    return {
        seat.seat: RatingChange(
            prior.get(seat.player_key, DEFAULT_RATING).ordinal, new[seat.player_key].ordinal
        )
        for seat in rec.seats
        if seat.kind == "human"
    }


@dataclass(frozen=True, slots=True)
class SeatOutcome:
    seat: int
    player_key: str
    place: int  # 1 = best; equal places tie (a draw puts everyone at 1)
    result: SeatResult

    @property
    def win(self) -> int:
        return int(self.result == "win")

    @property
    def loss(self) -> int:
        return int(self.result == "loss")

    @property
    def draw(self) -> int:
        return int(self.result == "draw")


def seat_places(rec: GameRecord) -> dict[int, int]:
    """Place of every seat: finishing order first, the unlisted next, the losers last."""
    n_out = len(rec.finishing_order)
    places: dict[int, int] = {}
    for seat in rec.seats:
        if rec.is_draw:
            places[seat.seat] = 1
        elif seat.seat in rec.losing_seats:
            places[seat.seat] = n_out + 2
        elif seat.seat in rec.finishing_order:
            places[seat.seat] = rec.finishing_order.index(seat.seat) + 1
        else:
            places[seat.seat] = n_out + 1
    return places


def seat_outcomes(rec: GameRecord) -> list[SeatOutcome]:
    """R21: first out wins, each losing seat loses, a draw scores nothing."""
    places = seat_places(rec)
    first_out = None if rec.is_draw else rec.finishing_order[0]
    out: list[SeatOutcome] = []
    for seat in rec.seats:
        result: SeatResult
        if rec.is_draw:
            result = "draw"
        elif seat.seat in rec.losing_seats:
            result = "loss"
        elif seat.seat == first_out:
            result = "win"
        else:
            result = "played"
        out.append(SeatOutcome(seat.seat, seat.player_key, places[seat.seat], result))
    return out


def rate_game(rec: GameRecord, prior: dict[str, Rating]) -> dict[str, Rating]:
    """New ratings of every player key in the game (PlackettLuce, teams supported).

    ``prior`` maps player key -> current rating; missing keys start at the default.
    An AI level seated twice is rated per seat and its updates averaged, since one
    key cannot hold two ratings.
    """
    places = seat_places(rec)
    groups: dict[object, list[int]] = defaultdict(list)
    for seat in rec.seats:
        # Without teams every seat is its own openskill "team".
        groups[seat.team if seat.team is not None else ("seat", seat.seat)].append(seat.seat)
    team_seats = list(groups.values())
    by_num = rec.seats_by_number
    teams = [
        [
            _MODEL.rating(
                mu=prior.get(by_num[s].player_key, DEFAULT_RATING).mu,
                sigma=prior.get(by_num[s].player_key, DEFAULT_RATING).sigma,
            )
            for s in seats
        ]
        for seats in team_seats
    ]
    # A team is as good as its best finisher; the Durak's team holds the worst place.
    ranks = [float(min(places[s] for s in seats)) for seats in team_seats]
    rated = _MODEL.rate(teams, ranks=ranks)
    updates: dict[str, list[Rating]] = defaultdict(list)
    for seats, new_team in zip(team_seats, rated, strict=True):
        for s, r in zip(seats, new_team, strict=True):
            updates[by_num[s].player_key].append(Rating(r.mu, r.sigma))
    return {
        key: Rating(sum(r.mu for r in rs) / len(rs), sum(r.sigma for r in rs) / len(rs))
        for key, rs in updates.items()
    }
