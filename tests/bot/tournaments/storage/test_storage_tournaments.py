"""Tournaments in storage, on both backends: every query round-trips, and every refusal is
typed and writes nothing."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from datetime import UTC, datetime, timedelta

import pytest

from bot.storage import GameRecord, InvalidQuery, ShardScope, Storage, TournamentLink, open_storage
from bot.tournaments.logic import PlayedGame, SignupError
from bot.tournaments.storage import (
    AlreadyJoined,
    LeaveClosed,
    NewTournament,
    RoundStatus,
    SignupClosed,
    SignupRefused,
    TournamentFull,
    TournamentNotFound,
    TournamentStatus,
    TournamentStore,
)
from tests.bot.storage.storage_helpers import count_rows
from tests.bot.tournaments.storage.tournament_helpers import (
    GUILD,
    linked,
    new_tournament,
    pairing,
    running_with,
)

MakeGame = Callable[..., GameRecord]
Status = TournamentStatus


async def test_create_get_and_list(storage: Storage) -> None:
    store = TournamentStore(storage)
    deadline = datetime(2026, 12, 24, 18, 0, tzinfo=UTC)
    new = new_tournament("cup-1").model_copy(update={"signup_deadline": deadline})
    t = await store.create_tournament(new)
    assert (t.tournament_id, t.guild_id, t.channel_id, t.organiser_id) == ("cup-1", GUILD, 100, 7)
    assert (t.settings, t.options, t.signup_deadline) == (new.settings, new.options, deadline)
    assert (t.name, t.status, t.current_round) == ("Cup cup-1", Status.SIGNUP, 0)
    assert (t.started_at, t.finished_at, t.signup_message_id) == (None, None, None)
    assert await store.get_tournament("cup-1") == t
    # Created again (a retry after a restart): the stored one stands.
    again = new_tournament("cup-1", table_size=4)
    assert await store.create_tournament(again) == t
    await store.create_tournament(new_tournament("cup-2"))
    await store.create_tournament(new_tournament("elsewhere", guild_id=2))
    assert [x.tournament_id for x in await store.guild_tournaments(GUILD)] == ["cup-2", "cup-1"]
    assert [x.tournament_id for x in await store.guild_tournaments(GUILD, limit=1)] == ["cup-2"]
    assert [x.tournament_id for x in await store.guild_tournaments(3)] == []
    with pytest.raises(InvalidQuery):
        await store.guild_tournaments(GUILD, limit=0)
    with pytest.raises(TournamentNotFound):
        await store.get_tournament("nope")


async def test_status_moves_and_messages(storage: Storage) -> None:
    store = TournamentStore(storage)
    await store.create_tournament(new_tournament("a"))
    await store.create_tournament(new_tournament("b"))
    await store.create_tournament(new_tournament("c"))
    before = datetime.now(UTC) - timedelta(seconds=1)
    a = await store.set_tournament_status("a", Status.RUNNING)
    assert a.status == Status.RUNNING and a.started_at is not None and a.started_at > before
    assert await store.set_tournament_status("a", Status.RUNNING) == a  # no-op
    with pytest.raises(InvalidQuery):
        await store.set_tournament_status("a", Status.SIGNUP)
    done = await store.set_tournament_status("a", Status.FINISHED)
    assert done.finished_at is not None and done.started_at == a.started_at
    with pytest.raises(InvalidQuery):
        await store.set_tournament_status("a", Status.CANCELLED)
    cancelled = await store.set_tournament_status("b", Status.CANCELLED)
    assert cancelled.started_at is None and cancelled.finished_at is not None
    assert [t.tournament_id for t in await store.active_tournaments()] == ["c"]
    await store.set_tournament_status("c", Status.RUNNING)
    assert [t.tournament_id for t in await store.active_tournaments()] == ["c"]

    await store.set_tournament_message("c", "signup", 2**62)
    await store.set_tournament_message("c", "standings", 555)
    c = await store.get_tournament("c")
    assert (c.signup_message_id, c.standings_message_id) == (2**62, 555)
    with pytest.raises(TournamentNotFound):
        await store.set_tournament_message("nope", "signup", 1)
    with pytest.raises(TournamentNotFound):
        await store.set_tournament_status("nope", Status.RUNNING)
    with pytest.raises(InvalidQuery):
        await store.set_tournament_status("c", "paused")  # type: ignore[arg-type]


async def test_a_shard_resumes_only_its_guilds(storage: Storage, storage_url: str) -> None:
    store = TournamentStore(storage)
    guilds = [1, 1 << 22, 3 << 22]  # shards 0, 1 and 1 of two
    for i, g in enumerate(guilds):
        await store.create_tournament(new_tournament(f"cup-{i}", guild_id=g))
    for shard, want in ((0, ["cup-0"]), (1, ["cup-1", "cup-2"])):
        scoped = await open_storage(storage_url, shards=ShardScope(2, (shard,)))
        scoped_store = TournamentStore(scoped)
        try:
            assert [t.tournament_id for t in await scoped_store.active_tournaments()] == want
        finally:
            await scoped.close()


async def test_entrants(storage: Storage) -> None:
    store = TournamentStore(storage)
    await store.create_tournament(new_tournament("cup", player_limit=3))
    first = await store.add_entrant("cup", 11, 20.5)
    assert (first.user_id, first.rating, first.signup_order) == (11, 20.5, 0)
    assert not first.withdrawn
    await store.add_entrant("cup", 2**62, 25.0)
    with pytest.raises(AlreadyJoined) as joined:
        await store.add_entrant("cup", 11, 30.0)
    # The bot answers a refusal with the tournament core's catalogue key.
    assert joined.value.code == "already_joined" == SignupError("already_joined", "").code
    assert await store.remove_entrant("cup", 11) is True
    assert await store.remove_entrant("cup", 11) is False
    await store.add_entrant("cup", 11, 20.5)  # rejoining goes last
    await store.add_entrant("cup", 13, 1.0)
    with pytest.raises(TournamentFull) as full:
        await store.add_entrant("cup", 14, 1.0)
    assert full.value.code == "full"
    entrants = await store.tournament_entrants("cup")
    assert [(e.user_id, e.signup_order) for e in entrants] == [(2**62, 1), (11, 2), (13, 3)]
    assert [e.entrant.player for e in entrants] == [2**62, 11, 13]

    with pytest.raises(InvalidQuery):
        await store.withdraw_entrant("cup", 13)  # not running yet: leave instead
    await store.set_tournament_status("cup", Status.RUNNING)
    with pytest.raises(SignupClosed) as closed:
        await store.add_entrant("cup", 15, 1.0)
    assert closed.value.code == "started"
    with pytest.raises(LeaveClosed) as leave:
        await store.remove_entrant("cup", 13)
    assert leave.value.code == "leave_started"
    assert await store.withdraw_entrant("cup", 13) is True
    assert await store.withdraw_entrant("cup", 13) is False
    assert await store.withdraw_entrant("cup", 99) is False
    entrants = await store.tournament_entrants("cup")
    assert [(e.user_id, e.withdrawn) for e in entrants] == [(2**62, False), (11, False), (13, True)]
    with pytest.raises(TournamentNotFound):
        await store.add_entrant("nope", 1, 1.0)
    with pytest.raises(TournamentNotFound):
        await store.tournament_entrants("nope")


async def test_concurrent_joins_stop_at_the_limit(storage: Storage) -> None:
    store = TournamentStore(storage)
    await store.create_tournament(new_tournament("cup", player_limit=4))
    got = await asyncio.gather(
        *(store.add_entrant("cup", u, 1.0) for u in range(1, 11)), return_exceptions=True
    )
    joined = [g for g in got if not isinstance(g, BaseException)]
    assert len(joined) == 4
    assert all(isinstance(g, TournamentFull) for g in got if isinstance(g, BaseException))
    assert sorted(e.signup_order for e in await store.tournament_entrants("cup")) == [0, 1, 2, 3]


async def test_two_processes_pairing_one_round(storage: Storage, storage_url: str) -> None:
    store = TournamentStore(storage)
    await running_with(storage, new_tournament("cup"), [1, 2, 3, 4])
    other = await open_storage(storage_url)  # another process's storage, same database
    other_store = TournamentStore(other)
    try:
        mine, theirs = pairing(1, (4, 3), (2, 1)), pairing(1, (4, 2), (3, 1))
        got = await asyncio.gather(
            store.save_round("cup", mine), other_store.save_round("cup", theirs),
            return_exceptions=True,
        )  # fmt: skip
        # One pairing is stored whole; the other is refused, whichever came second.
        assert sorted(map(type, got), key=str) == sorted([bool, InvalidQuery], key=str)
        [stored] = await other_store.tournament_rounds("cup")
        assert stored.pairing == (mine if got[0] is True else theirs)
        assert await count_rows(storage, "tournament_tables") == 2
    finally:
        await other.close()


async def test_rounds_and_tables(storage: Storage) -> None:
    store = TournamentStore(storage)
    await store.create_tournament(new_tournament("cup", table_size=2))
    for p in (1, 2, 3, 4, 5):
        await store.add_entrant("cup", p, float(p))
    one = pairing(1, (5, 4), (3, 2), byes=(1,))
    with pytest.raises(InvalidQuery):
        await store.save_round("cup", one)  # still in sign-up
    await store.set_tournament_status("cup", Status.RUNNING)
    with pytest.raises(InvalidQuery):
        await store.save_round("cup", pairing(2, (5, 4), (3, 2), byes=(1,)))  # not next
    with pytest.raises(InvalidQuery):
        await store.save_round("cup", pairing(1, (5, 4), (3, 99), byes=(1,)))  # a stranger
    with pytest.raises(InvalidQuery):
        await store.save_round("cup", pairing(1, (5, 4), (3, 5), byes=(1,)))  # seated twice
    assert await store.save_round("cup", one) is True
    assert await store.save_round("cup", one) is False  # the same again: no-op
    with pytest.raises(InvalidQuery):
        await store.save_round("cup", pairing(1, (5, 3), (4, 2), byes=(1,)))  # another one
    two = pairing(2, (1, 5), (4, 3), byes=(2,))
    with pytest.raises(InvalidQuery):
        await store.save_round("cup", two)  # round 1 is still open
    assert (await store.get_tournament("cup")).current_round == 1

    assert await store.open_tournament_table("cup", 1, 2, "table-b") is True
    assert await store.open_tournament_table("cup", 1, 2, "table-b") is False
    with pytest.raises(InvalidQuery):
        await store.open_tournament_table("cup", 1, 2, "table-c")  # another bot table
    with pytest.raises(InvalidQuery):
        await store.open_tournament_table("cup", 1, 3, "table-c")  # not paired

    assert await store.finish_round("cup", 1) is True
    assert await store.finish_round("cup", 1) is False
    with pytest.raises(InvalidQuery):
        await store.finish_round("cup", 2)
    assert await store.withdraw_entrant("cup", 2)
    with pytest.raises(InvalidQuery):
        await store.save_round("cup", two)  # 2 has withdrawn
    two = pairing(2, (1, 5), (4, 3))
    assert await store.save_round("cup", two) is True

    [r1, r2] = await store.tournament_rounds("cup")
    assert (r1.pairing, r1.status, r2.pairing, r2.status) == (
        one, RoundStatus.FINISHED, two, RoundStatus.RUNNING,
    )  # fmt: skip
    assert [t.bot_table_id for t in r1.tables] == [None, "table-b"]
    assert r1.finished_at is not None and r2.finished_at is None
    assert (await store.get_tournament("cup")).current_round == 2
    with pytest.raises(TournamentNotFound):
        await store.tournament_rounds("nope")
    with pytest.raises(TournamentNotFound):
        await store.save_round("nope", one)


async def test_tournament_games_are_linked_and_count(storage: Storage, make_game: MakeGame) -> None:
    store = TournamentStore(storage)
    await running_with(storage, new_tournament("cup", table_size=3, ai_fill=True), [1, 2, 3, 4])
    await store.save_round("cup", pairing(1, (4, 3, None), (2, 1, None)))
    ordinary = (await storage.record_game(make_game([1, 2], [0], 1))).game_id
    # Table 1: 4 first out, the AI seat next, 3 the Durak (listed last, as engines may).
    g1 = linked(make_game([4, 3, "easy"], [0, 2, 1], 1), "cup", 1, 1)
    # Table 2: an AI took 1's seat over; a draw whose order names one seat.
    g2 = linked(make_game([2, "hard", "easy"], [0], None), "cup", 1, 2)
    assert (await storage.record_game(g1)).game_id == g1.game_id
    assert (await storage.record_game(g2)).game_id == g2.game_id
    assert (await storage.record_game(g1)).game_id == g1.game_id  # again: no-op

    assert await store.tournament_games("cup") == [
        PlayedGame(1, 1, (4, 3, None), (0, 2), 1),
        PlayedGame(1, 2, (2, 1, None), (0, 1, 2), None),
    ]
    link = TournamentLink(tournament_id="cup", round=1, table=1)
    assert (await storage.get_game(g1.game_id)).tournament == link
    assert await storage.get_game(g1.game_id) == g1
    assert (await storage.get_game(ordinary)).tournament is None
    history = await storage.channel_history(GUILD, 100)
    assert [(h.game_id, h.tournament) for h in history] == [
        (g2.game_id, g2.tournament), (g1.game_id, link), (ordinary, None),
    ]  # fmt: skip
    # They count like any game.
    assert (await storage.user_stats(4, GUILD)).wins == 1
    assert (await storage.user_stats(3, GUILD)).losses == 1
    assert (await storage.user_stats(2, GUILD)).draws == 1
    assert await count_rows(storage, "tournament_games") == 2


@pytest.mark.parametrize(
    ("players", "link", "why"),
    [
        ([4, 3], (1, 1), "two seats at a three-seat table"),
        ([4, 3, 2], (1, 1), "a player not paired there"),
        ([3, 4, "easy"], (1, 1), "players in swapped seats"),
        ([4, 3, "easy"], (1, 3), "a table that was not paired"),
        ([4, 3, "easy"], (2, 1), "a round that was not paired"),
    ],
)
async def test_a_game_not_of_its_table_is_refused(
    storage: Storage, make_game: MakeGame, players: list[int | str], link: tuple[int, int], why: str
) -> None:
    store = TournamentStore(storage)
    await running_with(storage, new_tournament("cup", table_size=3, ai_fill=True), [1, 2, 3, 4])
    await store.save_round("cup", pairing(1, (4, 3, None), (2, 1, None)))
    game = linked(make_game(players, [0], 1), "cup", *link)
    with pytest.raises(InvalidQuery):
        await storage.record_game(game)
    assert await count_rows(storage, "games") == 0, why
    assert await count_rows(storage, "guild_stats") == 0
    other_guild = linked(make_game([4, 3, "easy"], [0], 1, guild_id=2), "cup", 1, 1)
    with pytest.raises(InvalidQuery):
        await storage.record_game(other_guild)
    with pytest.raises(InvalidQuery):
        await storage.record_game(linked(make_game([4, 3, "easy"], [0], 1), "nope", 1, 1))
    assert await count_rows(storage, "games") == 0


def test_refusals_are_value_errors() -> None:
    # The bot catches ValueError for every refusal of bad input, the core's and the storage's.
    assert issubclass(SignupRefused, ValueError) and issubclass(InvalidQuery, ValueError)


def test_deadline_must_be_aware() -> None:
    with pytest.raises(ValueError, match="timezone"):
        NewTournament.model_validate(
            {**new_tournament().model_dump(), "signup_deadline": datetime(2026, 12, 1)}
        )
