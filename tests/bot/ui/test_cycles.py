"""Clicks, table edits, pictures and turn notifications leave no reference cycles behind
(bot/ui/cycles.py): what the bot builds per click is freed by reference counting at once, not
by the cyclic garbage collector in batches that stop the event loop under load."""

from __future__ import annotations

import asyncio
import gc
import io
from collections import Counter
from pathlib import Path

import discord
import pytest

from tests.bot.helpers import open_table, public_message, running_bot, world
from tests.bot.tables.test_bot_game import latest_hand, settled

#: What the bot creates per click, edit or notification that discord.py or asyncio would tie
#: into a cycle.
WATCHED = (
    discord.ui.View,
    discord.ui.Item,
    discord.Interaction,
    discord.InteractionResponse,
    io.BytesIO,
    asyncio.CancelledError,
)


@pytest.mark.slow
async def test_clicks_leave_no_cycles(tmp_path: Path) -> None:
    async with world(tmp_path) as w, running_bot(w) as bot:
        fake = w.fake
        users = [w.alice, w.bob]
        table = await open_table(w, bot, users, w.channel)
        public = public_message(w, table)
        for user in users:
            await fake.click(user, public, f"dkt:{table.table_id}:hand")
        await fake.wait_for(lambda: settled(bot, table, users))
        gc.collect()
        gc.set_debug(gc.DEBUG_SAVEALL)  # what the collector finds is kept for us to look at
        try:
            for _ in range(6):
                assert table.state is not None
                actor = next(s for s in range(2) if table.state.legal_actions(s))
                owner = table.seats[actor].user_id
                assert owner is not None
                hand = latest_hand(fake, owner)
                button = next(b.custom_id for b in hand.buttons if b.custom_id)
                await fake.click(owner, hand, button)  # acts, edits the table, alerts retire
                await fake.wait_for(lambda: settled(bot, table, users))
            edits = [r for r in fake.requests if r.method == "PATCH" and "/channels/" in r.path]
            assert edits  # the table message was edited
            gc.collect()
            left = Counter(type(o).__name__ for o in gc.garbage if isinstance(o, WATCHED))
        finally:
            gc.set_debug(0)
            gc.garbage.clear()
            gc.collect()
        assert left == Counter()
