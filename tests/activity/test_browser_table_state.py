"""What the table shows besides the bout (issue #31, "Play" 6), in headless Chromium through the
harness page with recorded frames: the trump card face up beside the talon, the discard pile,
the cards everyone knows are in a hand, the bout's card limit, teammates marked (the teams
preset), and the new cards' animation off under ``prefers-reduced-motion``."""

from __future__ import annotations

import asyncio
from typing import Any

from bot.text import t
from tests.activity.browser import (
    BROWSER_TEST,
    CLIENT_DOC,
    DRAWN,
    Page,
    card_label,
    harness_page,
    recorded_table,
    reduce_motion,
    show_scenario,
)

pytestmark = BROWSER_TEST

STATE = f"""(() => {{
  const doc = {CLIENT_DOC};
  const plates = [...doc.querySelectorAll('#app > .seats .seat')].map(s => ({{
    name: s.querySelector('.name').textContent,
    known: [...s.querySelectorAll('.known span')].map(e => e.textContent),
    mate: s.querySelector('.mate')?.textContent ?? null,
  }}));
  const longest = Math.max(0, ...doc.getAnimations().map(a => a.effect.getTiming().duration || 0));
  return {{
    trump: doc.querySelector('.trump-card .card')?.getAttribute('aria-label') ?? null,
    talon: doc.querySelector('.pile.talon')?.getAttribute('aria-label') ?? null,
    discard: doc.querySelector('.pile.discard')?.getAttribute('aria-label') ?? null,
    limit: doc.querySelector('.bout .limit')?.textContent ?? null,
    plates, animations: doc.getAnimations().length, longest,
    transition: (c => c && getComputedStyle(c).transitionDuration)(
      doc.querySelector('.hand .card')),
  }};
}})()"""


def frame(scenario: str) -> tuple[dict[str, Any], dict[str, Any]]:
    table = recorded_table(scenario)
    return table, table["game"]


async def shown(page: Page, base: str, scenario: str) -> dict[str, Any]:
    await show_scenario(page, base, scenario)
    state: dict[str, Any] = await page.evaluate(STATE)
    return state


async def test_trump_piles_known_cards_limit_and_teammates() -> None:
    async with harness_page((1280, 720)) as (base, _, page):
        table, game = frame("seat-defend")
        state = await shown(page, base, "seat-defend")
        assert state["trump"] == card_label(game["trump_card"])  # face up beside the talon
        assert state["talon"] == f"{t('table.talon', 'en')}: {game['talon_size']}"
        assert state["discard"] == f"{t('table.discard', 'en')}: {game['discard_size']}"
        assert state["limit"] == t("activity.bout_limit", "en", n=len(game["table"]), limit=6)
        names = [p["name"] for p in table["players"]]
        for plate in state["plates"]:
            seat = names.index(plate["name"])
            assert sorted(plate["known"]) == sorted(card_label(c) for c in game["known"][seat])
            assert plate["mate"] is None  # no teams here
        assert any(p["known"] for p in state["plates"])
        # moving cards: at most 250 ms
        assert state["longest"] <= 250, state

        table, game = frame("teams")
        state = await shown(page, base, "teams")
        you = table["you"]
        mates = {names[s] for s in range(4) if s != you and game["teams"][s] == game["teams"][you]}
        assert len(mates) == 1
        marked = {p["name"] for p in state["plates"] if p["mate"] == t("activity.teammate", "en")}
        assert marked == mates

        # prefers-reduced-motion: no animation, no transition
        await reduce_motion(page)
        state = await shown(page, base, "seat-defend")
        assert state["animations"] == 0 and state["transition"] == "0s", state


SENT = """(() => harness.messages.filter(m => m.direction === '←' && m.message[0] === 1)
  .map(m => m.message[1]).filter(b => b.cmd === 'SET_ACTIVITY' || b.cmd === 'OPEN_INVITE_DIALOG')
  .map(b => [b.cmd, b.args?.activity?.state ?? null, b.args?.activity?.party?.size ?? null]))()"""


async def sent_to_discord(page: Page, at_least: int) -> list[list[Any]]:
    """The SET_ACTIVITY and OPEN_INVITE_DIALOG commands the harness received, once there are
    ``at_least``: [command, the presence line, the party size]."""
    found: list[list[Any]] = await page.wait_for(
        f"(() => {{ const s = {SENT}; return s.length >= {at_least} ? s : null }})()",
        "the SDK's commands",
    )
    return found


async def test_rich_presence_and_the_invite_dialog_go_to_discord() -> None:
    """The lobby sets Rich Presence ("In the lobby: 4 of 6 seats") and Invite opens Discord's
    invite dialog: both are SDK commands the harness (Discord's parent frame) receives."""
    async with harness_page((1280, 720)) as (base, _, page):
        await shown(page, base, "lobby")
        line = t("activity.presence_lobby", "en", n=4, max=6)
        sent = await page.wait_for(
            f"(() => {{ const s = {SENT}; return s.length ? s : null }})()", "SET_ACTIVITY"
        )
        assert sent == [["SET_ACTIVITY", line, [4, 6]]], sent
        await page.evaluate(f"{CLIENT_DOC}.querySelector('[data-key=\"i:invite\"]').click()")
        sent = await page.wait_for(
            f"(() => {{ const s = {SENT}; return s.length > 1 ? s : null }})()", "the invite"
        )
        assert sent[1] == ["OPEN_INVITE_DIALOG", None, None], sent
        # a game: the seats and the bout
        _, game = frame("seat-defend")
        await shown(page, base, "seat-defend")
        line = t("activity.presence_game", "en", n=4, max=4, bout=game["bout"])
        sent = await page.wait_for(
            f"(() => {{ const s = {SENT}; return s.length ? s : null }})()", "SET_ACTIVITY"
        )
        assert sent == [["SET_ACTIVITY", line, [4, 4]]], sent


AUTHORIZED = "(() => harness.authorized)()"


async def test_a_refused_presence_scope_signs_in_without_presence() -> None:
    """Sign-in asks for identify and rpc.activities.write once (the same scopes every time, so
    a silent sign-in again shows no consent screen). An application Discord refuses the
    presence scope (invalid_scope) still signs in, with identify alone, and sets no presence."""
    async with harness_page((1280, 720)) as (base, _, page):
        await shown(page, base, "lobby")
        assert await page.evaluate(AUTHORIZED) == [["identify", "rpc.activities.write"]]
        url = f"{base}/harness/?scenario=lobby&shot=1&deny=rpc.activities.write"
        await page.call("Page.navigate", url=url)
        await page.wait_for(DRAWN, "the lobby signed in without the presence scope")
        assert await page.evaluate(AUTHORIZED) == [
            ["identify", "rpc.activities.write"],
            ["identify"],
        ]
        await asyncio.sleep(0.5)  # what a granted scope would have sent by now
        assert await page.evaluate(SENT) == []
