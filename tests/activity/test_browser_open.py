"""Opening a table in the browser (issue #19): the built client in headless Chromium, in the
harness page of test_browser_game.py, launched in a channel with no table. Alice fills in the
form (``/durak new``'s options) and opens the table; Bob joins from his phone, Carol from the
chat; Alice adds an AI and starts, and the first frame each browser draws is the game. Seats
show the players' Discord avatars through the ``/cdn`` mapping (here the harness's stand-in
CDN), and initials for a player without one or whose picture does not load.

Needs Chromium and the built client, like test_browser_game.py (skipped, saying why, without).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.activity.browser import CLIENT_DOC, Page
from tests.activity.test_browser_game import WAIT, needs, open_pages, two_browsers
from tests.activity.test_browser_lobby import shown_at
from tests.bot.helpers import table_of, world

pytestmark = [pytest.mark.slow, pytest.mark.browser]

ALICE_AVATAR = "0f1e2d3c4b5a69788796a5b4c3d2e1f0"
#: The harness's CDN answers 404 for this one: the seat falls back to the initial.
BOB_BROKEN_AVATAR = "00000000000000000000000000000404"

#: The seat plates as drawn: name, the avatar's text, and its picture if one loaded.
PLATES = f"""(() => {{
  const doc = {CLIENT_DOC};
  const imgs = [...doc.querySelectorAll('.avatar img')];
  if (imgs.some(i => !i.complete)) return null;  // still loading (or about to fail)
  return [...doc.querySelectorAll('.seat')].map(s => {{
    const img = s.querySelector('.avatar img');
    return {{
      name: s.querySelector('.name').textContent,
      text: s.querySelector('.avatar').textContent,
      picture: img ? img.getAttribute('src') + ' ' + img.naturalWidth : null,
    }};
  }}).sort((a, b) => a.name.localeCompare(b.name));
}})()"""


async def fill_in_and_open(page: Page, values: dict[str, str]) -> None:
    """Choose ``values`` in the form (as a user does: each control's change event), then
    press its Open button."""
    script = "".join(
        f"""{{ const c = doc.querySelector('[name="{name}"]');
              c.value = '{value}'; c.dispatchEvent(new Event('change')); }}"""
        for name, value in values.items()
    )
    opened = await page.evaluate(
        f"""(() => {{
          const doc = {CLIENT_DOC};
          if (!doc.querySelector('.open-table form')) return false;
          {script}
          doc.querySelector('[data-key="o:open"]').click();
          return true;
        }})()"""
    )
    assert opened, "the client offers no form to open a table"


async def click(page: Page, key: str) -> None:
    script = f"{CLIENT_DOC}.querySelector('.ops [data-key=\"{key}\"]:not([disabled])')"
    assert await page.evaluate(f"(() => {{ const b = {script}; b?.click(); return !!b; }})()"), key


@pytest.mark.skipif(needs() is not None, reason=needs() or "")
async def test_open_a_table_add_an_ai_and_start_from_the_activity(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with world(tmp_path) as w, two_browsers(monkeypatch, w) as (site, alice, bob):
        fake, bot = w.fake, site.bot
        fake.store.users[w.alice].avatar = ALICE_AVATAR
        fake.store.users[w.bob].avatar = BOB_BROKEN_AVATAR
        instance = fake.activity.open_instance(w.channel, [w.alice, w.bob])
        await open_pages(site, {w.alice: alice, w.bob: bob}, instance)
        assert bot.service.registry.in_channel(w.channel) is None

        form = {"preset": "quick", "seats": "4", "timer": "90"}
        await fill_in_and_open(alice, form | {"rule-transfer": "true", "rule-show_trump": "true"})
        await fake.wait_for(
            lambda: (
                (t := bot.service.registry.in_channel(w.channel)) is not None
                and t.lobby_message_id is not None
            ),
            WAIT,
            what="the table to open",
        )
        table = table_of(bot, w.channel)
        assert table.host_id == w.alice and table.max_seats == 4 and table.turn_timer == 90
        assert table.rules.deck_size == 24  # the "quick" preset
        assert table.rules.transfer and table.rules.transfer_by_trump  # its options: V1, V18
        # Bob, in the same channel, is shown the new lobby and joins from it
        shown = await shown_at(bob, table.version, "bob's new lobby", status="lobby")
        assert shown["status"] == "lobby" and shown["ops"] == ["l:join:"], shown
        await click(bob, "l:join:")
        await fake.wait_for(lambda: table.seat_of(w.bob) == 1, WAIT, what="bob to join")
        await fake.slash(w.carol, w.channel, "durak", "join")  # and Carol from the chat

        shown = await shown_at(alice, table.version, "alice's lobby of three")
        await click(alice, "l:add_ai:easy")
        await fake.wait_for(lambda: len(table.seats) == 4, WAIT, what="the AI seat")
        shown = await shown_at(alice, table.version, "alice's full lobby")
        await click(alice, "l:start:")
        await fake.wait_for(lambda: table.status == "running", WAIT, what="the start")

        for user, page in ((w.alice, alice), (w.bob, bob)):
            # the AI seat may move meanwhile: this version of the game, or a later one
            shown = await shown_at(page, table.version, f"user {user}'s game", or_later=True)
            assert shown["status"] == "running", shown
            hand = await page.evaluate(f"{CLIENT_DOC}.querySelectorAll('.hand .card').length")
            assert hand == 6, hand  # the game, with this seat's hand
            plates: list[dict[str, Any]] = await page.wait_for(PLATES, "the seats' pictures", WAIT)
            by_name = {p["name"]: p for p in plates}
            assert len(by_name) == 4, plates
            picture = f"cdn/avatars/{w.alice}/{ALICE_AVATAR}.png?size=64 64"
            assert by_name["alice"]["picture"] == picture, plates  # drawn from the CDN path
            assert by_name["bob"] == {"name": "bob", "text": "B", "picture": None}, plates
            assert by_name["carol"] == {"name": "carol", "text": "C", "picture": None}, plates
            ai = next(p for n, p in by_name.items() if n not in ("alice", "bob", "carol"))
            assert ai["text"] == "AI" and ai["picture"] is None, plates
