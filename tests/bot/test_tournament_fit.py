"""Issue #30, bug 12: a field its tables do not hold well (7 players at 4-seat tables without
AI seats: one table, three byes, every round) is started with a warning that says so and what
would seat everyone; a field that fits gets none."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.text import t
from tests.bot.helpers import running_bot, world
from tests.bot.test_tournament_signup import say, signed_up


async def start_with(tmp_path: Path, count: int, **options: object) -> str:
    async with world(tmp_path) as w, running_bot(w) as bot:
        players = [w.fake.add_user(f"p{i}") for i in range(count)]
        await signed_up(w, bot, players, name="Cup", timer=600, **options)
        answer = await say(w, w.alice, "start")
        await say(w, w.alice, "cancel")
        return answer


@pytest.mark.slow  # over a second: out of the quick subset
async def test_seven_at_four_seat_tables_are_warned(tmp_path: Path) -> None:
    answer = await start_with(tmp_path / "a", 7, table_size=4, rounds=1)
    started = t("tournament.ok.started", name="Cup")
    warning = t("tournament.warn.byes_size", n=7, size=4, byes=3, better=3)
    assert answer == f"{started}\n{warning}"
    # the same field with AI seats: nobody sits out, no warning
    quiet = await start_with(tmp_path / "b", 7, table_size=4, rounds=1, ai_fill=True)
    assert quiet == started
