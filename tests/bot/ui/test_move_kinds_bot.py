"""A kind of move added through the table of move kinds alone (durak_core/move_kinds.py, and its
words in the catalogues) is offered, labelled and described everywhere the bot shows moves: the
hand's button in chat (through the fake Discord), the log line, the review's name, and the
Activity's protocol (the welcome frame's table, its texts, the seat's offers). The browser side
of the same toy kind: tests/activity/test_browser_move_kinds.py."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import discord
import pytest

from bot.activity.client_texts import client_texts
from bot.activity.protocol import welcome_frame
from bot.activity.table_frames import seat_part
from bot.coach.ui.review_text import action_text
from bot.tables.table import Table
from bot.ui.card_words import card_text, event_line
from durak_core import SeatView
from durak_core.events import ActionTaken
from durak_core.move_kinds import MoveKind
from tests.bot.helpers import HAND_ID, open_table, public_message, running_bot, world
from tests.toy_kind import registered, wink_of


@pytest.fixture
def wink(monkeypatch: pytest.MonkeyPatch) -> Iterator[MoveKind]:
    """The toy kind "wink" registered, its words in the catalogues, and offered to every seat
    (on the first card of its hand) besides the engine's own legal actions."""
    engine_view = Table.seat_view
    with registered(monkeypatch) as kind:

        def seat_view(table: Table, seat: int) -> SeatView:
            view = engine_view(table, seat)
            offered = (*view.legal_actions, wink_of(kind, view.hand[0]))
            object.__setattr__(view, "legal_actions", offered)  # frozen, as the engine's views
            return view

        monkeypatch.setattr(Table, "seat_view", seat_view)
        yield kind


async def test_a_toy_kind_is_offered_labelled_and_described_in_chat(
    tmp_path: Path, wink: MoveKind
) -> None:
    async with world(tmp_path) as w, running_bot(w) as bot:
        table = await open_table(w, bot, [w.alice, w.bob], w.channel)
        seat = next(i for i, s in enumerate(table.seats) if s.user_id == w.alice)
        card = table.seat_view(seat).hand[0]
        action = wink_of(wink, card)
        hand = await w.fake.click(w.alice, public_message(w, table), f"dkt:{table.table_id}:hand")
        buttons = {
            int(m["code"]): b for b in hand.buttons if (m := HAND_ID.match(b.custom_id or ""))
        }
        button = buttons[action.code]
        assert button.label == f"Wink {card_text(card)}"
        assert button.style == discord.ButtonStyle.danger.value
        # the engine's own moves are still there beside it
        assert set(buttons) - {action.code} <= {a.code for a in table.legal_actions(seat)}
        names = [s.name for s in table.seats]
        line = event_line(ActionTaken(seat, action), names)
        assert line == f"{names[seat]} winks at {card_text(card)}"
        assert event_line(ActionTaken(seat, action), names, "ru") == (
            f"{names[seat]} подмигивает {card_text(card, 'ru')}"
        )
        assert action_text(action, "en") == f"wink at {card_text(card)}"


async def test_a_toy_kind_reaches_the_activity_through_the_protocol(
    tmp_path: Path, wink: MoveKind
) -> None:
    async with world(tmp_path) as w, running_bot(w) as bot:
        table = await open_table(w, bot, [w.alice, w.bob], w.channel)
        view = table.seat_view(0)
        action = wink_of(wink, view.hand[0])
        offers = seat_part(view)["actions"]
        assert {"code": action.code, "text": f"wink {view.hand[0]}"} in offers
    welcome = json.loads(
        welcome_frame(
            user_id=1, channel_id=2, instance_id="i", resume="r", resume_expires_in=60,
            texts=client_texts("ru"), default_timer=60,
        )
    )  # fmt: skip
    row = {"verb": "wink", "spends_card": False, "aims": False, "label": "act.wink"}
    assert row | {"style": "danger", "label_card": ""} in welcome["moves"]
    assert welcome["texts"]["act.wink"] == "Подмигнуть {card}"
