"""Entrants and the sign-up rules, as values: every step returns a new :class:`Signup` or
raises a :class:`SignupError` and changes nothing.

>>> s = Signup(TournamentSettings("Cup", Format.SWISS, table_size=3))
>>> s = join(join(s, 11, rating=20.0), 12, rating=25.0)
>>> try:
...     start(s)
... except SignupError as e:
...     print(e.code, e.params["need"], e)
too_few 3 a Swiss at 3-seat tables needs at least 3 entrants; 2 have joined
>>> [e.player for e in seed_order(join(s, 13, rating=25.0).entrants)]
[12, 13, 11]
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace

from .configuration import Format, TournamentSettings
from .errors import SignupError


@dataclass(frozen=True, slots=True)
class Entrant:
    """``player``: the user id. ``rating``: what seeding sorts by (higher first). ``order``: the
    sign-up position (0 first), which breaks rating ties: the earlier entrant is seeded higher.
    ``seed``: the organiser's seed by hand (1 first; 0: by rating). ``joined``: the first round
    the entrant can play (above 1: a late entrant). ``rests``: the rounds they asked to sit
    out (a requested bye)."""

    player: int
    rating: float
    order: int
    seed: int = 0
    joined: int = 1
    rests: tuple[int, ...] = ()

    @property
    def late(self) -> bool:
        return self.joined > 1


def seed_order(entrants: Iterable[Entrant]) -> tuple[Entrant, ...]:
    """Seed 1 first: the organiser's seeds by hand in their order, then the others by rating,
    highest first; equal ratings by sign-up order, earliest first."""
    return tuple(sorted(entrants, key=lambda e: (not e.seed, e.seed, -e.rating, e.order)))


@dataclass(frozen=True, slots=True)
class Signup:
    settings: TournamentSettings
    entrants: tuple[Entrant, ...] = ()
    started: bool = False
    joined_count: int = 0  # sign-ups ever, so an entrant who leaves and rejoins goes last

    def has(self, player: int) -> bool:
        return any(e.player == player for e in self.entrants)

    @property
    def players(self) -> tuple[int, ...]:
        return tuple(e.player for e in self.entrants)


def _check_open(s: Signup) -> None:
    if s.started:
        raise SignupError("started", "the tournament has already started")


def join(s: Signup, player: int, rating: float) -> Signup:
    _check_open(s)
    if s.has(player):
        raise SignupError("already_joined", "you have already joined", player=player)
    limit = s.settings.player_limit
    if len(s.entrants) >= limit:
        raise SignupError("full", f"the tournament is full ({limit} players)", limit=limit)
    entrant = Entrant(player, rating, s.joined_count)
    return replace(s, entrants=(*s.entrants, entrant), joined_count=s.joined_count + 1)


def leave(s: Signup, player: int) -> Signup:
    """Before the start only; afterwards a player is withdrawn (their results stay)."""
    if s.started:
        raise SignupError("leave_started", "you cannot leave a tournament that has started")
    if not s.has(player):
        raise SignupError("not_joined", "you have not joined", player=player)
    return replace(s, entrants=tuple(e for e in s.entrants if e.player != player))


def check_start(s: Signup) -> None:
    """Why the tournament cannot start now, as a :class:`SignupError`; None if it can."""
    _check_open(s)
    settings, count = s.settings, len(s.entrants)
    need = settings.min_entrants()
    if count < need:
        if settings.format is Format.SINGLE_ELIMINATION:
            what = "single elimination"
        else:
            what = f"a Swiss at {settings.table_size}-seat tables"
        raise SignupError(
            "too_few",
            f"{what} needs at least {need} entrants; {count} have joined",
            need=need,
            count=count,
            size=settings.table_size,
        )
    rounds = settings.rounds
    if (
        settings.format is Format.SWISS
        and rounds is not None
        and rounds > settings.max_rounds(count)
    ):
        need = rounds * (settings.table_size - 1) + 1
        raise SignupError(
            "too_many_rounds",
            f"{rounds} rounds at {settings.table_size}-seat tables need at "
            f"least {need} entrants to meet new opponents; {count} have joined",
            rounds=rounds,
            need=need,
            count=count,
            size=settings.table_size,
        )
    if settings.format is Format.SWISS and rounds is not None:
        fresh = settings.fresh_rounds(count, rounds)
        if fresh < rounds:  # issue #47 item 4: new opponents each round cannot hold
            raise SignupError(
                "rematch_rounds",
                f"{count} players at {settings.table_size}-seat tables meet new opponents for "
                f"{fresh} rounds, not {rounds}",
                rounds=rounds,
                fresh=fresh,
                count=count,
                size=settings.table_size,
            )


def start(s: Signup) -> Signup:
    check_start(s)
    return replace(s, started=True)
