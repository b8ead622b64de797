"""Hands whose interaction token expired (15 minutes), and tables in their own thread."""

from __future__ import annotations

from pathlib import Path

from tests.bot.helpers import open_table, public_message, running_bot, table_of, world
from tests.bot.tables.test_bot_game import latest_hand, settled


async def test_expired_hand_token_asks_the_player_to_press_my_hand(tmp_path: Path) -> None:
    async with world(tmp_path) as w, running_bot(w) as bot:
        fake = w.fake
        table = await open_table(w, bot, [w.alice, w.bob], w.channel)
        for user in (w.alice, w.bob):
            await fake.click(user, public_message(w, table), f"dkt:{table.table_id}:hand")
        await fake.wait_for(lambda: settled(bot, table, [w.alice, w.bob]))
        assert table.state is not None
        starter = table.seats[table.state.attacker].user_id
        assert starter is not None
        other = w.bob if starter == w.alice else w.alice
        other_name = "bob" if other == w.bob else "alice"
        stale_version = table.version

        fake.advance_time(16 * 60)  # every interaction token so far is dead
        hand = latest_hand(fake, starter)
        button = next(b.custom_id for b in hand.buttons if b.custom_id and not b.disabled)
        res = await fake.click(starter, hand, button)  # a new click: a fresh token
        assert res.ephemeral and "⚠️" not in res.content
        assert table.version > stale_version

        # the other hand cannot be refreshed any more: the table message says so
        await fake.wait_for(
            lambda: (
                other_name in str(public_message(w, table).embeds)
                and "My hand" in str(public_message(w, table).embeds)
            ),
            what="the press-My-hand notice",
        )
        shown = [b.custom_id for b in latest_hand(fake, other).buttons if b.custom_id]
        assert all(c.split(":")[3] == str(stale_version) for c in shown if c.startswith("dk:"))
        # pressing My hand again shows the current hand
        again = await fake.click(other, public_message(w, table), f"dkt:{table.table_id}:hand")
        assert again.ephemeral
        versions = {b.custom_id.split(":")[3] for b in again.buttons if b.custom_id}
        assert versions <= {str(table.version)}


async def test_table_in_its_own_thread(tmp_path: Path) -> None:
    async with world(tmp_path) as w, running_bot(w) as bot:
        fake = w.fake
        res = await fake.slash(w.alice, w.channel, "durak", "new", options={"thread": True})
        threads = fake.threads(w.channel)
        assert len(threads) == 1
        thread_id = int(threads[0]["id"])
        table = table_of(bot, thread_id)
        assert table.channel_id == thread_id
        # the lobby lives in the thread; the channel gets only the pointer
        assert any(m.embeds for m in fake.channel_messages(thread_id))
        assert res.response_type in (4, 5)
        await fake.slash(w.bob, thread_id, "durak", "join")
        await fake.slash(w.alice, thread_id, "durak", "start")
        message_id = await fake.wait_for(lambda: table.table_message_id)
        assert fake.message(message_id).channel_id == thread_id
