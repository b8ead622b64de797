"""/durak-tournament through the fake Discord: who may create one, the sign-up message and its
buttons, and every bad input of issue #18 item 6 answered from the catalogue with nothing
changed; then a small tournament played to its end by the AI standing in for no-shows."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextlib import asynccontextmanager
from pathlib import Path

import pytest

from bot.app import DurakBot
from bot.text import t
from bot.tournaments.logic import Standings, rounds_from_games, standings
from bot.tournaments.storage import (
    StoredRound,
    TournamentRecord,
    TournamentStatus,
    TournamentStore,
)
from tests.bot.helpers import World, running_bot, world
from tests.fake_discord import FakeDiscord, FakeMessage

MANAGE_EVENTS = 1 << 33


@asynccontextmanager
async def organiser_bot(tmp_path: Path) -> AsyncIterator[tuple[World, DurakBot]]:
    """The fake Discord with the bot running, alice allowed to organise (Manage Events)."""
    async with world(tmp_path) as w, running_bot(w) as bot:
        w.fake.grant(w.alice, MANAGE_EVENTS)
        yield w, bot


async def say(w: World, who: int, *path: str, **options: object) -> str:
    res = await w.fake.slash(who, w.channel, "durak-tournament", *path, options=options)
    if res.response_type == 5:  # deferred: the answer replaces "thinking…"
        await res.wait_until(lambda r: r.message is not None and not r.message.loading, 20)
    return res.content


async def only_tournament(bot: DurakBot, guild: int) -> TournamentRecord:
    (tr,) = await bot.tournaments.store.guild_tournaments(guild)
    return tr


def display(fake: FakeDiscord, user: int) -> str:
    """The name the bot knows the user by (what Discord answers for the member)."""
    found = fake.store.users[user]
    return found.global_name or found.name


def description(fake: FakeDiscord, message: int) -> str:
    embeds = fake.message(message).embeds
    return str(embeds[0].get("description", "")) if embeds else ""


def champion_line(fake: FakeDiscord, table: Standings) -> str:
    """The standings message's line for the champion (or the joint champions)."""
    firsts = [display(fake, r.player) for r in table.rows if r.rank == 1]
    if len(firsts) == 1:
        return t("tstand.champion", name=firsts[0])
    return t("tstand.champions", names=", ".join(firsts))


async def until(check: Callable[[], Awaitable[bool]], timeout: float = 10.0) -> None:
    """Poll a condition on the bot's storage (the fake cannot see it change)."""
    end = time.monotonic() + timeout
    while not await check():
        assert time.monotonic() < end, "timed out"
        await asyncio.sleep(0.1)


async def reaches(
    store: TournamentStore, tournament_id: str, status: TournamentStatus, timeout: float = 60
) -> None:
    async def there() -> bool:
        return (await store.get_tournament(tournament_id)).status is status

    await until(there, timeout)


async def started(w: World, store: TournamentStore, tournament_id: str) -> str:
    """alice starts the tournament; once round 1's first table is open, its bot table id."""
    await say(w, w.alice, "start")

    async def opened() -> bool:
        rounds = await store.tournament_rounds(tournament_id)
        return bool(rounds) and rounds[0].tables[0].bot_table_id is not None

    await until(opened)
    table_id = (await store.tournament_rounds(tournament_id))[0].tables[0].bot_table_id
    assert table_id is not None
    return table_id


async def posted(bot: DurakBot, guild: int) -> TournamentRecord:
    """The only tournament, once its sign-up message is stored."""

    async def ready() -> bool:
        return (await only_tournament(bot, guild)).signup_message_id is not None

    await until(ready)
    return await only_tournament(bot, guild)


def signup(w: World, tr: TournamentRecord) -> FakeMessage:
    assert tr.signup_message_id is not None
    return w.fake.message(tr.signup_message_id)


async def signed_up(
    w: World, bot: DurakBot, players: Sequence[int], **options: object
) -> TournamentRecord:
    """alice (given Manage Events) creates a tournament with ``options``; ``players`` join."""
    w.fake.grant(w.alice, MANAGE_EVENTS)
    await say(w, w.alice, "new", **options)
    tr = await posted(bot, w.guild)
    for p in players:
        await w.fake.click(p, signup(w, tr), f"dkr:{tr.tournament_id}:join")
    return tr


@asynccontextmanager
async def four_cup(tmp_path: Path) -> AsyncIterator[tuple[World, DurakBot, str]]:
    """The bot running, bob, carol, dave and erin signed up to alice's "Cup" (Swiss, two rounds,
    a 10-minute timer), not started yet: the world, the bot and the tournament's id."""
    async with world(tmp_path) as w, running_bot(w) as bot:
        field = (w.bob, w.carol, w.fake.add_user("dave"), w.fake.add_user("erin"))
        tr = await signed_up(w, bot, field, name="Cup", rounds=2, timer=600)
        yield w, bot, tr.tournament_id


async def round_open(store: TournamentStore, tournament_id: str, number: int) -> StoredRound:
    """Round ``number``, once it is the last round paired and every table of it is open."""

    async def opened() -> bool:
        rounds = await store.tournament_rounds(tournament_id)
        return len(rounds) == number and all(p.bot_table_id for p in rounds[-1].tables)

    await until(opened)
    return (await store.tournament_rounds(tournament_id))[number - 1]


async def joined_by(
    w: World, bot: DurakBot, *names: str, **options: object
) -> tuple[TournamentRecord, list[int]]:
    """The users of ``names`` join a tournament made with ``options``, in that order: the
    world's alice, bob and carol by their names, anyone else as a new user; the tournament and
    the players."""
    known = {"alice": w.alice, "bob": w.bob, "carol": w.carol}
    players = [known[n] if n in known else w.fake.add_user(n) for n in names]
    return await signed_up(w, bot, players, **options), players


async def no_shows(
    w: World, bot: DurakBot, count: int, **options: object
) -> tuple[TournamentRecord, list[int]]:
    """``count`` new users join a tournament made with ``options`` (and never come: the AI
    plays their seats once the timer runs out); the tournament and the players."""
    return await joined_by(w, bot, *(f"p{i}" for i in range(count)), **options)


async def test_signup_refusals_change_nothing(tmp_path: Path) -> None:
    async with world(tmp_path) as w, running_bot(w) as bot:
        fake = w.fake
        dave = fake.add_user("dave")
        # creating needs Manage Events
        assert await say(w, w.alice, "new", name="Cup") == t("err.tournament_denied")
        assert await bot.tournaments.store.guild_tournaments(w.guild) == []
        fake.grant(w.alice, MANAGE_EVENTS)
        past = f"<t:{int(time.time()) - 60}>"
        assert await say(w, w.alice, "new", name="Cup", deadline=past) == t(
            "tournament.error.deadline_past"
        )
        assert await say(w, w.alice, "new", name="Cup", deadline="soon") == t("err.bad_deadline")
        assert await say(w, w.alice, "new", name="Cup", games=2, losses=2) == t("err.match_both")
        assert await bot.tournaments.store.guild_tournaments(w.guild) == []

        res = await fake.slash(
            w.alice, w.channel, "durak-tournament", "new",
            options={"name": "Cup", "table_size": 3, "limit": 3},
        )  # fmt: skip
        assert not res.ephemeral and res.embeds[0]["title"] == t(
            "tournament.signup.title", name="Cup"
        )
        tr = await posted(bot, w.guild)
        message = signup(w, tr)
        join, leave = (f"dkr:{tr.tournament_id}:{op}" for op in ("join", "leave"))
        assert {b.custom_id for b in message.buttons} == {join, leave}

        answer = await fake.click(w.bob, message, join)
        assert answer.content == t("tournament.ok.joined", name="Cup")
        again = await fake.click(w.bob, message, join)
        assert again.content == t("tournament.error.already_joined")
        not_in = await fake.click(w.carol, message, leave)
        assert not_in.content == t("tournament.error.not_joined")
        await fake.click(w.carol, message, join)
        # a table size the entrants cannot fill: 2 joined, 3-seat tables, no AI seats
        assert await say(w, w.alice, "start") == t(
            "tournament.error.too_few", need=3, count=2, size=3
        )
        assert (await only_tournament(bot, w.guild)).status is TournamentStatus.SIGNUP
        await fake.click(dave, message, join)
        full = await fake.click(w.alice, message, join)
        assert full.content == t("tournament.error.full")
        # only the organiser or Manage Events starts, cancels, removes
        assert await say(w, w.bob, "start") == t("err.tournament_denied")
        assert await say(w, w.bob, "remove", user=dave) == t("err.tournament_denied")
        entrants = await bot.tournaments.store.tournament_entrants(tr.tournament_id)
        assert [e.user_id for e in entrants] == [w.bob, w.carol, dave]
        await fake.wait_for(lambda: f"<@{dave}>" in str(signup(w, tr).embeds))

        # dave leaves the server: without him two are too few; the refused start changes
        # nothing (issue #47 item 3: a successful start takes him off)
        fake.leave_guild(w.guild, dave)
        assert await say(w, w.alice, "start") == t(
            "tournament.error.too_few", need=3, count=2, size=3
        )
        entrants = await bot.tournaments.store.tournament_entrants(tr.tournament_id)
        assert [e.user_id for e in entrants] == [w.bob, w.carol, dave]
        assert await say(w, w.alice, "cancel") == t("tournament.ok.cancelled", name="Cup")
        late = await fake.click(w.alice, message, join)
        assert late.content == t("tournament.error.started")
        history = await fake.slash(w.bob, w.channel, "durak-tournament", "history")
        assert "Cup" in history.embeds[0]["description"]


@pytest.mark.slow  # played out by the AI through the fake Discord
async def test_no_shows_are_played_by_the_ai_to_the_end(tmp_path: Path) -> None:
    async with organiser_bot(tmp_path) as (w, bot):
        fake = w.fake
        players = [w.bob, w.carol, *(fake.add_user(f"p{i}") for i in range(2))]
        await say(w, w.alice, "new", name="Night", table_size=2, rounds=2, timer=1, decider=False)
        tr = await posted(bot, w.guild)
        for p in players:
            await fake.click(p, signup(w, tr), f"dkr:{tr.tournament_id}:join")
        assert await say(w, w.alice, "start") == t("tournament.ok.started", name="Night")
        storage = bot.service.storage
        store = bot.tournaments.store

        await reaches(store, tr.tournament_id, TournamentStatus.FINISHED)
        tid = tr.tournament_id
        rounds = await store.tournament_rounds(tid)
        games = await store.tournament_games(tid)
        assert len(rounds) == 2 and len(games) == 4
        threads = fake.threads(w.channel)
        assert len(threads) == 4
        entrants = await store.tournament_entrants(tid)
        table = standings(
            [e.entrant for e in entrants],
            2,
            rounds_from_games([r.pairing for r in rounds], games, tr.settings.match),
        )
        board = (await only_tournament(bot, w.guild)).standings_message_id
        assert board is not None
        champion = champion_line(fake, table)
        await fake.wait_for(lambda: champion in description(fake, board))
        # nobody came: the AI played every game for them, which counts for none of them
        # (issue #30; test_tournament_withdraw.py: a player who plays is counted)
        stats = await storage.user_stats(players[0], w.guild)
        assert stats.games == 0
        # a tournament table keeps its thread: no table of one's own opens there
        thread = int(threads[0]["id"])
        mine = await fake.slash(w.bob, thread, "durak", "new")
        assert mine.content == t("err.table_exists")
        rematch = next(
            m
            for m in fake.channel_messages(thread)
            if any(":hand" in str(b.custom_id) for b in m.buttons)
        )
        assert not any(str(b.custom_id).endswith(":rematch") for b in rematch.buttons)
        # /durak history there marks its games as the tournament's, with round and table
        link = (await storage.channel_history(w.guild, thread))[0].tournament
        assert link is not None
        answer = await fake.slash(w.bob, thread, "durak", "history")
        mark = t("history.tournament", round=link.round, table=link.table)
        assert mark in str(answer.embeds[0]["description"])


@pytest.mark.slow  # played out by the AI through the fake Discord
async def test_single_elimination_gives_the_bye_to_seed_one_and_crowns_a_champion(
    tmp_path: Path,
) -> None:
    async with organiser_bot(tmp_path) as (w, bot):
        fake = w.fake
        await say(w, w.alice, "new", name="KO", format="single_elimination", timer=1)
        tr = await posted(bot, w.guild)
        for p in (w.bob, w.carol, w.alice):  # seeds by sign-up order (no ratings yet)
            await fake.click(p, signup(w, tr), f"dkr:{tr.tournament_id}:join")
        assert await say(w, w.alice, "start") == t("tournament.ok.started", name="KO")
        store = bot.tournaments.store

        await reaches(store, tr.tournament_id, TournamentStatus.FINISHED)
        rounds = await store.tournament_rounds(tr.tournament_id)
        games = await store.tournament_games(tr.tournament_id)
        # round 1: seeds 2 v 3, seed 1 (bob) has the bye; round 2: the final against bob
        assert rounds[0].byes == (w.bob,) and rounds[0].tables[0].seats == (w.carol, w.alice)
        # its only match of round 1 is the bracket's match 2, and the first table there
        # (issue #30 bug 13)
        first = fake.threads(w.channel)[0]["name"]
        assert rounds[0].tables[0].number == 2
        assert first == t("tournament.thread", name="KO", round=1, table=1)
        assert len(rounds) == 2 and w.bob in rounds[1].tables[0].seats
        final = [g for g in games if g.round == 2]
        assert final and final[-1].durak is not None  # decided: a draw would have gone on
        winner = final[-1].seats[final[-1].finishing_order[0]]
        board = (await only_tournament(bot, w.guild)).standings_message_id
        assert board is not None and winner is not None
        champion = t("tstand.champion", name=display(fake, winner))
        await fake.wait_for(lambda: champion in description(fake, board))


@pytest.mark.slow  # played out by the AI through the fake Discord
async def test_the_deadline_starts_it_or_cancels_it_with_too_few(tmp_path: Path) -> None:
    async with organiser_bot(tmp_path) as (w, bot):
        fake = w.fake
        store = bot.tournaments.store
        await say(w, w.alice, "new", name="Early", deadline="in 2m", timer=1)
        tr = await posted(bot, w.guild)
        assert tr.signup_deadline is not None
        for p in (w.bob, w.carol):
            await fake.click(p, signup(w, tr), f"dkr:{tr.tournament_id}:join")
        # a deadline is at least a minute away: the runner's clock jumps past it
        bot.tournaments.clock = lambda: time.time() + 180

        async def running() -> bool:
            got = await store.get_tournament(tr.tournament_id)
            return got.status is not TournamentStatus.SIGNUP

        await until(running, 15)
        assert (await store.get_tournament(tr.tournament_id)).status in (
            TournamentStatus.RUNNING,
            TournamentStatus.FINISHED,
        )
        # a second one, in another channel, whose deadline finds one entrant: cancelled
        other = fake.add_channel(w.guild, "cup-2")
        await fake.slash(
            w.alice, other, "durak-tournament", "new",
            options={"name": "Lonely", "deadline": f"<t:{int(time.time()) + 90}>"},
        )  # fmt: skip

        async def lonely() -> TournamentRecord | None:
            found = [x for x in await store.guild_tournaments(w.guild) if x.name == "Lonely"]
            return found[0] if found and found[0].signup_message_id else None

        async def has_lonely() -> bool:
            return await lonely() is not None

        await until(has_lonely)
        lone = await lonely()
        assert lone is not None and lone.signup_message_id is not None
        await fake.click(w.bob, lone.signup_message_id, f"dkr:{lone.tournament_id}:join")

        await reaches(store, lone.tournament_id, TournamentStatus.CANCELLED, 15)
        sign = lone.signup_message_id
        gone = t("tournament.status.cancelled")
        await fake.wait_for(lambda: gone in str(fake.message(sign).embeds))
        # issue #30 bug 9: the channel hears why, and the entrants and organiser are pinged
        why = t(
            "tournament.deadline_cancelled",
            name="Lonely",
            reason=t("tournament.error.too_few", need=2, count=1, size=2),
            players=f"<@{w.alice}> <@{w.bob}>",
        )
        await fake.wait_for(lambda: any(m.content == why for m in fake.channel_messages(other)))
