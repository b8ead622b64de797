"""Games, matches, places and points (R18, R20, R21, V17)."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.tournaments.logic.configuration import MatchLength
from bot.tournaments.logic.errors import ResultError
from bot.tournaments.logic.results import Place, PlayedGame, TableResult, bye_points
from bot.tournaments.logic.rounds import Pairing, RoundRecord, SeatedTable, rounds_from_games

A, B, C, D = 11, 12, 13, 14


def game(
    seats: tuple[int | None, ...],
    order: tuple[int, ...],
    durak: int | None,
    rnd: int = 1,
    table: int = 1,
) -> PlayedGame:
    return PlayedGame(rnd, table, seats, order, durak)


def test_places_follow_the_finishing_order_and_the_durak_is_last() -> None:
    # R18: the first player out is first; R20: the one left holding cards is the Durak.
    r = TableResult.of([game((A, B, C, D), (2, 0, 3), 1)])
    assert r.places() == (Place(2, 2), Place(4, 4), Place(1, 1), Place(3, 3))
    assert [p.points(4) for p in r.places()] == [2, 0, 3, 1]


def test_a_draw_shares_every_place_r21() -> None:
    # R21: a drawn game gives no win and no loss to anyone, not even the first player out.
    r = TableResult.of([game((A, B, C), (1, 0, 2), None)])
    assert r.places() == (Place(1, 3),) * 3
    assert {p.points(3) for p in r.places()} == {Fraction(1)}
    assert str(r.places()[0]) == "1–3"


def test_a_match_ranks_by_durak_count_then_places_v17() -> None:
    g1 = game((A, B, C), (0, 1), 2)  # A, B out; C the Durak
    g2 = game((A, B, C), (1, 2), 0)  # B, C out; A the Durak
    r = TableResult.of([g1, g2])
    assert r.durak_counts() == (1, 0, 1)
    # B was never the Durak; A and C once each, A with the better places (1st + 3rd vs 3rd + 2nd).
    assert r.places() == (Place(2, 2), Place(1, 1), Place(3, 3))


def test_equal_matches_share_places() -> None:
    r = TableResult.of([game((A, B), (0,), 1), game((A, B), (1,), 0)])
    assert r.places() == (Place(1, 2), Place(1, 2))
    assert r.places()[0].points(2) == Fraction(1, 2)
    assert bye_points(2) == 1 and bye_points(5) == 2  # a win at 2 seats, else the mean


@settings(max_examples=60, deadline=None)
@given(
    st.integers(2, 6),
    st.lists(st.tuples(st.permutations(range(6)), st.booleans()), min_size=1, max_size=4),
)
def test_a_table_always_hands_out_the_same_points(
    n: int, raw: list[tuple[list[int], bool]]
) -> None:
    seats = tuple(range(100, 100 + n))
    games = []
    for perm, draw in raw:
        order = tuple(s for s in perm if s < n)
        games.append(game(seats, order, None) if draw else game(seats, order[:-1], order[-1]))
    r = TableResult.of(games)
    places = r.places()
    assert sum(p.points(n) for p in places) == Fraction(n * (n - 1), 2)
    # Shared places cover exactly the seats that share them.
    for p in places:
        assert sum(q == p for q in places) == p.last - p.first + 1


def test_match_over() -> None:
    win_a = game((A, B), (0,), 1)
    win_b = game((A, B), (1,), 0)
    draw = game((A, B), (0, 1), None)
    one = TableResult.of([win_a])
    assert one.is_over(MatchLength.games(1)) and not one.is_over(MatchLength.games(2))
    tied = TableResult.of([win_a, win_b])
    assert tied.is_over(MatchLength.games(2))
    # Single elimination needs a winner: a tied match goes on to a deciding game.
    assert not tied.is_over(MatchLength.games(2), decisive=True)
    assert not TableResult.of([win_a, win_b, draw]).is_over(MatchLength.games(2), decisive=True)
    assert TableResult.of([win_a, win_b, draw, win_b]).is_over(MatchLength.games(2), True)
    # V17: until one player has been the Durak N times; draws only count as games.
    two = MatchLength.losses(2)
    assert not TableResult.of([win_a, draw, win_b, draw]).is_over(two)
    assert TableResult.of([win_a, draw, win_b, win_a]).is_over(two, decisive=True)


@pytest.mark.parametrize(
    ("seats", "order", "durak", "code"),
    [
        ((A,), (), 0, "seat_count"),
        ((A, A), (0,), 1, "seats_twice"),
        ((A, B, C), (0,), 1, "finish"),
        ((A, B), (0, 1), 1, "finish"),
        ((A, B), (0, 2), None, "finish"),
    ],
)
def test_bad_games_are_refused(
    seats: tuple[int, ...], order: tuple[int, ...], durak: int | None, code: str
) -> None:
    with pytest.raises(ResultError) as caught:
        game(seats, order, durak)
    assert caught.value.code == code


def test_games_of_another_table_do_not_make_a_match() -> None:
    with pytest.raises(ResultError, match="not of round 1 table 1"):
        TableResult.of([game((A, B), (0,), 1), game((A, B), (0,), 1, table=2)])
    with pytest.raises(ResultError, match="at least one game"):
        TableResult.of([])


def test_rounds_from_games_counts_finished_matches_only() -> None:
    p = Pairing(1, (SeatedTable(1, (A, B)), SeatedTable(2, (C, D))))
    games = [game((A, B), (0,), 1), game((C, D), (1,), 0, table=2), game((A, B), (1,), 0)]
    (record,) = rounds_from_games([p], games, MatchLength.games(2))
    assert [r.table for r in record.results] == [1] and record.pending_tables() == (2,)
    assert not record.complete
    with pytest.raises(ResultError, match="round 1 table 3, which was not paired"):
        rounds_from_games([p], [game((A, B), (0,), 1, table=3)], MatchLength.games(1))
    with pytest.raises(ResultError, match="paired with other seats"):
        rounds_from_games([p], [game((B, A), (0,), 1)], MatchLength.games(1))
    one = TableResult.of([game((A, B), (0,), 1)])
    with pytest.raises(ResultError, match="two results"):
        RoundRecord(p, (one, one))
