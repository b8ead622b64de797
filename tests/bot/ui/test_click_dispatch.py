"""A click on one of the bot's items reaches its handler without discord.py's view of the
clicked message (bot/ui/click_dispatch.py); other dynamic items still take discord.py's path,
and a failing click is logged, not raised into the gateway."""

from __future__ import annotations

import inspect
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import discord
import pytest
from discord.components import _component_factory
from discord.ui.view import ViewStore

from bot.app import DurakBot
from bot.ui.click_dispatch import ClickStore, install_click_store, on_message
from tests.bot.cogs.test_bot_clicks import _with_button, raw_click, with_component
from tests.bot.helpers import public_message, running_bot, settings, table_of, world
from tests.bot.tables.test_bot_game import latest_hand, settled
from tests.fake_discord import UPDATE_MESSAGE
from tests.test_fake_discord import DynamicCounter


def count_views(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every ``View.from_message`` / ``LayoutView.from_message`` from now on (discord.py's
    own, still called)."""
    built: list[str] = []
    for cls in (discord.ui.View, discord.ui.LayoutView):
        original = cls.from_message

        def counted(*args: Any, _original: Any = original, **kwargs: Any) -> Any:
            built.append("view")
            return _original(*args, **kwargs)

        monkeypatch.setattr(cls, "from_message", counted)
    return built


def view_store(client: discord.Client) -> object:
    state: Any = client._connection
    return state._view_store


async def test_lobby_table_hand_and_select_clicks_build_no_view(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    built = count_views(monkeypatch)
    async with world(tmp_path) as w, running_bot(w) as bot:
        assert isinstance(view_store(bot), ClickStore)
        fake = w.fake
        users = [w.alice, w.bob]
        new = await fake.slash(w.alice, w.channel, "durak", "new")
        assert new.message is not None
        table = table_of(bot, w.channel)
        await fake.click(w.bob, new.message, f"dkl:{table.table_id}:join")  # LobbyButton
        assert [s.name for s in table.seats] == ["alice", "bob"]
        await fake.click(w.alice, new.message, f"dkl:{table.table_id}:start")
        await fake.wait_for(lambda: table.table_message_id is not None)
        for user in users:  # TableButton
            opened = await fake.click(user, public_message(w, table), f"dkt:{table.table_id}:hand")
            assert opened.ephemeral
        await fake.wait_for(lambda: settled(bot, table, users))

        # HandButton: the attacker leads.
        assert table.state is not None
        attacker = table.seats[table.state.attacker].user_id
        assert attacker is not None
        hand = latest_hand(fake, attacker)
        lead = next(b.custom_id for b in hand.buttons if b.custom_id and not b.disabled)
        version = table.version
        res = await fake.click(attacker, hand, lead)
        assert res.response_type == UPDATE_MESSAGE and "⚠️" not in res.content
        assert table.version > version
        await fake.wait_for(lambda: settled(bot, table, users))

        # HandSelect: the defender answers with an option of a select on its hand.
        defender = next(u for u in users if u != attacker)
        seat = table.seat_of(defender)
        assert seat is not None
        codes = [str(a.code) for a in table.state.legal_actions(seat)]
        select_id = f"dks:{table.table_id}:{seat}:{table.version}:0"
        options = [{"label": code, "value": code} for code in codes]
        holding = with_component(
            latest_hand(fake, defender), {"type": 3, "custom_id": select_id, "options": options}
        )
        data = {"custom_id": select_id, "component_type": 3, "values": [codes[0]]}
        version = table.version
        res = await fake._interact(
            defender, holding.channel_id, 3, data, holding, label="select", timeout=5.0
        )
        assert res.response_type == UPDATE_MESSAGE and "⚠️" not in res.content
        assert table.version > version
        assert fake.violations == []
    assert built == []


async def test_other_dynamic_items_take_discord_pys_path(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    built = count_views(monkeypatch)
    async with world(tmp_path) as w, running_bot(w) as bot:
        bot.add_dynamic_items(DynamicCounter)  # a dynamic item that is not the bot's
        new = await w.fake.slash(w.alice, w.channel, "durak", "new")
        assert new.message is not None
        counter = _with_button(new.message, "counter:7")
        res = await raw_click(w.fake, w.bob, counter, "counter:7")
        assert res.response_type == UPDATE_MESSAGE
        assert [b.custom_id for b in w.fake.message(counter.id).buttons] == ["counter:8"]
        assert built == ["view"]  # discord.py's own path, view and all


async def test_a_click_that_fails_is_logged_and_the_next_one_answered(tmp_path: Path) -> None:
    async with world(tmp_path) as w:
        fake = w.fake
        bot = DurakBot(settings(w.db), sync=True, sync_guild=w.guild, guild_ready_timeout=0.05)
        async with fake.run_client(bot, fail_on_logged_errors=False):
            new = await fake.slash(w.alice, w.channel, "durak", "new", options={"seats": 3})
            lobby = new.message
            assert lobby is not None
            table = table_of(bot, w.channel)
            # The answer and the "something went wrong" after it both fail (an expired token):
            # the failure leaves the handler and the item's callback.
            fake.fail_next("POST", "/interactions/*/*/callback", status=404, times=2)
            await fake.click(w.bob, lobby, f"dkl:{table.table_id}:join", wait=False)
            await fake.wait_for(
                lambda: any(r.name == "discord.ui.view" for r in fake.logged_errors),
                what="the failed click to be logged",
            )
            res = await fake.click(w.carol, lobby, f"dkl:{table.table_id}:join")
            assert res.response_type == UPDATE_MESSAGE
            assert [s.name for s in table.seats] == ["alice", "bob", "carol"]
        [failed] = [r for r in fake.logged_errors if r.name == "discord.ui.view"]
        assert "Ignoring exception in dynamic item callback" in failed.getMessage()
        assert failed.exc_info is not None and isinstance(failed.exc_info[1], discord.NotFound)
        assert fake.violations == []


def test_discord_py_still_dispatches_as_click_store_expects() -> None:
    """What ClickStore relies on in discord.py: the store on the connection state, and the
    call each dynamic item match is scheduled with. The tests above show the rest (clicks
    answered, no view built)."""
    params = list(inspect.signature(ViewStore.schedule_dynamic_item_call).parameters)
    assert params == ["self", "component_type", "factory", "interaction", "custom_id", "match"]
    assert "self.schedule_dynamic_item_call(" in inspect.getsource(ViewStore.dispatch_dynamic_items)
    client = discord.Client(intents=discord.Intents.none())
    store = install_click_store(client)
    assert view_store(client) is store and install_click_store(client) is store


def test_the_clicked_component_is_found_where_discord_py_would_find_it() -> None:
    """``on_message`` looks where discord.py's view of the message would: buttons and selects
    in action rows, and (components v2) in containers and as a section's accessory; the type
    must match too (a select's id sent as a button click is not dispatched)."""
    button: Any = {"type": 2, "style": 1, "label": "x"}
    rows: list[Any] = [
        {"type": 1, "components": [{**button, "custom_id": "row"}]},
        {"type": 1, "components": [{"type": 3, "custom_id": "select", "options": []}]},
        {
            "type": 17,
            "components": [
                {"type": 1, "components": [{**button, "custom_id": "in-container"}]},
                {
                    "type": 9,
                    "components": [{"type": 10, "content": "text"}],
                    "accessory": {**button, "custom_id": "accessory"},
                },
            ],
        },
    ]
    message: Any = SimpleNamespace(components=[_component_factory(row) for row in rows])
    for custom_id in ("row", "in-container", "accessory"):
        assert on_message(message, 2, custom_id)
    assert on_message(message, 3, "select")
    assert not on_message(message, 2, "select")
    assert not on_message(message, 2, "elsewhere")
    assert not on_message(None, 2, "row")
