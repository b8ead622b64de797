"""Smoke: a table opens, fills and starts; the first hand is private."""

from __future__ import annotations

from pathlib import Path

from tests.bot.helpers import running_bot, table_of, world


async def test_new_join_start(tmp_path: Path) -> None:
    async with world(tmp_path) as w, running_bot(w) as bot:
        fake = w.fake
        res = await fake.slash(w.alice, w.channel, "durak", "new", options={"ai_seats": 1})
        assert res.response_type == 4 and not res.ephemeral
        table = table_of(bot, w.channel)
        lobby = res.message
        assert lobby is not None
        await fake.click(w.bob, lobby, f"dkl:{table.table_id}:join")
        assert len(table.seats) == 3
        r = await fake.click(w.alice, lobby, f"dkl:{table.table_id}:start")
        assert table.status == "running", r.content
        msg = fake.message(await fake.wait_for(lambda: table.table_message_id))
        hand = await fake.click(w.alice, msg, f"dkt:{table.table_id}:hand")
        assert hand.ephemeral
        assert table.state is not None
        seat = table.seat_of(w.alice)
        assert seat is not None
        view = table.state.view(seat)
        # the private hand shows this player's cards; the public message shows none of them
        for card in view.hand:
            assert card.unicode() in hand.content
        public = str(fake.message(msg.id).embeds)
        for card in view.hand:
            if card not in view.known[seat]:
                assert card.unicode() not in public
