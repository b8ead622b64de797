"""Swiss standings: points, Buchholz, head-to-head, Sonneborn-Berger, the next tie-breaks,
shared ranks and the round lines."""

from __future__ import annotations

from fractions import Fraction

import pytest

from bot.tournaments.logic.configuration import Format, TournamentSettings
from bot.tournaments.logic.errors import PairingError, ResultError
from bot.tournaments.logic.results import Place, PlayedGame, TableResult
from bot.tournaments.logic.rounds import Pairing, RoundRecord, SeatedTable
from bot.tournaments.logic.signup import Entrant
from bot.tournaments.logic.standings import RoundEntry, standings
from bot.tournaments.logic.swiss import pair_round

X, Y, P, Q = 1, 2, 3, 4
FIELD = [Entrant(p, 0.0, p) for p in (X, Y, P, Q)]


def duel(rnd: int, table: int, a: int | None, b: int | None, winner: int | None) -> TableResult:
    seats = (a, b)
    if winner is None:  # R20: a draw
        g = PlayedGame(rnd, table, seats, (0, 1), None)
    else:
        w = seats.index(winner)
        g = PlayedGame(rnd, table, seats, (w,), 1 - w)
    return TableResult.of([g])


def record(rnd: int, *results: TableResult, byes: tuple[int, ...] = ()) -> RoundRecord:
    tables = tuple(SeatedTable(r.table, r.seats) for r in results)
    return RoundRecord(Pairing(rnd, tables, byes), results)


ROUNDS = [
    record(1, duel(1, 1, X, P, X), duel(1, 2, Y, Q, None)),
    record(2, duel(2, 1, Q, X, Q), duel(2, 2, Y, P, None)),
]


def test_points_buchholz_and_the_next_tie_break() -> None:
    s = standings(FIELD, 2, ROUNDS)
    rows = {r.player: r for r in s.rows}
    assert {p: rows[p].points for p in rows} == {X: 1, Y: 1, P: Fraction(1, 2), Q: Fraction(3, 2)}
    # Buchholz: the opponents' points. X met P (1/2) and Q (3/2); Y met Q and P: both 2.
    assert rows[X].buchholz == rows[Y].buchholz == 2
    # Equal on points and Buchholz, and they never met (head-to-head 0 each): Sonneborn-Berger.
    # X beat P (1/2 point): 1/2. Y drew Q (3/2) and P (1/2): 3/4 + 1/4 = 1. Y goes first,
    # although X won a match outright and Y did not (the next tie-break, not reached).
    assert rows[X].head_to_head == rows[Y].head_to_head == 0
    assert (rows[X].sonneborn, rows[Y].sonneborn) == (Fraction(1, 2), Fraction(1))
    assert (rows[X].firsts, rows[Y].firsts, rows[X].lasts) == (1, 0, 1)
    assert s.rank_order() == (Q, Y, X, P)
    assert [r.rank for r in s.rows] == [1, 2, 3, 4]
    assert rows[X].entries == (
        RoundEntry(1, 1, Place(1, 1), Fraction(1)),
        RoundEntry(2, 1, Place(2, 2), Fraction(0)),
    )


def test_head_to_head_orders_the_players_still_tied() -> None:
    """Issue #30: a round robin of four, 1 and 4 equal on points and Buchholz, 2 and 3 too;
    in each pair the one who beat the other goes first, whatever the seeds."""
    rounds = [
        record(1, duel(1, 1, X, Y, X), duel(1, 2, P, Q, P)),
        record(2, duel(2, 1, X, P, X), duel(2, 2, Y, Q, Q)),
        record(3, duel(3, 1, X, Q, Q), duel(3, 2, Y, P, Y)),
    ]
    s = standings(FIELD, 2, rounds)
    assert s.rank_order() == (Q, X, Y, P)  # seeds: X, Y, P, Q
    assert [(int(r.points), int(r.buchholz)) for r in s.rows] == [(2, 4), (2, 4), (1, 5), (1, 5)]
    assert [r.head_to_head for r in s.rows] == [1, 0, 1, 0]
    assert [r.sonneborn for r in s.rows] == [3, 2, 1, 2]
    assert [r.rank for r in s.rows] == [1, 2, 3, 4]


def test_round_lines_list_every_table_by_place() -> None:
    line = standings(FIELD, 2, ROUNDS).lines[1]
    assert line.round == 2 and line.byes == () and line.pending == ()
    first, second = line.tables
    top = [(s.seat, str(s.place), int(s.points)) for s in first.seats]
    assert top == [(Q, "1", 1), (X, "2", 0)]
    assert [str(s.place) for s in second.seats] == ["1–2", "1–2"]


def test_players_equal_on_everything_share_a_rank_listed_by_seed() -> None:
    s = standings(FIELD, 2, [record(1, duel(1, 1, X, Y, None), duel(1, 2, P, Q, None))])
    assert [r.rank for r in s.rows] == [1, 1, 1, 1] and s.rank_order() == (X, Y, P, Q)


def test_byes_and_ai_seats() -> None:
    five = [*FIELD, Entrant(5, 0.0, 5)]
    s = standings(five, 2, [record(1, duel(1, 1, X, Y, X), duel(1, 2, P, None, None), byes=(5,))])
    rows = {r.player: r for r in s.rows}
    # a bye at 2-seat tables is worth a win (issue #30)
    assert rows[5].points == 1 and rows[5].byes == 1 and rows[5].played == 0
    assert rows[5].entries == (RoundEntry(1, None, None, Fraction(1)),)
    # P drew with an AI seat: half a point; an AI seat's points count for nobody's Buchholz.
    assert rows[P].points == Fraction(1, 2) and rows[P].buchholz == 0
    assert rows[Q].points == 0 and rows[Q].entries == ()
    assert s.lines[0].tables[1].seats[1].seat is None


def test_unknown_players_and_open_rounds() -> None:
    with pytest.raises(ResultError, match="not an entrant"):
        standings(FIELD[:3], 2, ROUNDS)
    open_round = RoundRecord(ROUNDS[0].pairing, ROUNDS[0].results[:1])
    assert standings(FIELD, 2, [open_round]).lines[0].pending == (2,)
    s = TournamentSettings("C", Format.SWISS, rounds=3)
    with pytest.raises(PairingError, match="still being played") as caught:
        pair_round(s, FIELD, [open_round])
    assert caught.value.params == {"round": 1, "tables": 1}
    with pytest.raises(PairingError, match="every round"):
        pair_round(TournamentSettings("C", Format.SWISS, rounds=2), FIELD, ROUNDS)
    with pytest.raises(PairingError, match="2 active players cannot fill a 3-seat"):
        pair_round(
            TournamentSettings("C", Format.SWISS, table_size=3), FIELD, [], frozenset({X, Y})
        )


def test_second_round_pairs_by_score_and_avoids_the_first() -> None:
    s = TournamentSettings("C", Format.SWISS, rounds=3)
    first = pair_round(s, FIELD, [])
    assert [t.seats for t in first.tables] == [(X, P), (Y, Q)]  # top half v bottom half
    r1 = record(1, duel(1, 1, X, P, P), duel(1, 2, Y, Q, Q))
    # P and Q won: they meet; X and Y lost: they meet. No repeat.
    assert [t.seats for t in pair_round(s, FIELD, [r1]).tables] == [(P, Q), (X, Y)]
