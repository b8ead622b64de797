"""The wire leak test (R23–R25): a whole game with two players at the Activity (WebSockets),
one with chat buttons and a spectator at the Activity. Every frame each browser receives is
checked against the state the table had at that frame's version: it holds no card hidden from
its user — only the user's own hand and the public cards (the table, the trump card, the
discard pile everyone saw played, cards known to be in a hand) — and offers exactly the
engine's legal actions for the user's seat (none to a spectator)."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from durak_core import Card, GameState
from durak_core.cards import cards_of
from tests.bot.activity.helpers import (
    History,
    activity_bot,
    applied,
    chat_move,
    chat_settled,
    listen,
    open_browser,
)
from tests.bot.helpers import public_message, table_of, world

#: Any card in durak_core notation, wherever it appears in a frame's text.
CARD = re.compile(r"(?<![0-9A-Za-z#])(?:(?:10|[2-9JQKA])[SCDH]|[BR]J)(?:#2)?(?![0-9A-Za-z])")


def allowed_cards(state: GameState, seat: int | None) -> set[str]:
    """R23 + R24, from the full state (not from a view): what ``seat`` (None: a spectator) may
    see. Everything else — other hands' unknown cards, the talon below the trump — is hidden."""
    public = {state.trump_card, *state.att, *(d for d in state.dfn if d >= 0)}
    public |= {c.index for c in cards_of(state.discard)}
    for known in state.known:
        public |= {c.index for c in cards_of(known)}
    if seat is not None:
        public |= {c.index for c in cards_of(state.hands[seat])}
    return {str(Card.from_index(i)) for i in public}


def hidden_cards(state: GameState, seat: int | None) -> set[str]:
    everything = {c.index for h in state.hands for c in cards_of(h)} | set(state.talon)
    return {str(Card.from_index(i)) for i in everything} - allowed_cards(state, seat)


def check_frames(received: Sequence[str], user: int, history: History) -> int:
    """Every frame this user's browser received (as sent); the number of game frames checked.
    The welcome's resume token is opaque (signed base64url) and left out of the scan: its
    random text can spell a card between a '-' and a '_' (e.g. "v-3S-m")."""
    checked = 0
    for sent in received:
        frame = json.loads(sent)
        frame.pop("resume", None)
        raw = json.dumps(frame)
        if frame["type"] != "table" or frame["table"] is None:
            assert not CARD.findall(raw) or frame["type"] == "error", raw
            continue
        table: dict[str, Any] = frame["table"]
        version = table["version"]
        assert version in history.states, f"frame of a version the table never had: {version}"
        state, users = history.states[version], history.seats[version]
        seat = users.index(user) if user in users else None
        assert table["you"] == seat
        if state is None or table["game"] is None:
            assert not CARD.findall(raw), raw
            continue
        shown = set(CARD.findall(raw))
        leaked = shown & hidden_cards(state, seat)
        assert not leaked, f"version {version}: user {user} was sent hidden cards {leaked}"
        assert shown <= allowed_cards(state, seat), shown - allowed_cards(state, seat)
        game = table["game"]
        legal = {a.code for a in state.legal_actions(seat)} if seat is not None else set()
        assert {a["code"] for a in game["actions"]} == legal, (version, user)
        if seat is not None:
            assert game["hand"] == [str(c) for c in cards_of(state.hands[seat])]
        else:
            assert game["hand"] is None
        checked += 1
    return checked


@pytest.mark.slow
async def test_no_frame_holds_a_hidden_card_over_a_whole_game(tmp_path: Path) -> None:
    rng = random.Random(19)
    async with world(tmp_path) as w, activity_bot(w) as site:
        fake, bot = w.fake, site.bot
        dave = fake.add_user("dave")  # watches at the Activity, holds no seat
        await fake.slash(
            w.alice, w.channel, "durak", "new", options={"deck": 24, "variants": "transfer"}
        )
        for u in (w.bob, w.carol):
            await fake.slash(u, w.channel, "durak", "join")
        instance = fake.activity.open_instance(w.channel, [w.alice, w.bob, dave])
        table = table_of(bot, w.channel)
        history = History(table)
        listen(bot, history)
        browsers = {u: await open_browser(w, site, u, instance) for u in (w.alice, w.bob, dave)}
        # The lobby reaches the browsers too, and so does the start.
        await fake.slash(w.alice, w.channel, "durak", "start")
        await fake.wait_for(lambda: table.table_message_id is not None and table.state is not None)
        opened = await fake.click(w.carol, public_message(w, table), f"dkt:{table.table_id}:hand")
        assert opened.ephemeral

        steps = 0
        while table.status == "running":
            steps += 1
            assert steps < 400, "the game does not end"
            await fake.wait_for(
                lambda: (
                    all(
                        (b.last_table() or {}).get("version") == table.version
                        for b in browsers.values()
                    )
                    and (table.status != "running" or chat_settled(bot, table, w.carol))
                ),
                what="every view to show the table's version",
            )
            if table.status != "running":
                break
            assert table.state is not None
            movers = [
                u for u in (w.alice, w.bob, w.carol) if table.state.legal_actions(table.seat_of(u))
            ]
            assert movers, "nobody can act, yet the game is running"
            user = rng.choice(movers)
            if user in browsers:
                shown = browsers[user].last_table()
                assert shown is not None
                choice = rng.choice(shown["game"]["actions"])
                act = {"v": 1, "type": "act", "code": choice["code"], "version": shown["version"]}
                await applied(fake, table, browsers[user], act)
            else:
                await chat_move(fake, user, rng)
        assert table.status == "finished" and table.state is not None
        await fake.wait_for(
            lambda: all(
                (b.last_table() or {}).get("version") == table.version for b in browsers.values()
            ),
            what="the end of the game in every browser",
        )
        for user, browser in browsers.items():
            final = browser.last_table()
            assert final is not None and final["game"]["finished"]
            assert final["game"]["result"] is not None
            assert check_frames(browser.raw, user, history) >= 10
            await browser.close()
        # The lobby frames (before the deal) were sent and checked too.
        assert any(t["status"] == "lobby" for t in browsers[dave].tables())
