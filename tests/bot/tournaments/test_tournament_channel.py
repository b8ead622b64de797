"""Issue #30, bugs 1 and 2: a tournament where its tables cannot open. One created in a thread,
or where the bot may not create threads, is refused with the reason; one whose channel denies
thread creation after it started says so, once, in the channel and on its standings, and goes
on by itself as soon as the permission is back."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from bot.text import t
from bot.tournaments.storage import TournamentStatus
from tests.bot.helpers import World, running_bot, world
from tests.bot.tournaments.test_tournament_signup import (
    description,
    only_tournament,
    organiser_bot,
    say,
    signed_up,
    until,
)


async def say_in(w: World, channel: int, who: int, *path: str, **options: object) -> str:
    res = await w.fake.slash(who, channel, "durak-tournament", *path, options=options)
    if res.response_type == 5:
        await res.wait_until(lambda r: r.message is not None and not r.message.loading, 20)
    return res.content


async def test_a_tournament_in_a_thread_or_without_thread_permission_is_refused(
    tmp_path: Path,
) -> None:
    async with organiser_bot(tmp_path) as (w, bot):
        fake = w.fake
        parent = fake.store.channels[w.channel]
        thread = fake.store.add_thread(parent, "a table", owner_id=fake.bot_user_id, type=11)
        answer = await say_in(w, thread.id, w.alice, "new", name="Cup")
        assert answer == t("err.tournament_channel")
        await fake.deny_threads(w.channel)
        answer = await say(w, w.alice, "new", name="Cup")
        missing = t("tournament.permission.create_public_threads")
        assert answer == t("err.tournament_permissions", permissions=missing)
        assert await bot.tournaments.store.guild_tournaments(w.guild) == []
        # allowed at creation, denied again before the start: the start says why
        await fake.deny_threads(w.channel, denied=False)
        await signed_up(w, bot, (w.bob, w.carol), name="Cup")
        await fake.deny_threads(w.channel)
        answer = await say(w, w.alice, "start")
        assert answer == t("err.tournament_permissions", permissions=missing)
        assert (await only_tournament(bot, w.guild)).status is TournamentStatus.SIGNUP


@pytest.mark.slow  # over a second: out of the quick subset
async def test_a_refused_thread_is_said_once_and_the_tournament_resumes_when_allowed(
    tmp_path: Path,
) -> None:
    async with world(tmp_path) as w, running_bot(w) as bot:
        fake = w.fake
        tr = await signed_up(w, bot, (w.bob, w.carol), name="Cup", timer=1)
        # the override comes after the sign-up; the start, from another channel, cannot see it
        await fake.deny_threads(w.channel)
        elsewhere = fake.add_channel(w.guild, "staff")
        started = await say_in(w, elsewhere, w.alice, "start")
        assert started == t("tournament.ok.started", name="Cup")
        missing = t("tournament.permission.create_public_threads")
        notice = t(
            "tournament.blocked.permission",
            name="Cup",
            permission=missing,
            organiser=f"<@{w.alice}>",
        )

        def notices() -> list[str]:
            return [m.content for m in fake.channel_messages(w.channel) if m.content == notice]

        await fake.wait_for(notices, 10, what="the organiser told in the channel")
        store = bot.tournaments.store

        async def board_says_stuck() -> bool:
            board = (await only_tournament(bot, w.guild)).standings_message_id
            return board is not None and missing in description(fake, board)

        await until(board_says_stuck)
        await asyncio.sleep(5)  # two ticks of the runner: no retry loop, no second notice
        assert len(notices()) == 1 and fake.threads(w.channel) == []
        # the permission is back: the tables open without anyone asking, the board clears
        await fake.deny_threads(w.channel, denied=False)
        await fake.wait_for(lambda: fake.threads(w.channel), 10, what="the round's table")
        resumed = t("tournament.blocked.resumed", name="Cup")
        await fake.wait_for(
            lambda: any(m.content == resumed for m in fake.channel_messages(w.channel)), 10
        )

        async def board_clear() -> bool:
            board = (await only_tournament(bot, w.guild)).standings_message_id
            return board is not None and missing not in description(fake, board)

        await until(board_clear)
        rounds = await store.tournament_rounds(tr.tournament_id)
        assert rounds[0].tables[0].bot_table_id is not None
