"""The deciding game (issue #30 control 5): when a Swiss or a round robin ends with first place
still shared after every tie-break, the joint leaders play one more table, and its places order
them. It is no round: it adds no points and changes no tie-break; it only breaks the tie.

Who plays: the joint leaders still in the tournament (a withdrawn one is not seated), two of
them up to the tournament's table size (its rules were checked for that many seats: a 6-seat
deal needs the cards), at one table seated by seed; more, and they stay joint champions. At
two seats a drawn game (R20) is played again until one player wins it, as a bracket's tied
match; at three or more the one game's places order them, and a draw (everyone's place
shared) leaves them joint champions. A player who withdraws during it loses it: at two seats
the other wins by a walkover; at more an AI finishes the seat.

>>> from bot.tournaments.logic.results import PlayedGame
>>> g = PlayedGame(round=4, table=1, seats=(7, 8), finishing_order=(1,), durak=0)
>>> decider_result(Pairing(4, (SeatedTable(1, (7, 8)),)), [g]).places()
(Place(first=2, last=2), Place(first=1, last=1))
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import replace

from durak_core.rules import MAX_SEATS

from .configuration import MatchLength
from .override import Override, OverrideKind
from .results import PlayedGame, TableResult
from .rounds import Pairing, SeatedTable
from .signup import Entrant, seed_order
from .standings import Standings

#: The deciding game's length: one game (at two seats, decisive: a draw is played again).
ONE_GAME = MatchLength.games(1)


def joint_leaders(
    st: Standings, withdrawn: Collection[int] = (), most: int = MAX_SEATS
) -> tuple[int, ...]:
    """The players sharing first place who are still in, in standings order (seed order);
    empty when first place is not shared, or fewer than two or more than ``most`` (the
    tournament's table size, which its rules were checked for) of them are still in."""
    leaders = [r.player for r in st.rows if r.rank == 1 and r.player not in withdrawn]
    sharing = sum(r.rank == 1 for r in st.rows)
    if sharing < 2 or not 2 <= len(leaders) <= most:
        return ()
    return tuple(leaders)


def decider_pairing(number: int, leaders: Sequence[int], entrants: Sequence[Entrant]) -> Pairing:
    """Round ``number``: one table of the joint leaders, seated by seed."""
    seeds = [e.player for e in seed_order(entrants) if e.player in leaders]
    return Pairing(number, (SeatedTable(1, tuple(seeds)),))


def decider_result(
    pairing: Pairing,
    games: Sequence[PlayedGame],
    override: Override | None = None,
    withdrawn: Collection[int] = (),
) -> TableResult | None:
    """The deciding table's result once it is over (or the organiser decided it, or all its
    players but one withdrew: a walkover), else None."""
    (table,) = pairing.tables
    played = tuple(g for g in games if (g.round, g.table) == (pairing.round, table.number))
    left = [p for p in table.seats if p is not None and p not in withdrawn]
    if override is None and len(left) == 1:
        override = Override(pairing.round, table.number, OverrideKind.WINNER, left[0])
    if override is not None:
        places = override.places(table.seats)
        return TableResult(pairing.round, table.number, table.seats, played, places)
    if not played:
        return None
    result = TableResult.of(played)
    decisive = len(table.seats) == 2
    return result if result.is_over(ONE_GAME, decisive=decisive) else None


def decided_standings(st: Standings, result: TableResult | None) -> Standings:
    """The standings with the joint leaders ordered by the deciding table's places (each
    leader's rank: their place there); unchanged while it is not over."""
    if result is None:
        return st
    place = {p: pl for p, pl in zip(result.seats, result.places(), strict=True) if p is not None}
    top = [r for r in st.rows if r.rank == 1]
    rest = [r for r in st.rows if r.rank != 1]
    played = [r for r in top if r.player in place]
    absent = [r for r in top if r.player not in place]  # a withdrawn joint leader
    played.sort(key=lambda r: place[r.player].first)  # stable: seed order within a shared place
    rows = [replace(r, rank=place[r.player].first) for r in played]
    rows += [replace(r, rank=len(played) + 1) for r in absent]
    return replace(st, rows=(*rows, *rest))
