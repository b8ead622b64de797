"""Issue #47 "a break between rounds": with ``break`` minutes, the next round is paired that
long after the last one ended; the channel and the round's threads are told when, with a
countdown (a Discord relative timestamp), and so is the standings message; an undo in the
break still counts (the next round is not paired yet)."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import pytest

from bot.text import t
from tests.bot.helpers import running_bot, world
from tests.bot.tournaments.test_tournament_late import finish_round, paired_round
from tests.bot.tournaments.test_tournament_signup import description, joined_by, say, until


@pytest.mark.slow  # a round decided by the organiser, then the break
async def test_the_next_round_waits_for_the_break_and_says_when(tmp_path: Path) -> None:
    async with world(tmp_path) as w, running_bot(w) as bot:
        fake = w.fake
        store = bot.tournaments.store
        tr, _ = await joined_by(
            w, bot, "bob", "carol", "dave", "erin", name="Cup", rounds=2, timer=600,
            **{"break": 1},
        )  # fmt: skip
        tid = tr.tournament_id
        await say(w, w.alice, "start")
        await finish_round(w, bot, tid, 1)

        async def in_break() -> bool:
            return (await store.get_tournament(tid)).options.get("break_round") == 2

        await until(in_break)
        until_at = (await store.get_tournament(tid)).options["break_until"]
        (first,) = await store.tournament_rounds(tid)
        assert first.finished_at is not None
        assert until_at == int(first.finished_at.timestamp()) + 60
        told = t(
            "tournament.break", name="Cup", round=2, when=f"<t:{until_at}:R>",
            at=f"<t:{until_at}:t>",
        )  # fmt: skip
        await fake.wait_for(
            lambda: any(m.content == told for m in fake.channel_messages(w.channel)), 10
        )
        board = (await store.get_tournament(tid)).standings_message_id
        assert board is not None
        note = t("tournament.break_note", round=2, when=f"<t:{until_at}:R>")
        await fake.wait_for(lambda: note in description(fake, board), 10)
        await asyncio.sleep(2.5)  # a tick of the runner: still in the break
        assert len(await store.tournament_rounds(tid)) == 1
        # the result of round 1 may still be taken back: round 2 is not paired
        assert await say(w, w.alice, "undo", table="1:1") == t(
            "tournament.ok.undone", name="Cup", round=1, table=1
        )
        await finish_round(w, bot, tid, 1)

        bot.tournaments.clock = lambda: time.time() + 120  # the break is over
        await paired_round(bot, tid, 2)
        await fake.wait_for(lambda: note not in description(fake, board), 10)
        await say(w, w.alice, "cancel")
