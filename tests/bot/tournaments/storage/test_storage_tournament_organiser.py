"""The storage calls issue #30's organiser controls use, on SQLite and PostgreSQL: the edit
before the start, the options (pause, check-in state), the check-in of an entrant, and each
game's id and seed commitment for the export, and the organiser's result of a table."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from bot.storage import InvalidQuery, Storage
from bot.tournaments.logic import Format, Override, OverrideKind, TournamentSettings
from bot.tournaments.storage import (
    SignupClosed,
    TournamentNotFound,
    TournamentStatus,
    TournamentStore,
)
from tests.bot.tournaments.storage.tournament_helpers import new_tournament, pairing, running_with


async def test_edit_options_and_check_in(storage: Storage) -> None:
    store = TournamentStore(storage)
    t = await store.create_tournament(new_tournament("cup-1"))
    for user in (11, 12):
        await store.add_entrant("cup-1", user, 1.0)
    when = datetime(2027, 1, 15, 19, 0, tzinfo=UTC)
    settings = TournamentSettings("Big Cup", Format.SWISS, rounds=2, player_limit=8)
    edited = await store.edit_tournament("cup-1", settings, {"turn_seconds": 30}, when)
    assert (edited.name, edited.settings, edited.signup_deadline) == ("Big Cup", settings, when)
    assert edited.options == {**t.options, "turn_seconds": 30}  # the other options kept
    paused = await store.set_tournament_options("cup-1", {"paused": True})
    assert paused.options == {**edited.options, "paused": True}
    assert (await store.get_tournament("cup-1")).options["paused"] is True

    assert await store.check_in_entrant("cup-1", 11) is True
    assert await store.check_in_entrant("cup-1", 11) is True  # again: still in
    assert await store.check_in_entrant("cup-1", 99) is False  # not an entrant
    entrants = await store.tournament_entrants("cup-1")
    assert [(e.user_id, e.checked_in) for e in entrants] == [(11, True), (12, False)]

    await store.set_tournament_status("cup-1", TournamentStatus.RUNNING)
    with pytest.raises(SignupClosed):
        await store.check_in_entrant("cup-1", 12)
    with pytest.raises(SignupClosed):
        await store.edit_tournament("cup-1", settings, {}, when + timedelta(days=1))
    assert await store.tournament_game_ids("cup-1") == []


async def test_a_table_override_is_stored_with_who_and_when(storage: Storage) -> None:
    """Issue #30 control 4, migration 8: the organiser's result of a table of the round being
    played, on the paired table; the first stands; refusals write nothing."""
    store = TournamentStore(storage)
    with pytest.raises(TournamentNotFound):
        await store.override_tournament_table("nope", Override(1, 1, OverrideKind.WINNER, 11), 7)
    await running_with(storage, new_tournament("cup-1"), [11, 12, 13, 14])
    await store.save_round("cup-1", pairing(1, (11, 12), (13, 14)))
    before = datetime.now(UTC)
    assert await store.override_tournament_table(
        "cup-1", Override(1, 2, OverrideKind.FORFEIT, 14), 7
    )
    # the first stands
    assert not await store.override_tournament_table(
        "cup-1", Override(1, 2, OverrideKind.WINNER, 13), 8
    )
    for bad in ((1, 3, 11), (1, 1, 13), (2, 1, 11)):  # no table, not seated there, no round
        with pytest.raises(InvalidQuery):
            o = Override(bad[0], bad[1], OverrideKind.WINNER, bad[2])
            await store.override_tournament_table("cup-1", o, 7)
    (rnd,) = await store.tournament_rounds("cup-1")
    first, second = rnd.tables
    assert first.override is None
    assert second.override is not None
    assert (second.override.kind, second.override.player, second.override.by) == (
        OverrideKind.FORFEIT, 14, 7,
    )  # fmt: skip
    assert before - timedelta(seconds=5) <= second.override.at <= datetime.now(UTC)
    assert rnd.overrides() == {(1, 2): Override(1, 2, OverrideKind.FORFEIT, 14)}
    await store.finish_round("cup-1", 1)  # a finished round takes no override
    with pytest.raises(InvalidQuery):
        await store.override_tournament_table("cup-1", Override(1, 1, OverrideKind.WINNER, 11), 7)
