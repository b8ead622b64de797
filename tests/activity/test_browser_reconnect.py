"""A move whose socket closes before its answer (a phone changing networks as the player
taps): the client keeps the move until the table answers it, and on the next socket sends it
again if the table is still at the version it was chosen at. The move counts once, and the
player is not left with a tap that silently did nothing.

Needs Chromium and the built client, like test_browser_game.py.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from tests.activity.browser import BROWSER_TEST, CLIENT_DOC, offers_when
from tests.activity.test_browser_game import (
    WAIT,
    click_move,
    moved_past,
    offers_match,
    open_pages,
    seat,
    two_browsers,
)
from tests.bot.helpers import table_of, world

pytestmark = BROWSER_TEST

#: In the client's window: the next move frame is not sent, and its socket closes (code 4000,
#: which the client reopens like any drop) before the server could answer it.
LOSE_NEXT_MOVE = f"""(() => {{
  const ws = {CLIENT_DOC}.defaultView.WebSocket.prototype;
  const send = ws.send;
  ws.send = function (data) {{
    if (!String(data).includes('"type":"act"')) return send.call(this, data);
    ws.send = send;
    this.close(4000, 'network change');
  }};
  return true;
}})()"""


async def test_a_move_whose_socket_closed_goes_again_on_the_next(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    rng = random.Random(3)
    async with world(tmp_path) as w, two_browsers(monkeypatch, w) as (site, alice, bob):
        fake = w.fake
        await fake.slash(w.alice, w.channel, "durak", "new", options={"deck": 24})
        await fake.slash(w.bob, w.channel, "durak", "join")
        await fake.slash(w.alice, w.channel, "durak", "start")
        table = table_of(site.bot, w.channel)
        instance = fake.activity.open_instance(w.channel, [w.alice, w.bob])
        pages = {w.alice: alice, w.bob: bob}
        await open_pages(site, pages, instance)
        assert table.state is not None
        user = next(u for u in pages if table.state.legal_actions(seat(table, u)))
        page, at = pages[user], table.version
        await offers_match(page, table, seat(table, user))
        action = rng.choice(table.state.legal_actions(seat(table, user)))
        moves_before = len(table.state.log)

        await page.evaluate(LOSE_NEXT_MOVE)
        await click_move(page, action)

        await fake.wait_for(moved_past(table, at), WAIT, what="the move sent again")
        assert table.version == at + 1
        assert table.state.log[moves_before:] == ((seat(table, user), action),)
        shown = await page.wait_for(
            offers_when(f"o.version === {table.version}"), "the client to draw the move", WAIT
        )
        assert shown["status"] == "running"
        sockets = [e for e in page.events if e.get("method") == "Network.webSocketCreated"]
        assert len(sockets) == 2, "the move went on a second socket"
        toast = await page.evaluate(f"{CLIENT_DOC}.querySelector('.toast')?.textContent ?? ''")
        assert toast == "", toast
