"""Swiss pairing at tables of any size (2–6).

Each round the active players are ranked by the standings (points, then the tie-breaks of
:mod:`bot.tournaments.logic.standings`), so players are seated by score groups, filled top down: the
best player sits at table 1 with the next best, and a group that does not fill its tables
floats its last players down to sit with the best of the next group. At 2-seat tables, as in
the chess Swiss (issue #30), each score group's top half meets its bottom half instead
(:func:`dutch_order`): round 1 pairs seed 1 with seed n/2 + 1, 2 with n/2 + 2, and so on.
Opponents already met are avoided while that can be avoided (:mod:`bot.tournaments.logic.seating`).

An entrant count that does not fill whole tables leaves a remainder: without AI seats, that many
players get a bye (earning :func:`bye_points`): those with the fewest byes so far, the lowest
ranked of them, so nobody gets a second bye while someone active has had none. With AI seats
allowed, nobody sits out: there are ceil(players / table size) tables, as evenly filled as
possible (the fuller tables first), and AI seats take the empty places.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction

from .configuration import Format, TournamentSettings
from .errors import PairingError
from .fresh import table_sizes
from .rounds import Pairing, RoundRecord, SeatedTable
from .seating import seat
from .signup import Entrant
from .standings import standings


def met_masks(order: Sequence[int], history: Sequence[RoundRecord]) -> list[int]:
    """``met[i]``: the bit mask of the players (as indices into ``order``) that ``order[i]`` has
    sat at a table with in an earlier round."""
    index = {p: i for i, p in enumerate(order)}
    met = [0] * len(order)
    for record in history:
        for table in record.pairing.tables:
            seated = [index[p] for p in table.players if p in index]
            mask = sum(1 << i for i in seated)
            for i in seated:
                met[i] |= mask & ~(1 << i)
    return met


def dutch_order(order: Sequence[int], points: Mapping[int, Fraction]) -> list[int]:
    """``order`` (ranked) with each score group's top half interleaved with its bottom half, so
    that top-down seating at 2-seat tables pairs 1 v k+1, 2 v k+2, ... of a group of 2k (round
    1: seed 1 against seed n/2 + 1). A group of odd size keeps its last player last: the one
    who floats down to the next group. The seating's search for a round without repeats then
    starts from this order.

    >>> dutch_order([1, 2, 3, 4, 5, 6], dict.fromkeys(range(1, 7), Fraction(0)))
    [1, 4, 2, 5, 3, 6]
    """
    out: list[int] = []
    i = 0
    while i < len(order):
        j = i
        while j < len(order) and points[order[j]] == points[order[i]]:
            j += 1
        group = list(order[i:j])
        half = len(group) // 2
        for a, b in zip(group[:half], group[half : 2 * half], strict=True):
            out += [a, b]
        out += group[2 * half :]
        i = j
    return out


def pair_round(
    settings: TournamentSettings,
    entrants: Sequence[Entrant],
    history: Sequence[RoundRecord],
    withdrawn: frozenset[int] = frozenset(),
) -> Pairing:
    """The next round's tables and byes, from the rounds played so far (each complete)."""
    if settings.format is not Format.SWISS:
        raise PairingError("not_swiss", "only a Swiss tournament is paired round by round")
    for record in history:
        if not record.complete:
            raise PairingError(
                "round_open",
                f"round {record.round} is still being played",
                round=record.round,
                tables=len(record.pending_tables()),
            )
    rnd = len(history) + 1
    if rnd > settings.rounds_for(sum(not e.late for e in entrants)):  # late ones add none
        raise PairingError("finished", "every round has been played", round=rnd)
    n = settings.table_size
    table = standings(entrants, n, history)
    away = withdrawn | {e.player for e in entrants if rnd in e.rests or e.joined > rnd}
    order = [p for p in table.rank_order() if p not in away]
    need = 2 if settings.ai_fill else n
    if len(order) < need:
        raise PairingError(
            "too_few_active",
            f"{len(order)} active players cannot fill a {n}-seat table",
            count=len(order),
            size=n,
        )
    sizes, bye_count = table_sizes(len(order), n, settings.ai_fill)
    byes_had = {row.player: row.byes for row in table.rows}
    rank = {p: i for i, p in enumerate(order)}
    byes = sorted(order, key=lambda p: (byes_had[p], -rank[p]))[:bye_count]
    seated = [p for p in order if p not in byes]
    if n == 2:  # the chess Swiss: in each score group, its top half against its bottom half
        points = {row.player: row.points for row in table.rows}
        seated = dutch_order(seated, points)
    tables = seat(sizes, met_masks(seated, history))
    return Pairing(
        rnd,
        tuple(
            SeatedTable(i + 1, (*(seated[p] for p in t), *(None,) * (n - len(t))))
            for i, t in enumerate(tables)
        ),
        tuple(sorted(byes, key=rank.__getitem__)),
    )
