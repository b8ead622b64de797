"""Opening a table from the Activity (issue #19): an Activity launched where no table is offers
``/durak new``'s main options, and its ``open`` frame takes the command's path: the same lobby
service and checks, the same public lobby message in the channel, posted by the bot. Every
browser in the channel then shows the new lobby. Whatever the command would refuse, a malformed
frame, a channel the bot cannot post in and a user who left the instance are refused, with
nothing opened. Seats carry the players' Discord avatars, also across a restart."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, cast

import pytest

from bot.app import DurakBot
from bot.domain import TableStatus
from bot.tables.persistence import from_saved, to_saved
from bot.tables.table import Seat, Table
from durak_core import preset
from durak_core.ai import Level
from durak_core.rules import OPTIONS as RULE_OPTIONS
from tests.bot.activity.helpers import Browser, activity_bot, open_browser
from tests.bot.activity.test_lobby_ops import all_shown
from tests.bot.helpers import World, table_of, world
from tests.fake_discord import FakeDiscord

OPTIONS = {
    "preset": "transfer",
    "seats": 3,
    "timer": 45,
    "ai_seats": 1,
    "ai_level": "hard",
    "language": "de",
}
#: Avatar hashes as Discord gives them (32 hex digits; ``a_`` first when animated).
ALICE_AVATAR = "0f1e2d3c4b5a69788796a5b4c3d2e1f0"
CAROL_AVATAR = "a_1234567890abcdef1234567890abcdef"


def open_frame(**options: object) -> dict[str, Any]:
    return {"v": 1, "type": "open", **OPTIONS, **options}


def lobby_messages(fake: FakeDiscord, channel: int) -> list[Any]:
    return [m for m in fake.channel_messages(channel) if m.embeds and not m.ephemeral]


def as_posted(message: Any, table: Table) -> str:
    """The message's embeds and components, with the table's own id made neutral."""
    return json.dumps([message.embeds, message.components]).replace(table.table_id, "<table>")


async def opened(fake: FakeDiscord, bot: DurakBot, channel: int, browser: Browser) -> Table:
    """Once ``channel``'s table is open and its lobby message is posted; a refusal fails."""
    errors = len(browser.errors())

    def done() -> bool:
        assert len(browser.errors()) == errors, browser.errors()[-1]
        table = bot.service.registry.active_in_channel(channel)
        return table is not None and table.lobby_message_id is not None

    await fake.wait_for(done, what="the table to open")
    return table_of(bot, channel)


async def refused(fake: FakeDiscord, browser: Browser, frame: dict[str, Any], reason: str) -> None:
    """``frame`` comes back as ``reason``, in the user's language, with its ref."""
    errors = len(browser.errors())
    await browser.send({**frame, "ref": "o1"})
    await fake.wait_for(lambda: len(browser.errors()) > errors, what=reason)
    error = browser.errors()[-1]
    assert error["reason"] == reason, (frame, error)
    assert error["text"] and "{" not in error["text"], error
    if reason != "err.activity_frame":
        assert error["ref"] == "o1", error


async def test_a_browser_opens_a_table_as_durak_new_does(tmp_path: Path) -> None:
    async with world(tmp_path) as w, activity_bot(w) as site:
        fake, bot = w.fake, site.bot
        instance = fake.activity.open_instance(w.channel, [w.alice, w.bob])
        alice = await open_browser(w, site, w.alice, instance)
        bob = await open_browser(w, site, w.bob, instance)
        welcome = alice.frames[0]
        assert welcome["new_table"]["presets"][0] == "classic"
        assert welcome["new_table"]["seats"] == [2, 6]
        assert "activity.open" in welcome["texts"] and "preset.transfer" in welcome["texts"]
        assert alice.last_table() is None and bob.last_table() is None

        await alice.send(open_frame())
        table = await opened(fake, bot, w.channel, alice)

        # the lobby service's table, with the options asked for
        assert table.host_id == w.alice and table.status == TableStatus.LOBBY
        assert table.rules == preset("transfer") and table.max_seats == 3
        assert table.turn_timer == 45 and table.language == "de"
        seats = [(s.user_id, s.ai_level) for s in table.seats]
        assert seats == [(w.alice, None), (None, Level.HARD)]
        # its lobby message, posted by the bot in the channel...
        (posted,) = lobby_messages(fake, w.channel)
        assert posted.id == table.lobby_message_id and posted.author_id == fake.bot_user_id
        # ...exactly as /durak new with the same options posts it (in another channel)
        other = fake.add_channel(w.guild, "other")
        await fake.slash(w.alice, other, "durak", "new", options=OPTIONS)
        chat_table = table_of(bot, other)
        (chat_posted,) = lobby_messages(fake, other)
        assert as_posted(posted, table) == as_posted(chat_posted, chat_table)

        # every browser in the channel shows the new lobby, as its user may see it
        await all_shown(fake, table, [alice, bob])
        for browser, you in ((alice, 0), (bob, None)):
            shown = browser.last_table()
            assert shown is not None and shown["id"] == table.table_id, shown
            assert shown["status"] == "lobby" and shown["you"] == you
            assert shown["players"][0]["name"] == "alice"
        # and the chat's lobby buttons work on it: Bob joins from the chat
        await fake.slash(w.bob, w.channel, "durak", "join")
        assert table.seat_of(w.bob) == 2
        await fake.wait_for(lambda: "bob" in str(lobby_messages(fake, w.channel)[0].embeds))


@pytest.mark.slow
async def test_what_durak_new_refuses_the_browser_is_refused(tmp_path: Path) -> None:
    async with world(tmp_path) as w, activity_bot(w) as site:
        fake, bot = w.fake, site.bot
        instance = fake.activity.open_instance(w.channel, [w.alice, w.bob, w.carol])
        alice = await open_browser(w, site, w.alice, instance)

        # bad options, or anything the frame may not name: refused whole
        for bad in (
            {"seats": 7},
            {"seats": 1},
            {"timer": 601},
            {"ai_seats": 6},
            {"preset": "nope"},
            {"language": "xx"},
            {"ai_level": "godlike"},
            {"host": str(w.bob)},
            {"channel_id": "1"},
        ):
            await refused(fake, alice, open_frame(**bad), "err.activity_frame")
        assert bot.service.registry.in_channel(w.channel) is None

        # the bot may not post there: nothing stays open, nothing is posted
        fake.fail_next("POST", f"/channels/{w.channel}/messages", status=403)
        await refused(fake, alice, open_frame(), "err.cannot_post")
        assert bot.service.registry.active_in_channel(w.channel) is None
        assert lobby_messages(fake, w.channel) == []
        await fake.wait_for(lambda: alice.last_table() is None, what="no table shown")

        # a user who left the instance opens nothing
        carol = await open_browser(w, site, w.carol, instance)
        fake.activity.leave_instance(instance, w.carol)
        await refused(fake, carol, open_frame(), "err.activity_instance")
        assert bot.service.registry.active_in_channel(w.channel) is None

        # the first open wins; a second one is refused as /durak new is
        await alice.send(open_frame())
        table = await opened(fake, bot, w.channel, alice)
        bob = await open_browser(w, site, w.bob, instance)
        version = table.version
        await refused(fake, bob, open_frame(seats=2), "err.table_exists")
        assert table_of(bot, w.channel) is table and table.version == version
        assert table.max_seats == 3 and len(lobby_messages(fake, w.channel)) == 1


async def test_the_form_offers_every_rule_option_of_durak_new(tmp_path: Path) -> None:
    async with world(tmp_path) as w, activity_bot(w) as site:
        fake, bot = w.fake, site.bot
        instance = fake.activity.open_instance(w.channel, [w.alice])
        alice = await open_browser(w, site, w.alice, instance)
        welcome = alice.frames[0]
        # every declared option of /durak new, with its choices and its label in the texts
        offered = welcome["new_table"]["rules"]
        assert [o["name"] for o in offered] == [o.command for o in RULE_OPTIONS.commands]
        assert all(f"opt.{o['name']}" in welcome["texts"] for o in offered)
        assert {"name": "deck", "rule": "V2", "choices": [24, 36, 52]} in offered

        for bad in ({"wings": True}, {"deck": 25}, {"deck": True}, {"transfer": 1}):
            await refused(fake, alice, open_frame(rules=bad), "err.activity_frame")
        # a combination the rules refuse is refused as /durak new refuses it (V11 with V12)
        await refused(
            fake, alice, open_frame(rules={"no_trump": True, "crazy": True}), "err.bad_rules"
        )
        assert bot.service.registry.in_channel(w.channel) is None

        await alice.send(open_frame(rules={"show_trump": True, "deck": 24, "transfer": True}))
        table = await opened(fake, bot, w.channel, alice)
        assert table.rules.transfer_by_trump and table.rules.transfer  # V18 with V1
        assert table.rules.deck_size == 24


def players(browser: Browser) -> list[tuple[str | None, str | None]]:
    shown = browser.last_table()
    assert shown is not None
    return [(p["user_id"], p["avatar"]) for p in shown["players"]]


async def seated_with_avatars(w: World, browser: Browser, table: Table) -> None:
    await w.fake.wait_for(
        lambda: (browser.last_table() or {}).get("version") == table.version,
        what="the browser to show the table",
    )
    assert players(browser) == [
        (str(w.alice), ALICE_AVATAR),  # from /users/@me (she opened it from the Activity)
        (None, None),  # an AI seat
        (str(w.carol), CAROL_AVATAR),  # from the interaction's user (/durak join)
        (str(w.bob), None),  # a Discord user without an avatar
    ]


async def test_seats_carry_avatars_also_after_a_restart(tmp_path: Path) -> None:
    async with world(tmp_path) as w:
        fake = w.fake
        fake.store.users[w.alice].avatar = ALICE_AVATAR
        fake.store.users[w.carol].avatar = CAROL_AVATAR
        instance = fake.activity.open_instance(w.channel, [w.alice])
        async with activity_bot(w) as site:
            alice = await open_browser(w, site, w.alice, instance)
            await alice.send(open_frame(seats=4, ai_seats=1))
            table = await opened(fake, site.bot, w.channel, alice)
            for user in (w.carol, w.bob):
                await fake.slash(user, w.channel, "durak", "join")
            await seated_with_avatars(w, alice, table)
            await site.bot.service.saves.flush()
        async with activity_bot(w) as site:  # a new process: the table comes back saved
            alice = await open_browser(w, site, w.alice, instance)
            await seated_with_avatars(w, alice, table_of(site.bot, w.channel))


def test_a_table_saved_before_avatars_loads_without_them() -> None:
    seats = [Seat("ann", user_id=10), Seat("bo", user_id=11, avatar=ALICE_AVATAR)]
    saved = to_saved(Table("t1", 1, 2, 10, preset("classic"), 4, 0, seats=seats))
    assert [s.avatar for s in from_saved(saved).seats] == [None, ALICE_AVATAR]
    raw = cast(list[dict[str, object]], saved.meta["seats"])
    for seat in raw:
        del seat["avatar"]  # as tables were saved before
    assert [s.avatar for s in from_saved(saved).seats] == [None, None]
