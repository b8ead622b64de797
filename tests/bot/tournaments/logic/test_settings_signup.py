"""Tournament settings and sign-up: every refusal names its problem and changes nothing."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from bot.tournaments.logic.configuration import (
    Format,
    MatchKind,
    MatchLength,
    TournamentSettings,
    check_deadline,
)
from bot.tournaments.logic.errors import SettingsError, SignupError, TournamentError
from bot.tournaments.logic.signup import (
    Entrant,
    Signup,
    check_start,
    join,
    leave,
    seed_order,
    start,
)

SE, SW = Format.SINGLE_ELIMINATION, Format.SWISS


@pytest.mark.parametrize(
    ("kwargs", "code", "words"),
    [
        (
            {"format": SE, "table_size": 3},
            "elimination_seats",
            "single elimination is played at 2-seat",
        ),
        ({"format": SE, "rounds": 3}, "elimination_rounds", "rounds cannot be set"),
        ({"format": SE, "ai_fill": True}, "elimination_ai", "byes to the top seeds"),
        ({"table_size": 1}, "table_size", "2 to 6 seats"),
        ({"table_size": 7}, "table_size", "2 to 6 seats"),
        ({"rounds": 0}, "rounds", "rounds must be 1 to 15"),
        ({"rounds": 16}, "rounds", "rounds must be 1 to 15"),
        ({"player_limit": 1}, "player_limit", "limit must be 2 to 64"),
        ({"player_limit": 65}, "player_limit", "limit must be 2 to 64"),
        ({"table_size": 5, "player_limit": 4}, "limit_below_table", "cannot fill a 5-seat"),
        ({"name": "   "}, "name", "1 to 80 characters"),
        ({"name": "x" * 81}, "name", "1 to 80 characters"),
    ],
)
def test_bad_settings_name_the_problem(kwargs: dict[str, object], code: str, words: str) -> None:
    args: dict[str, object] = {"name": "Cup", "format": SW, **kwargs}
    with pytest.raises(SettingsError, match=words) as caught:
        TournamentSettings(**args)  # type: ignore[arg-type]
    assert caught.value.code == code
    assert isinstance(caught.value, ValueError)


def test_match_length_v17_bounds() -> None:
    # V17: a match may last until one player has been the Durak N times.
    assert MatchLength.losses(3) == MatchLength(MatchKind.LOSSES, 3)
    for bad in (MatchLength.losses, MatchLength.games):
        with pytest.raises(SettingsError, match="per match must be 1 to"):
            bad(0)
    with pytest.raises(SettingsError, match="losses per match must be 1 to 5"):
        MatchLength.losses(6)
    MatchLength.games(9)


def test_limit_below_the_table_is_fine_with_ai_seats_and_name_is_trimmed() -> None:
    s = TournamentSettings("  Cup ", SW, table_size=5, player_limit=4, ai_fill=True)
    assert s.name == "Cup" and s.min_entrants() == 2


def test_rounds() -> None:
    assert [TournamentSettings("C", SE).rounds_for(e) for e in (2, 3, 4, 5, 64)] == [1, 2, 2, 3, 6]
    swiss2 = TournamentSettings("C", SW)
    assert [swiss2.rounds_for(e) for e in (2, 3, 8, 9, 64)] == [1, 2, 3, 4, 6]
    assert swiss2.rounds_for(3) <= swiss2.max_rounds(3) == 2
    swiss4 = TournamentSettings("C", SW, table_size=4)
    assert [swiss4.rounds_for(e) for e in (4, 5, 16, 17, 64)] == [1, 1, 2, 3, 3]
    assert swiss4.max_rounds(16) == 5  # each round meets 3 new opponents: 5 x 3 = 15
    assert TournamentSettings("C", SW, table_size=4, rounds=7).rounds_for(30) == 7


def test_deadline_must_be_in_the_future() -> None:
    now = datetime(2026, 1, 1, tzinfo=UTC)
    check_deadline(None, now)
    check_deadline(now + timedelta(minutes=1), now)
    with pytest.raises(SettingsError, match="already passed"):
        check_deadline(now, now)


def signup(**kwargs: object) -> Signup:
    args: dict[str, object] = {"name": "Cup", "format": SW, **kwargs}
    return Signup(TournamentSettings(**args))  # type: ignore[arg-type]


def refused(code: str, step: object) -> None:
    assert callable(step)
    with pytest.raises(SignupError) as caught:
        step()
    assert caught.value.code == code


def test_join_leave_and_their_refusals() -> None:
    s = join(join(signup(player_limit=2), 1, 10.0), 2, 10.0)
    assert s.players == (1, 2)
    refused("already_joined", lambda: join(s, 1, 10.0))
    refused("full", lambda: join(s, 3, 10.0))
    refused("not_joined", lambda: leave(s, 3))
    back = join(leave(s, 1), 1, 10.0)
    assert back.players == (2, 1)  # a rejoin goes to the end of the list
    assert [e.player for e in seed_order(back.entrants)] == [2, 1]  # equal ratings: sign-up order
    started = start(s)
    refused("leave_started", lambda: leave(started, 1))
    refused("started", lambda: join(started, 3, 1.0))
    refused("started", lambda: start(started))
    assert s.started is False  # the refused steps changed nothing


def test_start_with_too_few_says_why() -> None:
    s = join(join(join(signup(table_size=4), 1, 1.0), 2, 1.0), 3, 1.0)
    with pytest.raises(SignupError, match="4-seat tables needs at least 4 entrants; 3 have"):
        check_start(s)
    check_start(join(join(signup(table_size=4, ai_fill=True), 1, 1.0), 2, 1.0))
    with pytest.raises(SignupError, match="single elimination needs at least 2 entrants; 1"):
        start(join(signup(format=SE), 1, 1.0))


def test_start_with_too_many_rounds_for_the_field() -> None:
    s = signup(table_size=3, rounds=3)
    for p in range(6):
        s = join(s, p, 1.0)
    with pytest.raises(SignupError, match="3 rounds at 3-seat tables need at least 7") as caught:
        start(s)
    assert caught.value.params == {"rounds": 3, "need": 7, "count": 6, "size": 3}
    with pytest.raises(SignupError) as rematch:  # 7 at 3 seats: the 2nd round rematches
        start(join(s, 9, 1.0))
    assert rematch.value.code == "rematch_rounds" and rematch.value.params["fresh"] == 1
    assert start(join(join(join(s, 9, 1.0), 10, 1.0), 11, 1.0)).started  # 9: 4 fresh rounds


def test_rounds_that_would_rematch_are_refused_and_not_the_default() -> None:
    """Issue #47 item 4: 12 players at 6 seats, 8 at 4 and 7 at 3 cannot meet new opponents
    in a second round: by default they play one; asked for two, the start says why."""
    for count, size in ((12, 6), (8, 4), (7, 3)):
        default = TournamentSettings("C", Format.SWISS, table_size=size)
        assert default.rounds_for(count) == 1
        s = Signup(TournamentSettings("C", Format.SWISS, table_size=size, rounds=2))
        for p in range(count):
            s = join(s, p, 1.0)
        with pytest.raises(SignupError) as caught:
            start(s)
        assert caught.value.code == "rematch_rounds"
        assert caught.value.params == {"rounds": 2, "fresh": 1, "count": count, "size": size}
    # where new opponents hold, the default is as before
    assert TournamentSettings("C", Format.SWISS, table_size=4).rounds_for(16) == 2


def test_seeding_by_rating_then_sign_up_order() -> None:
    field = [Entrant(1, 5.0, 0), Entrant(2, 9.0, 1), Entrant(3, 5.0, 2), Entrant(4, 9.0, 3)]
    assert [e.player for e in seed_order(field)] == [2, 4, 1, 3]


def test_every_error_is_a_value_error_with_a_code() -> None:
    assert issubclass(TournamentError, ValueError)
    for cls in (SettingsError, SignupError):
        assert issubclass(cls, TournamentError)
