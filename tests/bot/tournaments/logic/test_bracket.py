"""Single elimination: the bracket is a valid tree, byes go to distinct top seeds, seeds 1 and 2
can only meet in the final, and winners advance to a single champion."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.tournaments.logic import MatchLength, ResultError, SignupError, bracket
from bot.tournaments.logic.results import Place, PlayedGame, TableResult
from bot.tournaments.logic.signup import Entrant, seed_order


def field(count: int, rng: random.Random) -> list[Entrant]:
    return [Entrant(500 + i, float(rng.randint(0, 3)), i) for i in range(count)]


def check_tree(b: bracket.Bracket, seeds: tuple[int, ...]) -> None:
    """Leaves: every seed once; each round half as many matches as the one before; every match
    is fed by two matches of the round before (or two leaves), and feeds exactly one match."""
    assert b.size >= len(seeds) > b.size // 2
    assert sorted(bracket.slot_seeds(b.size)) == list(range(1, b.size + 1))
    rounds = [b.matches(r) for r in range(1, b.rounds + 1)]
    assert [len(matches) for matches in rounds] == [b.size >> r for r in range(1, b.rounds + 1)]
    for r, matches in enumerate(rounds):
        seen = [p for m in matches for p in m.players if p is not None]
        assert len(seen) == len(set(seen))  # nobody twice in a round
        for m in matches:
            assert m.winner is None or m.winner in m.players
            if r:
                feeders = rounds[r - 1][2 * m.number - 2 : 2 * m.number]
                assert m.players == tuple(f.winner for f in feeders)


@settings(max_examples=60, deadline=None)
@given(st.integers(2, 64), st.integers(0, 2**32))
@pytest.mark.slow
def test_bracket_properties(count: int, seed: int) -> None:
    rng = random.Random(seed)
    entrants = field(count, rng)
    seeds = tuple(e.player for e in seed_order(entrants))
    b = bracket.new_bracket(entrants)
    check_tree(b, seeds)
    byes = [m for m in b.matches(1) if None in m.players]
    # Byes: exactly size - count of them, to the top seeds, each to a different player.
    assert len(byes) == b.size - count
    assert sorted(seeds.index(m.winner) + 1 for m in byes if m.winner is not None) == list(
        range(1, b.size - count + 1)
    )
    met_in: int | None = None
    while bracket.pending(b):
        m = rng.choice(bracket.pending(b))
        a, c = m.players
        assert a is not None and c is not None
        if {a, c} == {seeds[0], seeds[1]}:
            met_in = m.round
        b = bracket.record_winner(b, m.round, m.number, rng.choice((a, c)))
        check_tree(b, seeds)
    assert met_in in (None, b.rounds)  # seeds 1 and 2 only ever meet in the final
    champion = b.champion()
    assert champion in seeds
    placed = bracket.places(b)
    assert sorted(p for p, _ in placed) == sorted(seeds)
    assert placed[0] == (champion, Place(1, 1))
    for _, place in placed:
        assert sum(q == place for _, q in placed) == place.last - place.first + 1


def test_seeds_in_bracket_order() -> None:
    assert bracket.slot_seeds(8) == (1, 8, 4, 5, 2, 7, 3, 6)
    two = bracket.new_bracket([Entrant(1, 0.0, 0), Entrant(2, 0.0, 1)])
    assert [m.players for m in bracket.pending(two)] == [(1, 2)]
    won = bracket.record_winner(two, 1, 1, 2)
    assert bracket.places(won) == ((2, Place(1, 1)), (1, Place(2, 2)))


def test_bad_results_are_refused_and_change_nothing() -> None:
    b = bracket.new_bracket([Entrant(p, float(-p), p) for p in range(1, 6)])
    for args, code in [
        ((1, 1, 1), "decided"),  # a bye
        ((2, 1, 1), "not_ready"),  # waits for round 1 match 2
        ((1, 2, 1), "not_in_match"),
        ((1, 9, 4), "no_match"),
        ((4, 1, 1), "no_round"),
    ]:
        with pytest.raises(ResultError) as caught:
            bracket.record_winner(b, *args)
        assert caught.value.code == code
    done = bracket.record_winner(b, 1, 2, 4)
    with pytest.raises(ResultError, match="already decided"):
        bracket.record_winner(done, 1, 2, 5)
    assert [m.players for m in bracket.pending(b)] == [(4, 5), (2, 3)]
    with pytest.raises(SignupError):
        bracket.new_bracket([Entrant(1, 0.0, 0)])


def test_a_withdrawn_player_forfeits() -> None:
    b = bracket.new_bracket([Entrant(p, float(-p), p) for p in range(1, 5)])  # 1v4, 2v3
    b = bracket.withdraw(b, 4)
    assert b.matches(1)[0].winner == 1
    b = bracket.withdraw(b, 1)  # 1 would meet the winner of 2v3 in the final
    assert b.champion() is None
    b = bracket.record_winner(b, 1, 2, 3)
    assert b.champion() == 3
    with pytest.raises(ResultError, match="not in this bracket"):
        bracket.withdraw(b, 99)


@settings(max_examples=40, deadline=None)
@given(
    st.integers(2, 40),
    st.integers(0, 2**32),
    st.sampled_from([MatchLength.games(1), MatchLength.games(2), MatchLength.losses(2)]),
)
def test_replay_from_stored_games_equals_the_bracket_built_step_by_step(
    count: int, seed: int, length: MatchLength
) -> None:
    rng = random.Random(seed)
    entrants = field(count, rng)
    b = bracket.new_bracket(entrants)
    events: list[PlayedGame | bracket.Withdrawal] = []
    while bracket.pending(b):
        m = rng.choice(bracket.pending(b))
        if rng.random() < 0.05:
            quitter = rng.choice([p for p in m.players if p is not None])
            events.append(bracket.Withdrawal(quitter))
            b = bracket.withdraw(b, quitter)
            continue
        seats = m.players
        games: list[PlayedGame] = []
        while not games or not TableResult.of(games).is_over(length, decisive=True):
            order = rng.sample((0, 1), 2)
            draw = rng.random() < 0.2  # R20
            games.append(
                PlayedGame(
                    m.round,
                    m.number,
                    seats,
                    tuple(order) if draw else (order[0],),
                    None if draw else order[1],
                )
            )
        events.extend(games)
        b = bracket.record_result(b, TableResult.of(games), length)
    assert b.champion() is not None
    assert bracket.replay_bracket(entrants, events, length) == b


def test_record_result_needs_a_decided_match_of_the_bracket() -> None:
    b = bracket.new_bracket([Entrant(1, 0.0, 0), Entrant(2, 0.0, 1)])
    draw = TableResult.of([PlayedGame(1, 1, (1, 2), (0, 1), None)])
    with pytest.raises(ResultError, match="not decided yet"):
        bracket.record_result(b, draw, MatchLength.games(1))
    elsewhere = TableResult.of([PlayedGame(1, 2, (1, 2), (0,), 1)])
    with pytest.raises(ResultError, match="not played by these seats"):
        bracket.record_result(b, elsewhere, MatchLength.games(1))
    won = TableResult.of([PlayedGame(1, 1, (1, 2), (1,), 0)])
    assert bracket.record_result(b, won, MatchLength.games(1)).champion() == 2
