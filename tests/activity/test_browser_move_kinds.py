"""The toy kind "wink" (tests/toy_kind.py), added through the table of move kinds alone, in the
browser client: the welcome frame brings the table and the words, the seat's frame offers a
wink, and the client shows it as a button of the controls, labelled in the user's words and
styled from the table; a tap sends its code. Headless Chromium through the harness page, fed the
recorded ``seat-defend`` frames with the wink added."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.activity.client_texts import client_texts
from bot.activity.protocol import client_moves
from durak_core import Card
from durak_core.move_kinds import MoveKind
from tests.activity.browser import (
    BROWSER_TEST,
    CLIENT_DOC,
    HARNESS,
    card_label,
    harness_page,
    show_scenario,
)
from tests.toy_kind import registered, wink_of

pytestmark = BROWSER_TEST


@pytest.fixture
def wink(monkeypatch: pytest.MonkeyPatch) -> Iterator[MoveKind]:
    with registered(monkeypatch) as kind:
        yield kind


def toy_scenario(folder: Path, kind: MoveKind) -> tuple[int, str]:
    """``folder/toy.json``: the recorded defence with the welcome the server sends now (the
    table of kinds, the words) and a wink on the hand's first card among the offers; returns
    the wink's code and card."""
    recorded = json.loads((HARNESS / "frames" / "seat-defend.json").read_text(encoding="utf-8"))
    recorded["welcome"] |= {"moves": client_moves(), "texts": client_texts("ru")}
    frame = recorded["tables"][0]
    game = frame["table"]["game"]
    card = game["hand"][0]
    action = wink_of(kind, Card.parse(card))
    game["actions"].append({"code": action.code, "text": f"wink {card}"})
    recorded["tables"] = [frame, frame]  # the wink accepted: the same table again
    (folder / "toy.json").write_text(json.dumps(recorded), encoding="utf-8")
    return action.code, card


async def test_a_toy_kind_is_a_labelled_button_in_the_client(
    tmp_path: Path, wink: MoveKind
) -> None:
    code, card = toy_scenario(tmp_path, wink)
    button = f"{CLIENT_DOC}.querySelector('.controls [data-key=\"b:wink:{code}\"]')"
    async with harness_page((1280, 720), reduced_motion=True, frames=tmp_path) as (
        base,
        http,
        page,
    ):
        await show_scenario(page, base, "toy")
        shown = await page.evaluate(f"({button}) && [{button}.textContent, {button}.className]")
        assert shown == [f"Подмигнуть {card_label(card)}", "act wink danger"], shown
        await page.evaluate(f"{button}.click()")
        for _ in range(100):
            async with http.get(base + "/harness/acts") as r:
                acts = [a["code"] for a in await r.json() if a.get("type") == "act"]
            if acts:
                break
            await asyncio.sleep(0.05)
        assert acts == [code]
