"""Stale, double, forged and outsiders' clicks change nothing and get an ephemeral reason."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.bot.helpers import open_table, public_message, running_bot, world
from tests.bot.tables.test_bot_game import latest_hand, settled
from tests.fake_discord import MESSAGE, UPDATE_MESSAGE, FakeDiscord, FakeMessage, InteractionResult


async def test_stale_double_forged_and_outsider_clicks(tmp_path: Path) -> None:
    async with world(tmp_path) as w, running_bot(w) as bot:
        fake = w.fake
        table = await open_table(w, bot, [w.alice, w.bob], w.channel)
        public = public_message(w, table)
        for user in (w.alice, w.bob):
            await fake.click(user, public, f"dkt:{table.table_id}:hand")
        await fake.wait_for(lambda: settled(bot, table, [w.alice, w.bob]))
        assert table.state is not None
        starter = table.seats[table.state.attacker].user_id
        assert starter is not None
        hand = latest_hand(fake, starter)
        button = next(b.custom_id for b in hand.buttons if b.custom_id)
        first = await fake.click(starter, hand, button)
        assert first.response_type == UPDATE_MESSAGE and "⚠️" not in first.content
        state_after, version_after = table.state, table.version

        # A double click: the same (now stale) button again, as the client still showed it.
        again = await raw_click(fake, starter, _with_button(hand, button), button)
        assert again.ephemeral and "changed before your click" in again.content
        assert table.state is state_after and table.version == version_after

        # Forged custom_ids: not on the message, or not a valid id at all.
        for forged in (f"dk:{table.table_id}:0:{table.version}:99999", "dk:zzzz:0:0:1"):
            res = await raw_click(fake, starter, latest_hand(fake, starter), forged)
            assert res.response_type == MESSAGE and res.ephemeral
            assert "not valid" in res.content
        # An out-of-range action code that matches the template and sits on the message.
        seat = table.seat_of(starter)
        bad = f"dk:{table.table_id}:{seat}:{table.version}:99999"
        res = await raw_click(fake, starter, _with_button(hand, bad), bad)
        assert res.ephemeral and "not valid" in res.content
        assert table.state is state_after

        # An outsider presses "My hand", then tries a seat's button.
        outsider = await fake.click(w.carol, public, f"dkt:{table.table_id}:hand")
        assert outsider.ephemeral and "not playing" in outsider.content
        actor = next(s for s in range(2) if table.state.legal_actions(s))  # the defender
        owner = table.seats[actor].user_id
        other = w.bob if owner == w.alice else w.alice
        code = table.state.legal_actions(actor)[0].code
        theirs = f"dk:{table.table_id}:{actor}:{table.version}:{code}"
        res = await raw_click(fake, w.carol, _with_button(hand, theirs), theirs)
        assert res.ephemeral and "not playing" in res.content
        res = await raw_click(fake, other, _with_button(hand, theirs), theirs)
        assert res.ephemeral and "another player" in res.content
        assert table.state is state_after and table.version == version_after
        assert fake.violations == []


async def raw_click(
    fake: FakeDiscord, user: int, message: FakeMessage, custom_id: str
) -> InteractionResult:
    """A click the fake's own `click` would refuse (an id not on the current message): what an
    outdated client or a forger sends."""
    data = {"custom_id": custom_id, "component_type": 2}
    return await fake._interact(
        user, message.channel_id, 3, data, message, label="raw click", timeout=5.0
    )


def _with_button(message: FakeMessage, custom_id: str) -> FakeMessage:
    """A copy of ``message`` whose payload carries a button ``custom_id`` (what a client that
    still shows an old version, or a forger, would send)."""
    return with_component(message, {"type": 2, "style": 1, "label": "x", "custom_id": custom_id})


def with_component(message: FakeMessage, component: dict[str, Any]) -> FakeMessage:
    """A copy of ``message`` whose one action row holds ``component``."""
    payload = message.payload
    payload["components"] = [{"type": 1, "components": [component]}]
    return FakeMessage(
        id=message.id,
        channel_id=message.channel_id,
        guild_id=message.guild_id,
        author_id=message.author_id,
        versions=[payload],
        visible_to=message.visible_to,
    )
