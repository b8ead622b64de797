"""The Activity's WebSocket: only a genuine, fresh, unused session token opens it; an action
goes through the chat's locked, re-validated path and is refused, with nothing changed,
whenever it claims anything the session does not hold; every change reaches both sides."""

from __future__ import annotations

import base64
import json
from pathlib import Path

import pytest

from durak_core import Action
from tests.bot.activity.helpers import Browser, Site, activity_bot, connect, open_browser, sign_in
from tests.bot.helpers import (
    World,
    expected_codes,
    hand_codes,
    open_table,
    public_message,
    world,
)


async def refused(w: World, browser: Browser) -> None:
    await w.fake.wait_for(lambda: browser.closed, what="the socket to be closed")
    assert browser.close_code == 4001
    assert [f["reason"] for f in browser.frames] == ["err.activity_session"]


async def test_only_a_fresh_genuine_token_opens_a_socket(tmp_path: Path) -> None:
    async with world(tmp_path) as w, activity_bot(w) as site:
        instance = w.fake.activity.open_instance(w.channel, [w.alice, w.bob])
        token = await sign_in(w, site, w.alice, instance)
        first = await connect(site, token)
        await w.fake.wait_for(lambda: len(first.frames) >= 2, what="welcome and table")
        assert first.frames[0]["type"] == "welcome"
        assert first.frames[0]["user_id"] == str(w.alice)
        assert first.frames[1] == {"v": 1, "type": "table", "table": None}  # no table yet

        await refused(w, await connect(site, token))  # replayed
        body, mac = token.split(".")
        claims = json.loads(base64.urlsafe_b64decode(body + "=" * (-len(body) % 4)))
        claims["u"] = str(w.bob)  # claim to be bob
        forged = base64.urlsafe_b64encode(json.dumps(claims).encode()).rstrip(b"=").decode()
        await refused(w, await connect(site, f"{forged}.{mac}"))
        await refused(w, await connect(site, "made.up"))
        await refused(w, await connect(site, None))
        no_hello = await connect(site, None, hello=False)  # acts before saying who it is
        await no_hello.act(0, 0)
        await refused(w, no_hello)

        server = site.bot.activity_server
        assert server is not None
        late = await sign_in(w, site, w.bob, instance)
        real_clock = server.signer.clock
        server.signer.clock = lambda: real_clock() + server.signer.lifetime + 1
        await refused(w, await connect(site, late))  # expired
        server.signer.clock = real_clock

        # The welcome's resume token reconnects once, as the same user.
        resume = first.frames[0]["resume"]
        again = await connect(site, resume)
        await w.fake.wait_for(lambda: len(again.frames) >= 2, what="the resumed socket")
        assert again.frames[0]["user_id"] == str(w.alice)
        await refused(w, await connect(site, resume))
        for b in (first, again):
            await b.close()


def mover(site: Site, w: World, browsers: dict[int, Browser]) -> tuple[int, int, Action]:
    """A user on a browser with a legal action, their seat, and that action."""
    table = site.bot.service.registry.in_channel(w.channel)
    assert table is not None and table.state is not None
    for user in browsers:
        seat = table.seat_of(user)
        assert seat is not None
        legal = table.state.legal_actions(seat)
        if legal:
            return user, seat, legal[0]
    raise AssertionError("no browser user may act")


@pytest.mark.slow
async def test_a_browser_action_takes_the_chat_path_and_forgeries_change_nothing(
    tmp_path: Path,
) -> None:
    async with world(tmp_path) as w, activity_bot(w) as site:
        fake = w.fake
        table = await open_table(w, site.bot, [w.alice, w.bob], w.channel)
        carol = w.carol  # at no seat: a spectator
        instance = fake.activity.open_instance(w.channel, [w.alice, w.bob, carol])
        browsers = {u: await open_browser(w, site, u, instance) for u in (w.alice, w.bob)}
        spectator = await open_browser(w, site, carol, instance)
        assert table.state is not None
        for user, browser in browsers.items():
            shown = browser.last_table()
            assert shown is not None and shown["version"] == table.version
            seat = table.seat_of(user)
            assert seat is not None and shown["you"] == seat
            legal = {a.code for a in table.state.legal_actions(seat)}
            assert {a["code"] for a in shown["game"]["actions"]} == legal
            hand = sorted(table.state.view(seat).hand, key=lambda c: c.index)
            assert shown["game"]["hand"] == [str(c) for c in hand]
        watched = spectator.last_table()
        assert watched is not None and watched["you"] is None
        assert watched["game"]["hand"] is None and watched["game"]["actions"] == []

        user, seat, action = mover(site, w, browsers)
        other = w.bob if user == w.alice else w.alice
        other_seat = table.seat_of(other)
        assert other_seat is not None
        browser = browsers[user]
        before = (table.version, table.state)

        async def refusal(sender: Browser, frame: dict[str, object], reason: str) -> None:
            count = len(sender.errors())
            await sender.send({"v": 1, "type": "act", **frame})
            await fake.wait_for(lambda: len(sender.errors()) > count, what=reason)
            assert sender.errors()[-1]["reason"] == reason, sender.errors()[-1]
            assert sender.errors()[-1]["text"]
            assert (table.version, table.state) == before, "a refused frame changed the table"

        version = table.version
        # Claims of another seat, user, instance or table: the frame is refused as a whole.
        code = action.code
        for claim in ({"seat": other_seat}, {"user_id": str(other)}, {"instance_id": "i-x"}):
            frame = {"code": code, "version": version, **claim}
            await refusal(browser, frame, "err.activity_frame")
        await refusal(browser, {"code": "7", "version": version}, "err.activity_frame")
        await refusal(browser, {"code": 10**9, "version": version}, "err.activity_frame")
        # The other player's legal action, sent by the one who may not make it (R24: the seat
        # is the session's, so it is checked as this seat's action).
        assert table.state is not None
        theirs = [a for a in table.state.legal_actions(other_seat) if not table.state.can(seat, a)]
        if theirs:
            await refusal(browser, {"code": theirs[0].code, "version": version}, "err.illegal")
        not_mine = [a for a in map(Action.from_code, range(40)) if not table.state.can(seat, a)]
        illegal = {"code": not_mine[0].code, "version": version, "ref": "x1"}
        await refusal(browser, illegal, "err.illegal")
        assert browser.errors()[-1]["ref"] == "x1"
        # An older version: a move legal now goes through (below), one that is not is stale.
        await refusal(browser, {"code": not_mine[0].code, "version": version - 1}, "err.stale")
        await refusal(spectator, {"code": action.code, "version": version}, "err.not_seated")

        # A chat hand open for the other player: the browser's action refreshes it too.
        await fake.click(other, public_message(w, table), f"dkt:{table.table_id}:hand")
        public_edits = public_message(w, table).edit_count
        await browser.act(action.code, version)
        await fake.wait_for(lambda: table.version == version + 1, what="the action")
        for b in (*browsers.values(), spectator):
            await fake.wait_for(
                lambda b=b: (b.last_table() or {}).get("version") == table.version,  # type: ignore[misc]
                what="every browser's new view",
            )
        await fake.wait_for(
            lambda: public_message(w, table).edit_count > public_edits, what="the table message"
        )
        links = site.bot.notifier.links
        await fake.wait_for(
            lambda: links[(table.table_id, other)].shown_version == table.version,
            what="the other player's chat hand",
        )
        hands = [m for m in fake.ephemeral_messages(other) if "Your hand" in m.content]
        codes, versions = hand_codes(hands[-1])
        assert versions <= {table.version}
        assert codes == expected_codes(table, other_seat, hands[-1])
        for b in (*browsers.values(), spectator):
            await b.close()


@pytest.mark.slow
async def test_a_waiting_browser_sees_the_table_open_fill_and_close(tmp_path: Path) -> None:
    async with world(tmp_path) as w, activity_bot(w) as site:
        fake = w.fake
        instance = fake.activity.open_instance(w.channel, [w.bob])
        browser = await open_browser(w, site, w.bob, instance)
        assert browser.last_table() is None
        await fake.slash(w.alice, w.channel, "durak", "new")  # announced to nobody: looked up
        await fake.wait_for(lambda: browser.last_table() is not None, what="the new lobby")
        lobby = browser.last_table()
        assert lobby is not None and lobby["status"] == "lobby" and lobby["you"] is None
        assert [p["name"] for p in lobby["players"]] == ["alice"] and lobby["game"] is None
        await fake.slash(w.bob, w.channel, "durak", "join")
        await fake.wait_for(lambda: (browser.last_table() or {}).get("you") == 1, what="bob seated")
        await fake.slash(w.alice, w.channel, "durak", "cancel")
        await fake.wait_for(
            lambda: any(t and t["status"] == "abandoned" for t in browser.tables()),
            what="the cancel",
        )
        await fake.wait_for(lambda: browser.last_table() is None, what="no table any more")
        await browser.close()
