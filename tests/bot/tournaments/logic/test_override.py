"""The organiser's result of a table (issue #30 control 4): a walkover or a forfeit decides the
match instead of its games, in the standings and in a bracket."""

from __future__ import annotations

from fractions import Fraction

import pytest

from bot.tournaments.logic import (
    Entrant,
    MatchLength,
    Override,
    OverrideKind,
    Pairing,
    Place,
    PlayedGame,
    ResultError,
    SeatedTable,
    new_bracket,
    replay_bracket,
    rounds_from_games,
    standings,
)

A, B, C, D = 11, 12, 13, 14
WIN, FORFEIT = OverrideKind.WINNER, OverrideKind.FORFEIT


def test_a_walkover_gives_first_place_and_the_others_share_the_rest() -> None:
    assert Override(1, 1, WIN, B).places((A, B, None, C)) == (
        Place(2, 4), Place(1, 1), Place(2, 4), Place(2, 4),
    )  # fmt: skip
    assert Override(1, 1, WIN, B).winner((A, B, None)) == B


def test_a_forfeit_gives_last_place_and_the_others_share_the_rest() -> None:
    assert Override(1, 1, FORFEIT, A).places((A, B, C)) == (Place(3, 3), Place(1, 2), Place(1, 2))
    assert Override(1, 1, FORFEIT, A).winner((A, B, C)) is None  # first place shared
    assert Override(1, 1, FORFEIT, A).winner((A, B)) == B  # at 2 seats: the other wins


def test_an_override_names_a_player_of_its_table() -> None:
    with pytest.raises(ResultError) as err:
        Override(1, 1, WIN, D).places((A, B))
    assert err.value.code == "override_seat"


def test_the_override_decides_the_match_whatever_its_games_said() -> None:
    """A played game where A beat B, then the organiser's walkover for B: B's match, and a
    match with no game at all counts once overridden."""
    pairing = Pairing(1, (SeatedTable(1, (A, B)), SeatedTable(2, (C, D))))
    games = [PlayedGame(1, 1, (A, B), (0,), 1)]  # A out first: B the Durak
    length = MatchLength.games(3)  # one game of three: not over by its games
    (open_record,) = rounds_from_games([pairing], games, length)
    assert open_record.pending_tables() == (1, 2)
    overrides = {(1, 1): Override(1, 1, WIN, B), (1, 2): Override(1, 2, FORFEIT, D)}
    (record,) = rounds_from_games([pairing], games, length, overrides)
    assert record.complete
    st = standings([Entrant(p, 0.0, p) for p in (A, B, C, D)], 2, [record])
    points = {r.player: r.points for r in st.rows}
    assert points == {A: 0, B: 1, C: 1, D: 0}
    assert {r.player for r in st.rows if r.rank == 1} == {B, C}
    assert all(r.points == Fraction(int(r.points)) for r in st.rows)


def test_a_bracket_goes_on_with_the_overrides_winner() -> None:
    entrants = [Entrant(p, float(10 - i), i) for i, p in enumerate((A, B, C, D))]
    b = new_bracket(entrants)
    (m1, m2) = b.matches(1)
    assert None not in m1.players and None not in m2.players
    loser = m1.players[0]
    assert loser is not None
    length = MatchLength.games(1)
    events: list[PlayedGame | Override] = [Override(1, 1, FORFEIT, loser)]
    replayed = replay_bracket(entrants, events, length)
    assert replayed.matches(1)[0].winner == m1.players[1]
    # a game of that match recorded after it (the table's last game) changes nothing
    late = PlayedGame(1, 1, m1.players, (1,), 0)
    assert replay_bracket(entrants, [*events, late], length) == replayed
