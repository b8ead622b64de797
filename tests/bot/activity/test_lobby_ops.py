"""Lobby operations over the Activity's WebSocket (join, leave, AI seats, start, rematch, "done
for this bout"): each goes through the chat buttons' service methods, so the chat's lobby and
table messages follow; whatever the chat would refuse (a guest starting, a full table, a
spectator's rematch) and every malformed frame is refused with nothing changed."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from bot.domain import TableStatus
from bot.tables.play import may_auto_pass
from bot.tables.table import Table
from tests.bot.activity.helpers import (
    Browser,
    History,
    activity_bot,
    applied,
    listen,
    open_browser,
)
from tests.bot.activity.test_wire_leak import check_frames
from tests.bot.helpers import public_message, table_of, world
from tests.fake_discord import FakeDiscord


def lobby_frame(op: str, **extra: object) -> dict[str, Any]:
    return {"v": 1, "type": "lobby", "op": op, **extra}


def running(table: Table) -> bool:
    """(A function: a test's earlier assert on the status does not narrow it.)"""
    return table.status == TableStatus.RUNNING


def snapshot(table: Table) -> tuple[object, ...]:
    return (table.version, table.status, [(s.user_id, s.ai_level) for s in table.seats])


async def refused(
    fake: FakeDiscord, table: Table, browser: Browser, frame: dict[str, Any], reason: str
) -> None:
    """Send ``frame``: it comes back as ``reason`` (with its text and ref), nothing changed."""
    before, errors = snapshot(table), len(browser.errors())
    await browser.send({**frame, "ref": "r1"} if "ref" not in frame else frame)
    await fake.wait_for(lambda: len(browser.errors()) > errors, what=reason)
    error = browser.errors()[-1]
    assert error["reason"] == reason, (frame, error)
    assert error["text"] and "{" not in error["text"], error
    if error["reason"] != "err.activity_frame":  # a malformed frame has no ref to trust
        assert error["ref"] == frame.get("ref", "r1")
    assert snapshot(table) == before, f"the refused {frame} changed the table"


async def all_shown(fake: FakeDiscord, table: Table, browsers: list[Browser]) -> None:
    await fake.wait_for(
        lambda: all((b.last_table() or {}).get("version") == table.version for b in browsers),
        what="every browser to show the table's version",
    )


@pytest.mark.slow
async def test_a_lobby_run_from_the_browser(tmp_path: Path) -> None:
    async with world(tmp_path) as w, activity_bot(w) as site:
        fake, bot = w.fake, site.bot
        new = await fake.slash(w.alice, w.channel, "durak", "new", options={"seats": 3})
        table = table_of(bot, w.channel)
        assert new.message is not None
        lobby_message = new.message
        instance = fake.activity.open_instance(w.channel, [w.alice, w.bob, w.carol])
        alice, bob, carol = [
            await open_browser(w, site, u, instance) for u in (w.alice, w.bob, w.carol)
        ]
        browsers = [alice, bob, carol]

        await applied(fake, table, bob, lobby_frame("join"))
        assert table.seat_of(w.bob) == 1 and table.seats[1].name == "bob"
        await fake.wait_for(lambda: "bob" in str(lobby_message.embeds), what="the chat lobby")
        await all_shown(fake, table, browsers)
        shown = carol.last_table()
        assert shown is not None and [p["name"] for p in shown["players"]] == ["alice", "bob"]

        # What the chat refuses, the socket refuses, and nothing changes.
        await refused(fake, table, bob, lobby_frame("join"), "err.already_seated")
        await refused(fake, table, bob, lobby_frame("add_ai"), "err.ai_host_only")
        await refused(fake, table, bob, lobby_frame("start"), "err.not_host")
        await refused(fake, table, bob, lobby_frame("ai_open"), "err.not_host")
        # The lobby option: the host lets every seated player add and remove AI seats.
        await applied(fake, table, alice, lobby_frame("ai_open"))
        assert table.anyone_adds_ai
        await all_shown(fake, table, browsers)
        assert (bob.last_table() or {})["anyone_adds_ai"] is True
        await applied(fake, table, bob, lobby_frame("add_ai", level="easy"))
        assert table.seats[2].ai_level == "easy"
        await applied(fake, table, bob, lobby_frame("remove_ai"))
        await applied(fake, table, alice, lobby_frame("ai_host"))
        assert not table.anyone_adds_ai and len(table.seats) == 2
        await refused(fake, table, carol, lobby_frame("start"), "err.not_host")
        await refused(fake, table, carol, lobby_frame("leave"), "err.not_seated")
        await refused(fake, table, alice, lobby_frame("leave"), "err.host_cannot_leave")
        await refused(fake, table, alice, lobby_frame("remove_ai"), "err.no_ai_seat")
        await refused(fake, table, carol, lobby_frame("rematch"), "err.no_rematch")
        await refused(fake, table, bob, lobby_frame("auto_pass_on"), "err.not_running")
        # Malformed: an unknown op, a claim of another user or seat, a level off the list or
        # for another op, a wrong type.
        for frame in (
            lobby_frame("kick"),
            lobby_frame("start", user_id=str(w.alice)),
            lobby_frame("join", seat=2),
            lobby_frame("add_ai", level="random"),
            lobby_frame("join", level="hard"),
            lobby_frame("start", version="3"),
            {"v": 1, "type": "lobby"},
        ):
            await refused(fake, table, alice, frame, "err.activity_frame")

        await applied(fake, table, alice, lobby_frame("add_ai", level="hard"))
        assert table.seats[2].ai_level == "hard" and table.is_full
        ai_name = table.seats[2].name
        await fake.wait_for(lambda: ai_name in str(lobby_message.embeds), what="the AI seat")
        await refused(fake, table, carol, lobby_frame("join"), "err.table_full")
        await applied(fake, table, alice, lobby_frame("remove_ai"))
        await applied(fake, table, bob, lobby_frame("leave"))
        assert [s.user_id for s in table.seats] == [w.alice]
        await fake.wait_for(lambda: "bob" not in str(lobby_message.embeds), what="bob gone")
        await applied(fake, table, carol, lobby_frame("join"))
        await applied(fake, table, alice, lobby_frame("add_ai"))
        assert table.seats[2].ai_level == "normal"

        await applied(fake, table, alice, lobby_frame("start"))
        assert table.status == TableStatus.RUNNING and table.state is not None
        await fake.wait_for(lambda: table.table_message_id is not None, what="the table message")
        await all_shown(fake, table, browsers)
        for user, browser in ((w.alice, alice), (w.carol, carol), (w.bob, bob)):
            shown = browser.last_table()
            assert shown is not None and shown["status"] == "running"
            assert shown["you"] == table.seat_of(user)
        await refused(fake, table, bob, lobby_frame("join"), "err.not_lobby")
        for browser in browsers:
            await browser.close()


@pytest.mark.slow  # over a second: out of the quick subset
async def test_done_for_this_bout_and_the_rematch_from_the_browser(tmp_path: Path) -> None:
    """ "Done for this bout" from the browser passes for the seat whenever R15 lets it; the
    rematch asked from the browser deals the next game from the previous Durak (R22)."""
    rng = random.Random(7)
    async with world(tmp_path) as w, activity_bot(w) as site:
        fake, bot = w.fake, site.bot
        history = History()
        listen(bot, history)
        await fake.slash(w.alice, w.channel, "durak", "new", options={"seats": 2, "deck": 24})
        table = table_of(bot, w.channel)
        history.record(table)
        instance = fake.activity.open_instance(w.channel, [w.alice, w.bob, w.carol])
        users = [w.alice, w.bob, w.carol]
        browsers = {u: await open_browser(w, site, u, instance) for u in users}
        spectator = browsers[w.carol]
        await applied(fake, table, browsers[w.bob], lobby_frame("join"))
        await refused(fake, table, spectator, lobby_frame("join"), "err.table_full")
        await applied(fake, table, browsers[w.alice], lobby_frame("start"))

        auto_passed = False
        steps = 0
        while table.status == TableStatus.RUNNING:
            steps += 1
            assert steps < 400, "the game does not end"
            await all_shown(fake, table, list(browsers.values()))
            if table.status != TableStatus.RUNNING:
                break
            state = table.state
            assert state is not None
            setters = [u for u in users[:2] if may_auto_pass(state.view(users.index(u)))]
            if setters and not auto_passed:
                user = setters[0]
                seat = users.index(user)
                await refused(fake, table, spectator, lobby_frame("auto_pass_on"), "err.not_seated")
                bout = state.bout
                shown = browsers[user].last_table()
                watched = spectator.last_table()
                assert shown is not None and watched is not None
                assert shown["game"]["may_auto_pass"] and not shown["game"]["auto_pass"]
                assert not watched["game"]["may_auto_pass"]
                # judged on the table as it is: an older version is no reason to refuse it
                older = lobby_frame("auto_pass_on", version=table.version - 1)
                await applied(fake, table, browsers[user], older)
                assert table.state is not None
                # Set, or already used up: the seat passed (R15) and the bout went on without it.
                assert (
                    seat in table.auto_pass
                    or table.state.bout != bout
                    or seat in table.public_view().passed
                )
                if seat in table.auto_pass:
                    await all_shown(fake, table, list(browsers.values()))
                    shown = browsers[user].last_table()
                    assert shown is not None and shown["game"]["auto_pass"]
                    await applied(fake, table, browsers[user], lobby_frame("auto_pass_off"))
                    assert seat not in table.auto_pass
                auto_passed = True
                continue
            movers = [u for u in users[:2] if state.legal_actions(users.index(u))]
            assert movers, "nobody can act, yet the game is running"
            browser = browsers[rng.choice(movers)]
            shown = browser.last_table()
            assert shown is not None
            choice = rng.choice(shown["game"]["actions"])
            act = {"v": 1, "type": "act", "code": choice["code"], "version": shown["version"]}
            await applied(fake, table, browser, act)
        assert auto_passed, "no seat could ever be done for a bout"
        assert table.status == TableStatus.FINISHED
        await all_shown(fake, table, list(browsers.values()))
        await fake.wait_for(
            lambda: "🏁" in public_message(w, table).embeds[0]["description"],
            what="the final table message",
        )
        games = table.game_number
        ended = table.state
        assert ended is not None and ended.result is not None
        durak = ended.result.durak
        await refused(fake, table, spectator, lobby_frame("rematch"), "err.not_seated")
        await refused(fake, table, browsers[w.bob], lobby_frame("start"), "err.not_lobby")
        await applied(fake, table, browsers[w.bob], lobby_frame("rematch"))  # not the host: fine
        assert running(table) and table.game_number == games + 1
        assert table.state is not None
        if durak is not None:  # R22: the Durak deals the next game (a draw: R8 decides)
            assert table.state.dealer == durak
        await all_shown(fake, table, list(browsers.values()))
        await fake.wait_for(
            lambda: "🏁" not in public_message(w, table).embeds[0]["description"],
            what="the new game's table message",
        )
        for user, browser in browsers.items():
            assert check_frames(browser.raw, user, history) >= 5
            await browser.close()
