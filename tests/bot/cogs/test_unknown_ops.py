"""A button op the bot does not know is refused with a clear, ephemeral reason and changes
nothing; it is never taken for another op (issue #17: an unknown table op once fell through
to rematch)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.app import DurakBot
from bot.cogs.base import parse_op
from bot.tables.refusals import Refusal, Rejected
from bot.text import CATALOGUES, t
from bot.ui.buttons import LobbyOp, TableOp
from tests.bot.cogs.test_bot_clicks import _with_button, raw_click
from tests.bot.helpers import World, open_table, public_message, running_bot, table_of, world
from tests.fake_discord import MESSAGE


async def test_crafted_unknown_ops_are_refused_and_change_nothing(tmp_path: Path) -> None:
    async with world(tmp_path) as w:
        other = w.fake.add_channel(w.guild, "lobby")
        async with running_bot(w) as bot:
            await _refused_everywhere(w, bot, other)


async def _refused_everywhere(w: World, bot: DurakBot, other: int) -> None:
    fake = w.fake
    # A lobby: "kick" is no lobby op, "joinx" only starts like one.
    new = await fake.slash(w.alice, other, "durak", "new")
    lobby = new.message
    assert lobby is not None
    waiting = table_of(bot, other)
    seats, version = list(waiting.seats), waiting.version
    for op in ("kick", "joinx", "ai-godlike"):
        crafted = f"dkl:{waiting.table_id}:{op}"
        res = await raw_click(fake, w.bob, _with_button(lobby, crafted), crafted)
        assert res.response_type == MESSAGE and res.ephemeral
        assert res.content == t("err.forged", "en-US")
    assert waiting.seats == seats and waiting.version == version

    # A running table: "surrender" is no table op (and must never be taken for another).
    table = await open_table(w, bot, [w.alice, w.bob], w.channel)
    public = public_message(w, table)
    state, version, status = table.state, table.version, table.status
    # What the table message shows once its refreshes are done (edits still due from the
    # opening may land while we click: the test compares what is shown, not how often).
    await fake.wait_for(bot.notifier.idle, 10, what="the table message to settle")
    shown = public_message(w, table).payload.get("embeds")
    for op in ("surrender", "rematch2", "Hand"):
        crafted = f"dkt:{table.table_id}:{op}"
        res = await raw_click(fake, w.alice, _with_button(public, crafted), crafted)
        assert res.response_type == MESSAGE and res.ephemeral
        assert res.content == t("err.forged", "en-US")
    assert table.state is state and table.version == version and table.status == status
    await fake.wait_for(bot.notifier.idle, 10, what="the table message to settle")
    assert public_message(w, table).payload.get("embeds") == shown
    assert fake.violations == []


@pytest.mark.parametrize("kind", [TableOp, LobbyOp])
def test_an_op_outside_the_enum_is_refused_not_mapped(kind: type[TableOp] | type[LobbyOp]) -> None:
    """The handlers' own guard, behind the custom-id templates: parsing is exact."""
    for op in kind:
        assert parse_op(kind, op.value) is op
    for bad in ("surrender", "", "HAND", "ai-", "rematch "):
        with pytest.raises(Rejected) as refused:
            parse_op(kind, bad)
        assert refused.value.kind is Refusal.FORGED


def test_every_refusal_has_its_answer_in_every_language() -> None:
    for lang, catalogue in CATALOGUES.items():
        missing = [r.name for r in Refusal if r.key not in catalogue]
        assert missing == [], f"{lang}: no answer for {missing}"
