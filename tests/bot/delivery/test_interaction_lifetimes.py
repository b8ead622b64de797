"""Discord's interaction lifetimes through the fake (docs/fake_discord.md): a first answer
after 3 s is refused (404 10062), a token used after 15 minutes too (401 50027). The bot loses
nothing: the click still applies, the player's hand catches up or the table message asks them
to press "My hand", a late /durak new still posts its lobby, and nothing is logged as an error
(a warning that says what happened at most)."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import pytest

from bot.app import DurakBot
from bot.tables.table import Table
from tests.bot.helpers import World, open_table, public_message, running_bot, table_of, world
from tests.bot.tables.test_bot_game import latest_hand, settled
from tests.fake_discord import FakeDiscord, FakeMessage

LATE = 3.5  # past Discord's 3 seconds
EXPIRED = 16 * 60  # past an interaction token's 15 minutes


@asynccontextmanager
async def _no_errors(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> AsyncIterator[World]:
    """A world whose bot, once stopped, has logged no error (warnings are kept in ``caplog``)."""
    caplog.set_level(logging.WARNING)
    async with world(tmp_path) as w:
        yield w
    assert [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR] == []


@asynccontextmanager
async def _two_hands_open(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> AsyncIterator[tuple[World, DurakBot, Table]]:
    """Alice and Bob at a running table, each with their hand open; no error logged by the end."""
    async with _no_errors(tmp_path, caplog) as w, running_bot(w) as bot:
        table = await open_table(w, bot, [w.alice, w.bob], w.channel)
        for user in (w.alice, w.bob):
            await w.fake.click(user, public_message(w, table), f"dkt:{table.table_id}:hand")
        await w.fake.wait_for(lambda: settled(bot, table, [w.alice, w.bob]))
        yield w, bot, table


def _versions(hand: FakeMessage) -> set[str]:
    """The table versions a hand message's buttons carry (``dk:<table>:<seat>:<version>:…``)."""
    ids = [b.custom_id or "" for b in hand.buttons]
    return {c.split(":")[3] for c in ids if c.startswith("dk:")}


def _starter(table: Table) -> int:
    assert table.state is not None
    user = table.seats[table.state.attacker].user_id
    assert user is not None
    return user


async def _late_click(fake: FakeDiscord, table: Table) -> int:
    """The player to lead plays from their hand, and the bot's answer reaches Discord after 3 s;
    the move still applies. That player."""
    user, before = _starter(table), table.version
    hand = latest_hand(fake, user)
    button = next(b.custom_id for b in hand.buttons if b.custom_id and not b.disabled)
    result = await fake.click(user, hand, button, wait=False)
    fake.advance_time(LATE)  # before the bot could answer: it runs in this loop
    await fake.wait_for(lambda: result.late, what="the late answer")
    assert result.response_type is None  # Discord refused it
    assert table.version > before  # the move applied
    return user


async def test_a_late_answer_to_a_hand_click_loses_nothing(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    async with _two_hands_open(tmp_path, caplog) as (w, bot, table):
        starter = await _late_click(w.fake, table)
        # The hand catches up through the answer kept from before (its token still lives).
        await w.fake.wait_for(lambda: settled(bot, table, [starter]), what="the hand refreshed")
        assert _versions(latest_hand(w.fake, starter)) <= {str(table.version)}
    assert any("no longer takes" in r.getMessage() for r in caplog.records)


async def test_a_late_answer_after_the_hand_expired_asks_to_press_my_hand(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    async with _two_hands_open(tmp_path, caplog) as (w, _, table):
        name = "alice" if _starter(table) == w.alice else "bob"
        w.fake.advance_time(EXPIRED)  # every hand's token is dead (the bot's clock disagrees)
        starter = await _late_click(w.fake, table)
        # The old hand answers 401 Invalid Webhook Token: the table message says what to do.
        await w.fake.wait_for(
            lambda: (
                name in str(public_message(w, table).embeds)
                and "My hand" in str(public_message(w, table).embeds)
            ),
            what="the press-My-hand notice",
        )
        assert any(r.status == 401 for r in w.fake.requests if r.path.startswith("/webhooks/"))
        again = await w.fake.click(starter, public_message(w, table), f"dkt:{table.table_id}:hand")
        assert again.ephemeral and again.response_type == 4
        assert again.message is not None
        assert _versions(again.message) <= {str(table.version)}


async def test_a_late_durak_new_still_posts_its_lobby(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    async with _no_errors(tmp_path, caplog) as w, running_bot(w) as bot:
        result = await w.fake.slash(w.alice, w.channel, "durak", "new", wait=False)
        w.fake.advance_time(LATE)
        await w.fake.wait_for(lambda: result.late, what="the late answer")
        table = table_of(bot, w.channel)
        lobby_id = await w.fake.wait_for(lambda: table.lobby_message_id, what="the lobby")
        lobby = w.fake.message(lobby_id)
        assert lobby.embeds and not lobby.ephemeral and lobby.buttons
        # The lobby works: bob joins, alice starts.
        await w.fake.slash(w.bob, w.channel, "durak", "join")
        await w.fake.slash(w.alice, w.channel, "durak", "start")
        await w.fake.wait_for(lambda: table.table_message_id is not None, what="the table")
