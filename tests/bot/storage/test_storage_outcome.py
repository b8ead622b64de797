"""R21 scoring and openskill ratings, independent of any database."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from openskill.models import PlackettLuce

from bot.storage import GameRecord
from bot.storage.outcome import DEFAULT_RATING, Rating, rate_game, seat_outcomes

MakeGame = Callable[..., GameRecord]


def _results(rec: GameRecord) -> dict[int, tuple[str, int]]:
    return {o.seat: (o.result, o.place) for o in seat_outcomes(rec)}


def test_first_out_wins_durak_loses_rest_played(make_game: MakeGame) -> None:
    rec = make_game([1, 2, 3, 4], [2, 0, 3], 1)
    assert _results(rec) == {2: ("win", 1), 0: ("played", 2), 3: ("played", 3), 1: ("loss", 5)}


def test_durak_listed_last_is_still_the_loser(make_game: MakeGame) -> None:
    rec = make_game([1, 2, 3], [2, 0, 1], 1)
    assert _results(rec)[1] == ("loss", 5)


def test_draw_scores_nothing_and_ties_everyone(make_game: MakeGame) -> None:
    rec = make_game([1, 2, 3], [1], None)
    assert _results(rec) == {0: ("draw", 1), 1: ("draw", 1), 2: ("draw", 1)}


def test_whole_losing_team_loses(make_game: MakeGame) -> None:
    rec = make_game([1, 2, 3, 4], [0, 2], 3, teams=[0, 1, 0, 1])
    assert {s: r for s, (r, _) in _results(rec).items()} == {
        0: "win",
        1: "loss",
        2: "played",
        3: "loss",
    }


def test_ratings_match_openskill_with_finishing_ranks(make_game: MakeGame) -> None:
    rec = make_game([1, 2, 3], [2, 0], 1)
    prior = {"user:1": Rating(30.0, 5.0)}
    got = rate_game(rec, prior)
    model = PlackettLuce()
    a, b, c = (
        model.rating(mu=r.mu, sigma=r.sigma) for r in (prior["user:1"], *[DEFAULT_RATING] * 2)
    )
    want = model.rate([[a], [b], [c]], ranks=[2, 5, 1])
    assert got["user:1"].mu == pytest.approx(want[0][0].mu)
    assert got["user:2"].mu == pytest.approx(want[1][0].mu)
    assert got["user:3"].mu == pytest.approx(want[2][0].mu)
    assert got["user:3"].mu > DEFAULT_RATING.mu > got["user:2"].mu


def test_draw_leaves_equal_players_equal(make_game: MakeGame) -> None:
    got = rate_game(make_game([1, 2], [], None), {})
    assert got["user:1"] == got["user:2"]
    assert got["user:1"].mu == pytest.approx(DEFAULT_RATING.mu)
    assert got["user:1"].sigma < DEFAULT_RATING.sigma


def test_team_members_move_together(make_game: MakeGame) -> None:
    got = rate_game(make_game([1, 2, 3, 4], [0], 3, teams=[0, 1, 0, 1]), {})
    assert got["user:1"] == got["user:3"]
    assert got["user:2"] == got["user:4"]
    assert got["user:1"].mu > got["user:2"].mu


def test_same_ai_level_twice_gets_one_averaged_rating(make_game: MakeGame) -> None:
    got = rate_game(make_game(["easy", 1, "easy"], [0, 1], 2), {})
    assert set(got) == {"ai:easy", "user:1"}
    assert got["ai:easy"].ordinal == got["ai:easy"].mu - 3 * got["ai:easy"].sigma
