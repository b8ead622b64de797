"""The table frame's turn timer and end of game (issue #31, "Play"): the deadline and the seats
the timer would play for, the moves it made, the shuffle's commitment and its reveal (R4), the
series score. Built by ``table_frame`` from a real table, as the hub builds it."""

from __future__ import annotations

import hashlib
import json
import time
from typing import Any

from bot.activity.table_frames import table_frame
from bot.domain import TableStatus
from bot.storage import RatingChange
from bot.tables.play import apply_action
from bot.tables.table import Seat, Table
from bot.tables.timeout_moves import default_action
from durak_core import Series, new_game, preset

SEED = 0x5EED_1234


def running(turn_timer: int = 45) -> Table:
    rules = preset("classic")
    table = Table("t1", 1, 2, 3, rules, 3, turn_timer, language="en")
    table.seats = [Seat("alice", user_id=3), Seat("bob", user_id=4), Seat("carol", user_id=5)]
    table.seed = SEED
    table.state = new_game(rules, 3, seed=SEED, dealer=0)
    table.series = Series(rules, 3)
    table.status = TableStatus.RUNNING
    return table


def game(table: Table, user_id: int) -> dict[str, Any]:
    frame = json.loads(table_frame(table, user_id))["table"]
    assert frame["turn_timer"] == table.turn_timer
    result: dict[str, Any] = frame["game"]
    return result


def test_the_deadline_travels_with_the_seats_it_is_for() -> None:
    table = running()
    assert table.state is not None
    awaited = list(table.public_view().awaiting)
    table.deadline = time.time() + 42
    for user in (3, 4, 999):  # two players and a spectator: the timer is public
        g = game(table, user)
        assert g["deadline"] == table.deadline
        assert 41 <= g["deadline_in"] <= 42
        assert g["timed"] == awaited and g["timed"]
    # an AI plays the awaited seat: the timer is not for it
    table.away.add(awaited[0])
    assert awaited[0] not in game(table, 3)["timed"]
    # a deadline passed (the timer is about to act): nothing left, never negative
    table.deadline = time.time() - 5
    assert game(table, 3)["deadline_in"] == 0
    # no timer running: no deadline, no seat on the clock
    table.deadline = None
    g = game(table, 3)
    assert (g["deadline"], g["deadline_in"], g["timed"]) == (None, None, [])


def test_a_move_the_timer_made_is_named_with_its_seat() -> None:
    table = running()
    state = table.state
    assert state is not None
    assert game(table, 3)["timeouts"] == []
    seat = state.public_view().awaiting[0]
    lead = default_action(state, seat)
    assert lead is not None
    apply_action(table, seat, lead, timed_out=True)  # what Timers._expire does
    assert table.state is not None
    defender = table.public_view().defender
    # the defender plays by hand: not a timed-out move
    take = next(a for a in table.state.legal_actions(defender) if str(a) == "take")
    apply_action(table, defender, take, timed_out=False)
    timeouts = game(table, 4)["timeouts"]
    assert timeouts == [{"at": 0, "seat": seat, "action": str(lead)}]
    assert str(lead).startswith("attack ")


def test_the_commitment_is_public_and_the_seed_only_once_the_game_is_over() -> None:
    table = running()
    g = game(table, 3)
    commitment = hashlib.sha256(SEED.to_bytes(32, "big")).hexdigest()
    assert g["commitment"] == commitment
    assert g["seed"] is None  # R4: revealed after the game, never during it
    zero = [0, 0, 0]
    assert g["series"] == {"games": 0, "draws": 0, "wins": zero, "losses": zero, "over": False}
    state = table.state
    assert state is not None
    while not state.finished:
        seat, action = state.legal_moves()[0]
        state, _ = state.apply(seat, action)
    assert table.series is not None and state.result is not None
    table.series.record(state.result, state.dealer)
    table.state, table.status = state, TableStatus.FINISHED
    g = game(table, 999)
    assert int(g["seed"], 16) == SEED
    assert hashlib.sha256(bytes.fromhex(g["seed"])).hexdigest() == g["commitment"] == commitment
    assert g["series"]["games"] == 1
    assert sum(g["series"]["losses"]) == (state.result.durak is not None)


def test_the_rating_changes_come_with_the_finished_game_only() -> None:
    """Issue #31, play 6: what recording the game returned, per seat, to one decimal as the
    leaderboard shows it; the delta of the shown values; none for a seat without a change."""
    table = running()
    table.ratings = {0: RatingChange(12.34, 14.06), 1: RatingChange(0.04, -0.03)}
    assert game(table, 3)["ratings"] is None  # a running game: nothing yet
    table.status = TableStatus.FINISHED
    assert game(table, 999)["ratings"] == [  # public, as the leaderboard is
        {"before": 12.3, "after": 14.1, "delta": 1.8},  # 14.1 - 12.3, not round(1.72)
        {"before": 0.0, "after": 0.0, "delta": 0.0},
        None,  # carol's seat: no change known (an AI's, or a game that counted for nobody)
    ]
    text = table_frame(table, 3)
    assert "-0.0" not in text
    table.ratings = None  # not recorded (yet): no ratings at all
    assert game(table, 3)["ratings"] is None
