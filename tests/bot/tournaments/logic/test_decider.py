"""The deciding game (issue #30 control 5): joint leaders after every tie-break play one more
table, whose places order them; it adds no points and changes no tie-break."""

from __future__ import annotations

from bot.tournaments.logic import (
    Entrant,
    MatchLength,
    Override,
    OverrideKind,
    Pairing,
    PlayedGame,
    SeatedTable,
    decider,
    rounds_from_games,
    standings,
)

A, B, C, D = 11, 12, 13, 14
FIELD = [Entrant(p, 0.0, i) for i, p in enumerate((A, B, C, D))]


def one_round() -> tuple[Pairing, list[PlayedGame]]:
    """A beats B, C beats D: A and C equal on points and every tie-break."""
    pairing = Pairing(1, (SeatedTable(1, (A, B)), SeatedTable(2, (C, D))))
    games = [PlayedGame(1, 1, (A, B), (0,), 1), PlayedGame(1, 2, (C, D), (0,), 1)]
    return pairing, games


def test_joint_leaders_after_every_tie_break_play_a_deciding_game() -> None:
    pairing, games = one_round()
    st = standings(FIELD, 2, rounds_from_games([pairing], games, MatchLength.games(1)))
    assert decider.joint_leaders(st) == (A, C)
    assert decider.joint_leaders(st, withdrawn={C}) == ()  # one still in: no game to play
    deciding = decider.decider_pairing(2, (C, A), FIELD)
    assert deciding == Pairing(2, (SeatedTable(1, (A, C)),))  # seated by seed


def test_a_drawn_deciding_game_at_two_seats_is_played_again() -> None:
    deciding = Pairing(2, (SeatedTable(1, (A, C)),))
    draw = PlayedGame(2, 1, (A, C), (0, 1), None)
    assert decider.decider_result(deciding, [draw]) is None  # R20: nobody lost; play again
    win = PlayedGame(2, 1, (A, C), (1,), 0)  # C out first: A the Durak
    result = decider.decider_result(deciding, [draw, win])
    assert result is not None
    pairing, games = one_round()
    st = standings(FIELD, 2, rounds_from_games([pairing], games, MatchLength.games(1)))
    final = decider.decided_standings(st, result)
    assert [(r.player, r.rank) for r in final.rows][:2] == [(C, 1), (A, 2)]
    assert [r.points for r in final.rows] == [r.points for r in st.rows]  # no points added
    assert final.rows[2:] == st.rows[2:]


def test_the_organiser_may_decide_the_deciding_table() -> None:
    deciding = Pairing(2, (SeatedTable(1, (A, C)),))
    result = decider.decider_result(deciding, [], Override(2, 1, OverrideKind.FORFEIT, C))
    assert result is not None
    pairing, games = one_round()
    st = standings(FIELD, 2, rounds_from_games([pairing], games, MatchLength.games(1)))
    assert decider.decided_standings(st, result).rows[0].player == A


def test_a_sole_leader_plays_no_deciding_game() -> None:
    pairing = Pairing(1, (SeatedTable(1, (A, B, C)),))
    games = [PlayedGame(1, 1, (A, B, C), (0, 2), 1)]
    st = standings(FIELD[:3], 3, rounds_from_games([pairing], games, MatchLength.games(1)))
    assert decider.joint_leaders(st) == ()


def test_a_leader_who_withdraws_from_the_deciding_game_loses_it() -> None:
    deciding = Pairing(2, (SeatedTable(1, (A, C)),))
    assert decider.decider_result(deciding, []) is None
    result = decider.decider_result(deciding, [], withdrawn={A})
    assert result is not None and result.places()[1].first == 1  # C by a walkover


def test_more_joint_leaders_than_a_table_seats_stay_joint_champions() -> None:
    pairing, games = one_round()
    st = standings(FIELD, 2, rounds_from_games([pairing], games, MatchLength.games(1)))
    assert decider.joint_leaders(st, most=2) == (A, C)
    assert decider.joint_leaders(st, most=1) == ()  # the rules were checked for fewer seats
