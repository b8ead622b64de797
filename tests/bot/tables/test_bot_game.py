"""A whole game of 2 humans and 1 AI, driven only through slash commands and the buttons the bot
shows; at every step the hand buttons equal the engine's legal actions, no public message ever
shows a private card, and the finished game is recorded."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from bot.app import DurakBot
from bot.tables.table import Table
from tests.bot.helpers import (
    World,
    expected_codes,
    hand_codes,
    public_message,
    running_bot,
    table_of,
    world,
)
from tests.fake_discord import UPDATE_MESSAGE, FakeDiscord, FakeMessage


def assert_no_private_card(fake: FakeDiscord, table: Table) -> None:
    """No card a seat holds privately appears in public: in the whole channel for the first
    game; later, in this game's table message (earlier games showed the same cards played)."""
    assert table.state is not None
    v = table.state.public_view()
    if table.game_number == 1:
        text = fake.all_public_payload_text()
    else:
        assert table.table_message_id is not None
        text = json.dumps(fake.message(table.table_message_id).history, ensure_ascii=False)
    for seat in range(len(table.seats)):
        private = set(table.state.view(seat).hand) - v.known[seat] - {v.trump_card}
        leaked = [c.unicode() for c in private if c.unicode() in text]
        assert not leaked, f"seat {seat}'s private cards {leaked} appear in a public message"


def settled(bot: DurakBot, table: Table, users: list[int]) -> bool:
    """Every human's hand shows the current version and no AI move is pending."""
    if table.status == "running" and table.ai_seats_to_act():
        return False
    links = bot.notifier.links
    return (
        all(
            (table.table_id, u) in links
            and links[(table.table_id, u)].shown_version == table.version
            for u in users
        )
        and bot.notifier.idle()
    )


def latest_hand(fake: FakeDiscord, user: int) -> FakeMessage:
    hands = [m for m in fake.ephemeral_messages(user) if "Your hand" in m.content]
    return hands[-1]


async def play_one_game(
    w: World, bot: DurakBot, rng: random.Random, users: list[int] | None = None
) -> Table:
    fake = w.fake
    table = table_of(bot, w.channel)
    users = users or [w.alice, w.bob]
    await fake.wait_for(lambda: table.table_message_id is not None and table.status == "running")
    for user in users:
        opened = await fake.click(user, public_message(w, table), f"dkt:{table.table_id}:hand")
        assert opened.ephemeral
    steps = 0
    while table.status == "running":
        steps += 1
        assert steps < 600, "the game does not end"
        await fake.wait_for(lambda: settled(bot, table, users), 10, what="the table to settle")
        if table.status != "running":
            break
        assert_no_private_card(fake, table)
        movers = []
        for user in users:
            seat = table.seat_of(user)
            assert seat is not None
            hand = latest_hand(fake, user)
            codes, versions = hand_codes(hand)
            assert codes == expected_codes(table, seat, hand), (user, hand.content)
            if codes:
                assert versions == {table.version}
                movers.append((user, hand))
        assert movers, "nobody can act, yet the game is running"
        user, hand = rng.choice(movers)
        clickable = [b.custom_id for b in hand.buttons if b.custom_id and not b.disabled]
        if hand.selects and rng.random() < 0.5:
            sel = hand.selects[0]
            value = rng.choice([o["value"] for o in sel["options"]])
            result = await fake.select(user, hand, sel["custom_id"], [value])
        else:
            result = await fake.click(user, hand, rng.choice(clickable))
        assert result.response_type == UPDATE_MESSAGE and result.ephemeral
        assert "⚠️" not in result.content, result.content  # nothing was refused
    assert_no_private_card(fake, table)
    return table


@pytest.mark.slow
async def test_whole_game_two_humans_one_ai(tmp_path: Path) -> None:
    async with world(tmp_path) as w, running_bot(w) as bot:
        fake = w.fake
        new = await fake.slash(
            w.alice, w.channel, "durak", "new", options={"ai_seats": 1, "ai_level": "easy"}
        )
        table = table_of(bot, w.channel)
        join = await fake.slash(w.bob, w.channel, "durak", "join")
        assert join.ephemeral
        await fake.wait_for(lambda: "bob" in str(new.embeds), what="the lobby to list bob")
        await fake.slash(w.alice, w.channel, "durak", "start")
        await play_one_game(w, bot, random.Random(1))
        assert table.status == "finished" and table.state is not None
        result = table.state.result
        assert result is not None
        # table-message edits are coalesced (about one a second): wait for the final one
        await fake.wait_for(
            lambda: "🏁" in public_message(w, table).embeds[0]["description"],
            what="the final table message",
        )
        assert any(
            b.custom_id and b.custom_id.endswith(":rematch")
            for b in public_message(w, table).buttons
        )
        games = await bot.service.storage.channel_history(w.guild, w.channel)
        assert len(games) == 1 and games[0].durak_seat == result.durak
        assert fake.violations == []


@pytest.mark.slow
async def test_ai_players_are_told_what_the_table_shows(tmp_path: Path) -> None:
    """A Hard seat gets every seat's public label (the AI levels the table shows, "human" for
    people): it plays a seat shown as Easy by Easy's rules (docs/ai.md)."""
    async with world(tmp_path) as w, running_bot(w) as bot:
        fake = w.fake
        new = await fake.slash(
            w.alice,
            w.channel,
            "durak",
            "new",
            options={"seats": 3, "ai_seats": 1, "ai_level": "easy"},
        )
        table = table_of(bot, w.channel)
        assert new.message is not None
        await fake.click(w.alice, new.message, f"dkl:{table.table_id}:ai-hard")
        shown = tuple(s.ai_level or "human" for s in table.seats)
        assert sorted(shown) == ["easy", "hard", "human"]
        await fake.slash(w.alice, w.channel, "durak", "start")
        await play_one_game(w, bot, random.Random(2), users=[w.alice])
        hard_seat = shown.index("hard")
        player = table.ai_players[hard_seat]
        assert getattr(player, "seats", None) == shown
        assert fake.violations == []
