"""Single elimination at 2-seat tables: seeding, byes, the bracket as a tree, and results.

The bracket has ``size`` = the next power of two leaves, one per seed. Seeds are placed in the
standard order (1 v size, then 1's half and 2's half mirrored), so seeds 1 and 2 are in opposite
halves and can only meet in the final, and the size - entrants missing seeds are byes for the
top seeds. Match ``m`` of round ``r`` (both 1-based) is fed by matches 2m - 1 and 2m of round
r - 1; round 1 is fed by the seeds. A withdrawn player forfeits each match they reach.

>>> b = new_bracket([Entrant(p, rating=float(p), order=0) for p in (1, 2, 3, 4, 5)])
>>> [m.players for m in b.matches(1)]
[(5, None), (2, 1), (4, None), (3, None)]
>>> [m.players for m in pending(b)]
[(2, 1), (4, 3)]
>>> b = record_winner(b, 1, 2, 1)
>>> [m.players for m in pending(b)]
[(5, 1), (4, 3)]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import cache

from .configuration import MatchLength
from .errors import ResultError, SignupError
from .override import Override
from .results import Place, PlayedGame, TableResult
from .signup import Entrant, seed_order


@cache
def slot_seeds(size: int) -> tuple[int, ...]:
    """Seed numbers (1-based) in bracket order, for a power-of-two ``size``."""
    order = [1]
    while len(order) < size:
        top = 2 * len(order) + 1
        order = [x for s in order for x in (s, top - s)]
    return tuple(order)


@dataclass(frozen=True, slots=True)
class BracketMatch:
    round: int
    number: int  # 1-based within its round: the table number
    players: tuple[int | None, int | None]  # None: not known yet, or a bye in round 1
    winner: int | None

    @property
    def ready(self) -> bool:
        """Both players known and no winner yet: to be played."""
        return self.winner is None and None not in self.players


@dataclass(frozen=True, slots=True)
class Bracket:
    """``seeds``: players, seed 1 first. ``winners[r][m]``: the winner of match m + 1 of round
    r + 1, or None while undecided."""

    seeds: tuple[int, ...]
    winners: tuple[tuple[int | None, ...], ...]
    withdrawn: frozenset[int] = frozenset()

    @property
    def size(self) -> int:
        return 1 << len(self.winners)

    @property
    def rounds(self) -> int:
        return len(self.winners)

    def players(self, round: int, number: int) -> tuple[int | None, int | None]:
        r, m = round - 1, number - 1
        if r == 0:
            slots = slot_seeds(self.size)
            a, b = slots[2 * m], slots[2 * m + 1]
            return self._seed(a), self._seed(b)
        prev = self.winners[r - 1]
        return prev[2 * m], prev[2 * m + 1]

    def _seed(self, seed: int) -> int | None:
        return self.seeds[seed - 1] if seed <= len(self.seeds) else None

    def matches(self, round: int) -> tuple[BracketMatch, ...]:
        if not 1 <= round <= self.rounds:
            raise ResultError("no_round", f"the bracket has no round {round}", round=round)
        return tuple(
            BracketMatch(round, m + 1, self.players(round, m + 1), w)
            for m, w in enumerate(self.winners[round - 1])
        )

    def champion(self) -> int | None:
        return self.winners[-1][0]


def new_bracket(entrants: Sequence[Entrant]) -> Bracket:
    """Seeded by :func:`seed_order` (rating, then sign-up order); byes to the top seeds."""
    if len(entrants) < 2:
        raise SignupError(
            "too_few",
            "single elimination needs at least 2 entrants",
            need=2,
            count=len(entrants),
            size=2,
        )
    seeds = tuple(e.player for e in seed_order(entrants))
    if len(set(seeds)) != len(seeds):
        raise SignupError("already_joined", "an entrant is listed twice")
    depth = (len(seeds) - 1).bit_length()
    winners = tuple((None,) * (2 ** (depth - r - 1)) for r in range(depth))
    return _settle(Bracket(seeds, winners))


def _with_winner(b: Bracket, r: int, m: int, winner: int) -> Bracket:
    row = list(b.winners[r])
    row[m] = winner
    return replace(b, winners=(*b.winners[:r], tuple(row), *b.winners[r + 1 :]))


def _settle(b: Bracket) -> Bracket:
    """Decide every match that needs no game: a bye in round 1, a withdrawn player's match (if
    both withdrew, the higher seed goes on, to forfeit again)."""
    for r in range(b.rounds):
        for m in range(len(b.winners[r])):
            if b.winners[r][m] is not None:
                continue
            p, q = b.players(r + 1, m + 1)
            if r == 0 and (p is None or q is None):
                winner = p if q is None else q
            elif p is None or q is None:
                continue
            elif p in b.withdrawn or q in b.withdrawn:
                winner = q if p in b.withdrawn and q not in b.withdrawn else p
            else:
                continue
            assert winner is not None
            b = _with_winner(b, r, m, winner)
    return b


def pending(b: Bracket) -> tuple[BracketMatch, ...]:
    """The matches to play now, earliest round first."""
    return tuple(m for r in range(1, b.rounds + 1) for m in b.matches(r) if m.ready)


def record_winner(b: Bracket, round: int, number: int, winner: int) -> Bracket:
    """The winner of a played match goes on to the next round."""
    matches = b.matches(round)
    if not 1 <= number <= len(matches):
        raise ResultError(
            "no_match", f"round {round} has no match {number}", round=round, number=number
        )
    match = matches[number - 1]
    if match.winner is not None:
        raise ResultError("decided", f"round {round} match {number} is already decided")
    if not match.ready:
        raise ResultError("not_ready", f"round {round} match {number} waits for its players")
    if winner not in match.players:
        raise ResultError(
            "not_in_match", f"{winner} does not play round {round} match {number}", player=winner
        )
    return _settle(_with_winner(b, round - 1, number - 1, winner))


def record_result(b: Bracket, result: TableResult, length: MatchLength) -> Bracket:
    """A played match (``result.round``, ``result.table`` = the match number): its sole first
    place goes on. The match must be over, and decided (:meth:`TableResult.is_over`)."""
    if not result.is_over(length, decisive=True):
        raise ResultError(
            "match_open",
            f"round {result.round} match {result.table} is not decided yet",
            round=result.round,
            table=result.table,
        )
    matches = b.matches(result.round)
    match = matches[result.table - 1] if 1 <= result.table <= len(matches) else None
    if match is None or result.seats != match.players:
        raise ResultError(
            "wrong_table",
            f"round {result.round} match {result.table} is not played by these seats",
            round=result.round,
            table=result.table,
        )
    winner = result.seats[[p.first for p in result.places()].index(1)]
    assert winner is not None
    return record_winner(b, result.round, result.table, winner)


@dataclass(frozen=True, slots=True)
class Withdrawal:
    """A player who left (e.g. the server) after the start, as the bot stores it."""

    player: int


def replay_bracket(
    entrants: Sequence[Entrant],
    events: Sequence[PlayedGame | Withdrawal | Override],
    length: MatchLength,
) -> Bracket:
    """The bracket from its stored games, withdrawals and the organiser's results, in the order
    they happened: a match counts once its games or an override decide it (games after that
    change nothing). Equal to the bracket built step by step."""
    b = new_bracket(entrants)
    games: dict[tuple[int, int], list[PlayedGame]] = {}
    decided: set[tuple[int, int]] = set()
    for event in events:
        if isinstance(event, Withdrawal):
            b = withdraw(b, event.player)
            continue
        if isinstance(event, Override):
            b = _overridden(b, event)
            decided.add((event.round, event.table))
            continue
        if (event.round, event.table) in decided:
            continue
        played = games.setdefault((event.round, event.table), [])
        played.append(event)
        result = TableResult.of(played)
        if result.is_over(length, decisive=True):
            b = record_result(b, result, length)
    return b


def _overridden(b: Bracket, o: Override) -> Bracket:
    """The organiser's result of a match: its winner goes on (a match decided already, by a
    withdrawal say, stays as it is)."""
    matches = b.matches(o.round)
    if not 1 <= o.table <= len(matches):
        raise ResultError("no_match", f"round {o.round} has no match {o.table}", round=o.round)
    match = matches[o.table - 1]
    if match.winner is not None:
        return b
    winner = o.winner(match.players)
    assert winner is not None  # two seats: one wins, the other forfeits
    return record_winner(b, o.round, o.table, winner)


def withdraw(b: Bracket, player: int) -> Bracket:
    """A player who leaves forfeits their current and every later match."""
    if player not in b.seeds:
        raise ResultError("not_entrant", f"{player} is not in this bracket", player=player)
    return _settle(replace(b, withdrawn=b.withdrawn | {player}))


def places(b: Bracket) -> tuple[tuple[int, Place], ...]:
    """Every placed player: the champion 1st, the final's loser 2nd, the losers of an earlier
    round share the places that round's losers cover (semi-finals 3–4, ...). Players still in
    the running are left out. Ordered by place, then seed."""
    out: list[tuple[int, Place]] = []
    champion = b.champion()
    if champion is not None:
        out.append((champion, Place(1, 1)))
    entrants = len(b.seeds)
    for r in range(b.rounds, 0, -1):
        losers_first = b.size // 2**r + 1
        last = min(b.size // 2 ** (r - 1), entrants)
        for m in b.matches(r):
            if m.winner is not None and None not in m.players:
                loser = m.players[1] if m.winner == m.players[0] else m.players[0]
                assert loser is not None
                out.append((loser, Place(losers_first, last)))
    seed = {p: i for i, p in enumerate(b.seeds)}
    return tuple(sorted(out, key=lambda x: (x[1], seed[x[0]])))
