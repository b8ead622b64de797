"""A Swiss round as stored: who sits where (:class:`Pairing`) and the matches finished so far
(:class:`RoundRecord`); :func:`rounds_from_games` rebuilds the records from stored games."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from .configuration import MatchLength
from .errors import ResultError
from .override import Override
from .results import PlayedGame, Seat, TableResult


@dataclass(frozen=True, slots=True)
class SeatedTable:
    number: int  # 1-based; table 1 is the top table
    seats: tuple[Seat, ...]  # None: an AI seat

    @property
    def players(self) -> tuple[int, ...]:
        return tuple(p for p in self.seats if p is not None)


@dataclass(frozen=True, slots=True)
class Pairing:
    round: int
    tables: tuple[SeatedTable, ...]
    byes: tuple[int, ...] = ()

    @property
    def players(self) -> tuple[int, ...]:
        return (*(p for t in self.tables for p in t.players), *self.byes)


@dataclass(frozen=True, slots=True)
class RoundRecord:
    """A round's pairing and its finished matches (at most one per table)."""

    pairing: Pairing
    results: tuple[TableResult, ...] = ()

    def __post_init__(self) -> None:
        tables = {t.number: t for t in self.pairing.tables}
        seen: set[int] = set()
        for r in self.results:
            table = tables.get(r.table)
            if r.round != self.pairing.round or table is None or table.seats != r.seats:
                raise ResultError(
                    "wrong_table",
                    f"no table {r.table} with these seats in round {self.pairing.round}",
                    round=r.round,
                    table=r.table,
                )
            if r.table in seen:
                raise ResultError("table_twice", f"table {r.table} has two results", table=r.table)
            seen.add(r.table)

    @property
    def round(self) -> int:
        return self.pairing.round

    @property
    def complete(self) -> bool:
        return len(self.results) == len(self.pairing.tables)

    def pending_tables(self) -> tuple[int, ...]:
        done = {r.table for r in self.results}
        return tuple(t.number for t in self.pairing.tables if t.number not in done)


def rounds_from_games(
    pairings: Sequence[Pairing],
    games: Iterable[PlayedGame],
    length: MatchLength,
    overrides: Mapping[tuple[int, int], Override] | None = None,
) -> tuple[RoundRecord, ...]:
    """The records of the stored rounds from their stored games (in the order played): a
    table's match counts once it is over (:meth:`TableResult.is_over`), or once the organiser
    decided it (``overrides``, by (round, table): its places are the override's)."""
    overrides = overrides or {}
    by_table: dict[tuple[int, int], list[PlayedGame]] = {}
    for g in games:
        by_table.setdefault((g.round, g.table), []).append(g)
    known = {(p.round, t.number) for p in pairings for t in p.tables}
    stray = sorted(set(by_table) - known)
    if stray:
        rnd, num = stray[0]
        raise ResultError(
            "wrong_table",
            f"a game of round {rnd} table {num}, which was not paired",
            round=rnd,
            table=num,
        )
    records = []
    for p in pairings:
        results = []
        for t in p.tables:
            played = by_table.get((p.round, t.number))
            override = overrides.get((p.round, t.number))
            if override is not None:
                decided = override.places(t.seats)
                kept = tuple(played or ())  # played before the override: listed, not counted
                results.append(TableResult(p.round, t.number, t.seats, kept, decided))
                continue
            if played:
                result = TableResult.of(played)
                if result.seats != t.seats:
                    raise ResultError(
                        "wrong_table",
                        f"round {p.round} table {t.number} was paired with other seats",
                        round=p.round,
                        table=t.number,
                    )
                if result.is_over(length):
                    results.append(result)
        records.append(RoundRecord(p, tuple(results)))
    return tuple(records)
