"""Validation of the storage models: bad records are refused before any write."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any

import pytest
from pydantic import ValidationError

from bot.storage import GameRecord, SavedTable, SeatRecord, TableStatus

MakeGame = Callable[..., GameRecord]


def _with(rec: GameRecord, **changes: Any) -> dict[str, Any]:
    data = rec.model_dump()
    data.update(changes)
    return data


def test_valid_record_round_trips_through_json(make_game: MakeGame) -> None:
    rec = make_game([1, 2, "easy"], [0, 1], 2)
    assert GameRecord.model_validate_json(rec.model_dump_json()) == rec


def test_models_are_frozen(make_game: MakeGame) -> None:
    rec = make_game([1, 2], [0], 1)
    with pytest.raises(ValidationError):
        rec.guild_id = 5


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"durak_seat": None}, "no losing_seats"),
        ({"losing_seats": [0]}, "losing_seats must be"),
        ({"finishing_order": [0, 7]}, "does not exist"),
        ({"finishing_order": [0, 0]}, "repeats"),
        ({"finishing_order": [2, 0]}, "only appear last"),
        ({"finishing_order": []}, "first player out"),
        ({"seed": "not-hex"}, "hex"),
        ({"seed_commitment": ""}, "hex"),
        ({"game_number": 0}, "greater than or equal"),
        ({"rules": {"preset": object()}}, "JSON"),
        ({"started_at": datetime(2026, 1, 1)}, "timezone-aware"),
        ({"ended_at": datetime.fromisoformat("2000-01-01T00:00:00+00:00")}, "before"),
    ],
)
def test_inconsistent_records_are_rejected(
    make_game: MakeGame, changes: dict[str, Any], message: str
) -> None:
    rec = make_game([1, 2, 3], [0, 1], 2)
    with pytest.raises(ValidationError, match=message):
        GameRecord.model_validate(_with(rec, **changes))


@pytest.mark.parametrize("n", [1, 7])
def test_seat_count_must_be_two_to_six(make_game: MakeGame, n: int) -> None:
    rec = make_game([1, 2], [0], 1)
    seats = [
        {"seat": i % 6, "kind": "ai", "ai_level": "easy", "display_name": "x"} for i in range(n)
    ]
    with pytest.raises(ValidationError):
        GameRecord.model_validate(_with(rec, seats=seats))


def test_seat_numbers_must_be_dense(make_game: MakeGame) -> None:
    rec = make_game([1, 2], [0], 1)
    seats = [s.model_dump() for s in rec.seats]
    seats[1]["seat"] = 3
    with pytest.raises(ValidationError, match="seat numbers"):
        GameRecord.model_validate(_with(rec, seats=seats, finishing_order=[0], losing_seats=[]))


def test_a_user_holds_one_seat(make_game: MakeGame) -> None:
    with pytest.raises(ValidationError, match="one seat"):
        make_game([1, 1], [0], 1)


def test_team_loss_covers_the_whole_team(make_game: MakeGame) -> None:
    rec = make_game([1, 2, 3, 4], [0], 3, teams=[0, 1, 0, 1])
    assert rec.losing_seats == [1, 3]
    with pytest.raises(ValidationError, match="Durak's team"):
        GameRecord.model_validate(_with(rec, losing_seats=[3]))


def test_teams_all_or_nothing(make_game: MakeGame) -> None:
    rec = make_game([1, 2, 3], [0, 1], 2)
    seats = [s.model_dump() for s in rec.seats]
    seats[0]["team"] = 1
    with pytest.raises(ValidationError, match="every seat has a team"):
        GameRecord.model_validate(_with(rec, seats=seats))


@pytest.mark.parametrize(
    "seat",
    [
        {"seat": 0, "kind": "human", "display_name": "x"},
        {"seat": 0, "kind": "human", "user_id": 1, "ai_level": "easy", "display_name": "x"},
        {"seat": 0, "kind": "ai", "display_name": "x"},
        {"seat": 0, "kind": "ai", "ai_level": "", "display_name": "x"},
        {"seat": 0, "kind": "ai", "ai_level": "easy", "user_id": 3, "display_name": "x"},
    ],
)
def test_seat_kind_matches_its_ids(seat: dict[str, Any]) -> None:
    with pytest.raises(ValidationError):
        SeatRecord.model_validate(seat)


def test_times_are_normalised_to_utc(make_game: MakeGame) -> None:
    rec = make_game([1, 2], [0], 1)
    moscow = datetime.fromisoformat("2026-11-01T15:00:00+03:00")
    fixed = GameRecord.model_validate(_with(rec, started_at=moscow, ended_at=moscow))
    assert fixed.started_at.utcoffset() is not None
    assert fixed.started_at.hour == 12


def test_saved_table_meta_must_be_json() -> None:
    with pytest.raises(ValidationError, match="JSON"):
        SavedTable(
            table_id="t", guild_id=1, channel_id=2, state_json="{}", status=TableStatus.RUNNING,
            version=0, meta={"x": {1, 2}},
        )  # fmt: skip
    with pytest.raises(ValidationError):
        SavedTable.model_validate(
            {"table_id": "t", "guild_id": 1, "channel_id": 2, "state_json": "{}",
             "status": "paused", "version": 0}
        )  # fmt: skip
