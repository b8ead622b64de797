"""The storage calls issue #30's organiser controls use, on SQLite and PostgreSQL: the edit
before the start, the options (pause, check-in state), the check-in of an entrant, and each
game's id and seed commitment for the export."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from bot.storage import SignupClosed, Storage, TournamentStatus
from bot.tournaments import Format, TournamentSettings
from tests.storage.tournament_helpers import new_tournament


async def test_edit_options_and_check_in(storage: Storage) -> None:
    t = await storage.create_tournament(new_tournament("cup-1"))
    for user in (11, 12):
        await storage.add_entrant("cup-1", user, 1.0)
    when = datetime(2027, 1, 15, 19, 0, tzinfo=UTC)
    settings = TournamentSettings("Big Cup", Format.SWISS, rounds=2, player_limit=8)
    edited = await storage.edit_tournament("cup-1", settings, {"turn_seconds": 30}, when)
    assert (edited.name, edited.settings, edited.signup_deadline) == ("Big Cup", settings, when)
    assert edited.options == {**t.options, "turn_seconds": 30}  # the other options kept
    paused = await storage.set_tournament_options("cup-1", {"paused": True})
    assert paused.options == {**edited.options, "paused": True}
    assert (await storage.get_tournament("cup-1")).options["paused"] is True

    assert await storage.check_in_entrant("cup-1", 11) is True
    assert await storage.check_in_entrant("cup-1", 11) is True  # again: still in
    assert await storage.check_in_entrant("cup-1", 99) is False  # not an entrant
    entrants = await storage.tournament_entrants("cup-1")
    assert [(e.user_id, e.checked_in) for e in entrants] == [(11, True), (12, False)]

    await storage.set_tournament_status("cup-1", TournamentStatus.RUNNING)
    with pytest.raises(SignupClosed):
        await storage.check_in_entrant("cup-1", 12)
    with pytest.raises(SignupClosed):
        await storage.edit_tournament("cup-1", settings, {}, when + timedelta(days=1))
    assert await storage.tournament_game_ids("cup-1") == []
