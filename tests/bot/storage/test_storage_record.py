"""Recording finished games: R21 aggregates, streaks, ratings, idempotency, series."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from bot.storage import (
    GameNotFound,
    GameRecord,
    InvalidQuery,
    LeaderboardQuery,
    Storage,
    StorageError,
    UnknownPlayer,
)
from tests.bot.storage.storage_helpers import count_rows

MakeGame = Callable[..., GameRecord]


async def test_r21_wins_losses_draws(storage: Storage, make_game: MakeGame) -> None:
    await storage.record_game(make_game([1, 2, 3], [0, 2], 1))  # 1 wins, 2 Durak
    await storage.record_game(make_game([1, 2, 3], [2, 0], 1))  # 3 wins, 2 Durak
    await storage.record_game(make_game([1, 2, 3], [0], None))  # draw: nothing scored
    got = {u: await storage.user_stats(u, 1) for u in (1, 2, 3)}
    assert [(s.games, s.wins, s.losses, s.draws) for s in got.values()] == [
        (3, 1, 0, 1),
        (3, 0, 2, 1),
        (3, 1, 0, 1),
    ]
    assert got[1].display_name == "player-1"
    assert got[1].win_rate == pytest.approx(1 / 3)


async def test_streaks_count_consecutive_wins(storage: Storage, make_game: MakeGame) -> None:
    for order, durak in [([0], 1), ([0], 1), ([0], 1), ([1], 0), ([0], 1), ([0], 1)]:
        await storage.record_game(make_game([1, 2], order, durak))
    s = await storage.user_stats(1, 1)
    assert (s.current_streak, s.best_streak) == (2, 3)
    await storage.record_game(make_game([1, 2], [], None))  # a draw is not a win
    s = await storage.user_stats(1, 1)
    assert (s.current_streak, s.best_streak) == (0, 3)


async def test_team_loss_counts_for_every_member(storage: Storage, make_game: MakeGame) -> None:
    await storage.record_game(make_game([1, 2, 3, 4], [0], 3, teams=[0, 1, 0, 1]))
    losses = {u: (await storage.user_stats(u, 1)).losses for u in (1, 2, 3, 4)}
    wins = {u: (await storage.user_stats(u, 1)).wins for u in (1, 2, 3, 4)}
    assert losses == {1: 0, 2: 1, 3: 0, 4: 1}
    assert wins == {1: 1, 2: 0, 3: 0, 4: 0}


async def test_ratings_move_per_guild(storage: Storage, make_game: MakeGame) -> None:
    for _ in range(3):
        await storage.record_game(make_game([1, 2], [0], 1, guild_id=1))
    await storage.record_game(make_game([1, 2], [1], 0, guild_id=2))
    g1 = (await storage.user_stats(1, 1), await storage.user_stats(2, 1))
    g2 = (await storage.user_stats(1, 2), await storage.user_stats(2, 2))
    assert g1[0].rating is not None and g1[1].rating is not None
    assert g1[0].rating > g1[1].rating
    assert g2[0].rating is not None and g2[1].rating is not None
    assert g2[0].rating < g2[1].rating
    assert g1[0].mu is not None and g1[0].sigma is not None
    assert g1[0].rating == pytest.approx(g1[0].mu - 3 * g1[0].sigma)
    # Across guilds there is no single rating, but counts add up.
    everywhere = await storage.user_stats(1, None)
    assert (everywhere.games, everywhere.wins, everywhere.losses) == (4, 3, 1)
    assert everywhere.rating is None


async def test_record_is_idempotent_per_game_id(storage: Storage, make_game: MakeGame) -> None:
    rec = make_game([1, 2, "easy"], [0, 2], 1)
    assert (await storage.record_game(rec)).game_id == rec.game_id
    before = await storage.user_stats(1, 1)
    assert (await storage.record_game(rec)).game_id == rec.game_id
    assert await storage.user_stats(1, 1) == before
    assert await count_rows(storage, "games") == 1
    assert await count_rows(storage, "game_seats") == 3


async def test_record_returns_each_human_seats_rating_change(
    storage: Storage, make_game: MakeGame
) -> None:
    """The change the Activity's results screen shows: the guild rating (the leaderboard's)
    before and after, for human seats only; unknown when the game was stored already."""
    await storage.record_game(make_game([1, 2], [0], 1))
    before = (await storage.user_stats(1, 1)).rating
    rec = make_game([1, "easy", 3], [2, 1], 0)  # 3 out first, 1 the Durak
    recorded = await storage.record_game(rec)
    assert set(recorded.ratings) == {0, 2}  # seat 1 is an AI: no change shown
    one, three = await storage.user_stats(1, 1), await storage.user_stats(3, 1)
    assert before is not None and one.rating is not None and three.rating is not None
    assert recorded.ratings[0].before == pytest.approx(before)
    assert recorded.ratings[0].after == pytest.approx(one.rating)
    assert recorded.ratings[2].before == pytest.approx(0.0)  # a first game: openskill's prior
    assert recorded.ratings[2].after == pytest.approx(three.rating)
    assert recorded.ratings[2].delta > 0 > recorded.ratings[0].delta
    assert (await storage.record_game(rec)).ratings == {}


async def test_get_game_round_trips_everything(storage: Storage, make_game: MakeGame) -> None:
    rec = make_game([1, "hard", 3, 4], [1, 3], 0, teams=[0, 1, 0, 1])
    await storage.record_game(rec)
    assert await storage.get_game(rec.game_id) == rec


async def test_unknown_game_id(storage: Storage) -> None:
    with pytest.raises(GameNotFound) as info:
        await storage.get_game("nope")
    assert isinstance(info.value, LookupError) and isinstance(info.value, StorageError)
    assert "nope" in str(info.value)


async def test_ai_seats_are_rated_but_hidden_by_default(
    storage: Storage, make_game: MakeGame
) -> None:
    for _ in range(5):
        await storage.record_game(make_game(["hard", 1, "hard"], [0, 2], 1))
    humans = await storage.leaderboard(LeaderboardQuery(1, "wins", min_games=0))
    assert [e.user_id for e in humans.entries] == [1]
    everyone = await storage.leaderboard(LeaderboardQuery(1, "wins", min_games=0, include_ai=True))
    top = everyone.entries[0]
    # Two "hard" seats per game share one AI player key.
    assert (top.kind, top.ai_level, top.games, top.wins) == ("ai", "hard", 10, 5)


async def test_finish_series_is_idempotent(storage: Storage, make_game: MakeGame) -> None:
    await storage.record_game(make_game([1, 2, 3], [0, 1], 2))
    assert await storage.finish_series(1, "series-1", winners=[1], losers=[2, 3]) is True
    assert await storage.finish_series(1, "series-1", winners=[1], losers=[2, 3]) is False
    s1, s2 = await storage.user_stats(1, 1), await storage.user_stats(2, None)
    assert (s1.series_won, s1.series_lost) == (1, 0)
    assert (s2.series_won, s2.series_lost) == (0, 1)


async def test_finish_series_with_unknown_user_changes_nothing(
    storage: Storage, make_game: MakeGame
) -> None:
    await storage.record_game(make_game([1, 2], [0], 1))
    with pytest.raises(UnknownPlayer, match="999"):
        await storage.finish_series(1, "s", winners=[1], losers=[999])
    assert (await storage.user_stats(1, 1)).series_won == 0
    # The series was not marked as counted, so a corrected call still applies.
    assert await storage.finish_series(1, "s", winners=[1], losers=[2]) is True


async def test_finish_series_rejects_overlap(storage: Storage) -> None:
    with pytest.raises(InvalidQuery):
        await storage.finish_series(1, "s", winners=[1], losers=[1])
