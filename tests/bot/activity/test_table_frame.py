"""The table frame says whether the table is a tournament's: the client then offers no rematch
(the bot deals the match's next game itself, and refuses a rematch there)."""

from __future__ import annotations

import json

from bot.activity.table_frames import table_frame
from bot.tables.table import MatchOf, Seat, Table
from durak_core import preset


def _table(match: MatchOf | None) -> Table:
    table = Table("t1", 1, 2, 3, preset("classic"), 2, 0, language="en")
    table.seats = [Seat(user_id=3, name="alice"), Seat(user_id=4, name="bob")]
    table.match = match
    return table


def test_a_tournament_table_says_so_and_an_ordinary_one_does_not() -> None:
    ordinary = json.loads(table_frame(_table(None), 3))["table"]
    cup = json.loads(table_frame(_table(MatchOf("abcd1234", round=1, table=2)), 3))["table"]
    assert ordinary["tournament"] is False
    assert cup["tournament"] is True
