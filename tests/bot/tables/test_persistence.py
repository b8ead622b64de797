"""What a restarted bot needs survives a save: the table-feel state ("done for this bout", the
log's notes, the lobby's AI option, the practice option, seats taken over for good)
round-trips through SavedTable."""

from __future__ import annotations

from bot.domain import TableStatus
from bot.storage import SavedTable
from bot.tables.lobby import opening_notes
from bot.tables.persistence import from_saved, to_saved
from bot.tables.table import Seat, Table
from durak_core import Card, RuleSet, Series, new_game
from durak_core.ai import Level


def test_table_feel_state_round_trips() -> None:
    table = Table("0123abcd", 1, 2, 3, RuleSet(), 4, 60)
    table.seats = [
        Seat("alice", user_id=3),
        Seat("bob", user_id=4),
        Seat("AI 1 (hard)", ai_level=Level.HARD),
        Seat("carol", ai_level=Level.NORMAL, replaced=True),
    ]
    table.status, table.seed = TableStatus.RUNNING, 99
    table.series = Series(table.rules, 4)
    table.state = new_game(table.rules, 4, seed=99)
    table.notes = opening_notes(table.public_view(), first_game=True)
    table.auto_pass = {1: 0}
    table.left = {1}
    table.anyone_adds_ai = True
    table.practice = True
    saved = to_saved(table)
    # to_saved skips validation (it runs on every action): what it builds is what validating
    # the same fields builds
    assert SavedTable.model_validate(saved.model_dump()) == saved
    back = from_saved(saved)
    assert back.seats == table.seats and back.seats[3].replaced
    assert back.notes == table.notes and back.notes[0].key in ("r8", "r8_none")
    assert all(n.card is None or isinstance(n.card, Card) for n in back.notes)
    assert back.auto_pass == {1: 0} and back.left == {1} and back.anyone_adds_ai
    assert back.practice  # a practice table stays one (hints, unrated games) after a restart
    assert back.player_of(1) == ("left", "normal") and back.player_of(3) == ("left", "normal")
    assert back.player_of(2) == ("ai", "hard") and back.player_of(0) == ("human", None)


def test_a_table_saved_before_these_fields_loads_with_their_defaults() -> None:
    table = Table("0123abcd", 1, 2, 3, RuleSet(), 2, 0, seats=[Seat("a", user_id=1)])
    saved = to_saved(table)
    old_meta = {k: v for k, v in saved.meta.items()
                if k not in ("auto_pass", "notes", "anyone_adds_ai", "practice")}  # fmt: skip
    old_meta["seats"] = [{"name": "a", "user_id": 1, "ai_level": None}]
    back = from_saved(saved.model_copy(update={"meta": old_meta}))
    assert back.auto_pass == {} and back.notes == [] and not back.anyone_adds_ai
    assert not back.practice
    assert back.seats == [Seat("a", user_id=1)]
