"""Leaderboards, user stats and channel history, including bad input."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from bot.storage import GameRecord, InvalidQuery, LeaderboardQuery, Storage

MakeGame = Callable[..., GameRecord]


@pytest.fixture
async def league(storage: Storage, make_game: MakeGame) -> Storage:
    """Guild 1 wins/games: user 1 4/4, user 2 2/6, user 3 1/1, user 4 4/11 (all vs user 4)."""
    for _ in range(4):
        await storage.record_game(make_game([1, 4], [0], 1))
    for order, durak in [([0], 1)] * 2 + [([1], 0)] * 4:
        await storage.record_game(make_game([2, 4], order, durak))
    await storage.record_game(make_game([3, 4], [0], 1))
    await storage.record_game(make_game([1, 2], [0], 1, guild_id=2))
    return storage


async def test_leaderboard_by_wins(league: Storage) -> None:
    page = await league.leaderboard(LeaderboardQuery(1, "wins"))
    assert [(e.rank, e.user_id, e.wins) for e in page.entries] == [
        (1, 1, 4),
        (2, 4, 4),
        (3, 2, 2),
        (4, 3, 1),
    ]  # ties on wins: fewer games first
    assert (page.page, page.pages, page.total) == (1, 1, 4)


async def test_leaderboard_by_win_rate_applies_min_games(league: Storage) -> None:
    page = await league.leaderboard(LeaderboardQuery(1, "win_rate", min_games=4))
    assert [e.user_id for e in page.entries] == [1, 4, 2]
    assert page.entries[0].win_rate == 1.0
    assert page.total == 3
    everyone = await league.leaderboard(LeaderboardQuery(1, "win_rate", min_games=0))
    assert [e.user_id for e in everyone.entries][:2] == [1, 3]  # both 100 %: more games first


async def test_leaderboard_by_rating_is_sorted(league: Storage) -> None:
    page = await league.leaderboard(LeaderboardQuery(1, "rating"))
    ratings = [e.rating for e in page.entries]
    assert ratings == sorted(ratings, reverse=True)
    assert page.entries[0].user_id == 1
    assert page.total == 4


async def test_leaderboard_pages(league: Storage) -> None:
    p1 = await league.leaderboard(LeaderboardQuery(1, "wins", page=1, page_size=3))
    p2 = await league.leaderboard(LeaderboardQuery(1, "wins", page=2, page_size=3))
    assert (p1.pages, p1.total, len(p1.entries)) == (2, 4, 3)
    assert [e.rank for e in p2.entries] == [4]
    past = await league.leaderboard(LeaderboardQuery(1, "wins", page=3, page_size=3))
    assert past.entries == [] and past.total == 4
    empty = await league.leaderboard(LeaderboardQuery(12345, "rating"))
    assert (empty.entries, empty.pages, empty.total) == ([], 0, 0)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"page": 0}, "page must be >= 1"),
        ({"page_size": 0}, "page_size"),
        ({"page_size": 51}, "page_size"),
        ({"min_games": -1}, "min_games"),
        ({"sort": "elo"}, "sort"),
    ],
)
def test_leaderboard_bad_arguments(kwargs: dict[str, object], message: str) -> None:
    args: dict[str, object] = {"sort": "wins", **kwargs}
    with pytest.raises(InvalidQuery, match=message) as info:
        LeaderboardQuery(1, **args)  # type: ignore[arg-type]
    assert isinstance(info.value, ValueError)


async def test_unknown_user_has_zero_stats(league: Storage) -> None:
    for guild in (1, None):
        s = await league.user_stats(424242, guild)
        assert (s.games, s.wins, s.losses, s.best_streak, s.rating) == (0, 0, 0, 0, None)
        assert s.win_rate == 0.0 and s.display_name is None


async def test_channel_history(storage: Storage, make_game: MakeGame) -> None:
    a = (await storage.record_game(make_game([1, 2], [0], 1, channel_id=7))).game_id
    await storage.record_game(make_game([1, 2], [0], 1, channel_id=8))
    b = (await storage.record_game(make_game([1, 2], [], None, channel_id=7))).game_id
    history = await storage.channel_history(1, 7)
    assert [g.game_id for g in history] == [b, a]
    assert history[0].is_draw and [s.user_id for s in history[0].seats] == [1, 2]
    assert await storage.channel_history(1, 9) == []
