"""Swiss standings: a pure function of the entrants and the round records, so that the
standings shown always equal a recomputation from the stored games.

Order (issue #30: tie-breaks that separate): points; then Buchholz; then head-to-head, the
results between the players still tied, among themselves; then a Sonneborn–Berger measure;
then the number of matches won outright (first place, not shared); then the fewest matches
finished last (the Durak's place, not shared); players equal on all six share a rank, and are
listed by seed (:func:`seed_order`).

A result between two players at one table is 1 for the better place, ½ for a shared place, 0
for the worse. Head-to-head sums a tied player's results against the others tied with them (a
group equal on points and Buchholz). Sonneborn–Berger sums, round by round, the player's
results against each human opponent at the table weighted by that opponent's points, divided
by the number of those opponents (as Buchholz takes the mean): at 2-seat tables the classic
Sonneborn–Berger, the points of the opponents beaten plus half those of the opponents drawn.

Buchholz measures the strength of the opposition: for every round a player played, the mean of
the current points of their human opponents at that table, summed over the rounds. At 2-seat
tables this is the classic Buchholz, the sum of the opponents' points; taking the mean per round
keeps a 6-seat table from counting five times, and a table with AI seats from counting less.
A bye, or a table of AIs only, adds nothing.

A late entrant gets one bye of half a win for the rounds they missed, as lichess's Swiss does
(:func:`half_bye_points`, in the round before their first), and a requested bye earns the same
in the round sat out; like any bye, each counts among the player's byes.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from .errors import ResultError
from .results import Place, Seat, TableResult, bye_points, half_bye_points
from .rounds import RoundRecord
from .signup import Entrant, seed_order


@dataclass(frozen=True, slots=True)
class RoundEntry:
    """One round of one player: a table (place and points) or a bye (table and place None)."""

    round: int
    table: int | None
    place: Place | None
    points: Fraction


@dataclass(frozen=True, slots=True)
class StandingRow:
    rank: int  # shared by players equal on every tie-break
    player: int
    points: Fraction
    buchholz: Fraction
    firsts: int
    lasts: int
    byes: int
    entries: tuple[RoundEntry, ...]  # the player's record, round by round
    head_to_head: Fraction = Fraction(0)  # against the others tied on points and Buchholz
    sonneborn: Fraction = Fraction(0)

    @property
    def played(self) -> int:
        return sum(e.table is not None for e in self.entries)


@dataclass(frozen=True, slots=True)
class SeatLine:
    seat: Seat  # None: an AI seat
    place: Place
    points: Fraction


@dataclass(frozen=True, slots=True)
class TableLine:
    table: int
    seats: tuple[SeatLine, ...]  # by place, best first


@dataclass(frozen=True, slots=True)
class RoundLine:
    """A round in one line of the final summary: each table's places, the byes, and the tables
    still playing."""

    round: int
    tables: tuple[TableLine, ...]
    byes: tuple[int, ...]
    pending: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Standings:
    rows: tuple[StandingRow, ...]
    lines: tuple[RoundLine, ...]

    def rank_order(self) -> tuple[int, ...]:
        return tuple(r.player for r in self.rows)


def versus(mine: Place, theirs: Place) -> Fraction:
    """One player's result against another at the same table: 1 for the better place (the
    first place they cover), ½ for a shared one, 0 for the worse."""
    if mine.first == theirs.first:
        return Fraction(1, 2)
    return Fraction(1) if mine.first < theirs.first else Fraction(0)


def standings(
    entrants: Sequence[Entrant], table_size: int, rounds: Sequence[RoundRecord]
) -> Standings:
    seeds = seed_order(entrants)
    tally = _Tally({e.player for e in seeds})
    lines = [tally.add_round(record, table_size, seeds) for record in rounds]
    points, buchholz, sonneborn, head_to_head = tally.tiebreaks()
    firsts, lasts, entries = tally.firsts, tally.lasts, tally.entries

    def key(p: int) -> tuple[Fraction, Fraction, Fraction, Fraction, int, int]:
        return (-points[p], -buchholz[p], -head_to_head[p], -sonneborn[p], -firsts[p], lasts[p])

    order = sorted((e.player for e in seeds), key=key)  # stable: seed order within ties
    keys = [key(p) for p in order]
    rows = []
    for i, p in enumerate(order):
        rank = 1 + next(j for j, k in enumerate(keys) if k == keys[i])
        rows.append(
            StandingRow(
                rank,
                p,
                points[p],
                buchholz[p],
                firsts[p],
                lasts[p],
                sum(e.table is None for e in entries[p]),
                tuple(entries[p]),
                head_to_head[p],
                sonneborn[p],
            )
        )
    return Standings(tuple(rows), tuple(lines))


class _Tally:
    """Each entrant's rounds so far, as :func:`standings` adds them up."""

    def __init__(self, known: set[int]) -> None:
        self.known = known
        self.entries: dict[int, list[RoundEntry]] = {p: [] for p in known}
        self.opponents: dict[int, list[tuple[int, ...]]] = {p: [] for p in known}
        #: Per player, per round played: each human opponent at the table and the result
        #: against them (1 better place, ½ shared, 0 worse).
        self.meetings: dict[int, list[tuple[tuple[int, Fraction], ...]]] = {p: [] for p in known}
        self.firsts = dict.fromkeys(known, 0)
        self.lasts = dict.fromkeys(known, 0)

    def add_round(
        self, record: RoundRecord, table_size: int, seeds: Sequence[Entrant]
    ) -> RoundLine:
        rnd = record.round
        for p in record.pairing.players:
            if p not in self.known:
                raise ResultError("not_entrant", f"{p} is not an entrant", player=p)
        for p in record.pairing.byes:
            self.entries[p].append(RoundEntry(rnd, None, None, bye_points(table_size)))
        seated = set(record.pairing.players)
        for e in seeds:  # a late entrant's one half bye; a requested one (issue #47)
            if e.player not in seated and (rnd in e.rests or rnd == e.joined - 1):
                half = half_bye_points(table_size)
                self.entries[e.player].append(RoundEntry(rnd, None, None, half))
        table_lines = [
            self._add_table(rnd, result) for result in sorted(record.results, key=lambda r: r.table)
        ]
        return RoundLine(rnd, tuple(table_lines), record.pairing.byes, record.pending_tables())

    def _add_table(self, rnd: int, result: TableResult) -> TableLine:
        places = result.places()
        n = len(result.seats)
        seat_lines = []
        for seat, place in zip(result.seats, places, strict=True):
            pts = place.points(n)
            seat_lines.append(SeatLine(seat, place, pts))
            if seat is None:
                continue
            self.entries[seat].append(RoundEntry(rnd, result.table, place, pts))
            self.opponents[seat].append(tuple(o for o in result.seats if o not in (None, seat)))
            self.meetings[seat].append(
                tuple(
                    (o, versus(place, op))
                    for o, op in zip(result.seats, places, strict=True)
                    if o is not None and o != seat
                )
            )
            self.firsts[seat] += place == Place(1, 1)
            self.lasts[seat] += place.first == n
        seat_lines.sort(key=lambda s: s.place)
        return TableLine(result.table, tuple(seat_lines))

    def tiebreaks(self) -> tuple[dict[int, Fraction], ...]:
        """Points, Buchholz, Sonneborn-Berger and the head-to-head result among those level on
        points and Buchholz, per player."""
        known, zero = self.known, Fraction(0)
        points = {p: sum((e.points for e in self.entries[p]), zero) for p in known}
        buchholz = {
            p: sum(
                (
                    Fraction(sum((points[o] for o in opp), zero), len(opp))
                    for opp in self.opponents[p]
                    if opp
                ),
                zero,
            )
            for p in known
        }
        sonneborn = {
            p: sum(
                (
                    sum((result * points[o] for o, result in met), zero) / len(met)
                    for met in self.meetings[p]
                    if met
                ),
                zero,
            )
            for p in known
        }
        groups: dict[tuple[Fraction, Fraction], set[int]] = {}
        for p in known:
            groups.setdefault((points[p], buchholz[p]), set()).add(p)
        head_to_head = {
            p: sum(
                (
                    result
                    for met in self.meetings[p]
                    for o, result in met
                    if o in groups[(points[p], buchholz[p])]
                ),
                zero,
            )
            for p in known
        }
        return points, buchholz, sonneborn, head_to_head
