"""Round robin (issue #30): the invariants of every pairing (each active player seated once
per round, or given the bye; tables numbered from 1; nobody withdrawn seated) and the format's
own: every pair meets exactly once, and with an odd field everyone has exactly one bye."""

from __future__ import annotations

from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.tournaments.logic.configuration import Format, TournamentSettings
from bot.tournaments.logic.errors import SettingsError
from bot.tournaments.logic.round_robin import round_robin_round


def schedule(n: int, withdrawn: frozenset[int] = frozenset()) -> list[list[tuple[int, int]]]:
    rr = TournamentSettings("RR", Format.ROUND_ROBIN, player_limit=8)
    players = list(range(1, n + 1))
    rounds = []
    for number in range(1, rr.rounds_for(n) + 1):
        p = round_robin_round(players, number, withdrawn)
        seated = [x for t in p.tables for x in t.seats if x is not None]
        assert len(seated) == 2 * len(p.tables)  # no AI seat in a round robin
        active = [x for x in players if x not in withdrawn]
        assert sorted(seated + list(p.byes)) == active  # each active player once
        assert [t.number for t in p.tables] == list(range(1, len(p.tables) + 1))
        assert p.round == number
        pairs = []
        for t in p.tables:
            a, b = t.seats
            assert a is not None and b is not None  # no AI seat in a round robin
            pairs.append((min(a, b), max(a, b)))
        rounds.append(pairs)
    return rounds


@given(st.integers(3, 8))
@settings(max_examples=20, deadline=None)
def test_every_pair_meets_exactly_once(n: int) -> None:
    rounds = schedule(n)
    met = [pair for r in rounds for pair in r]
    assert sorted(met) == list(combinations(range(1, n + 1), 2))
    assert len(rounds) == (n if n % 2 else n - 1)
    if n % 2:  # a bye each: n rounds, n - 1 players seated in each
        assert all(len(r) == (n - 1) // 2 for r in rounds)


@given(st.integers(3, 8), st.data())
@settings(max_examples=40, deadline=None)
def test_a_withdrawn_player_is_seated_no_more(n: int, data: st.DataObject) -> None:
    gone = frozenset(data.draw(st.sets(st.integers(1, n), max_size=n - 2)))
    for r in schedule(n, gone):
        assert not any(set(pair) & gone for pair in r)


def test_round_robin_settings_are_checked() -> None:
    with pytest.raises(SettingsError, match="2-seat"):
        TournamentSettings("RR", Format.ROUND_ROBIN, table_size=4, player_limit=8)
    with pytest.raises(SettingsError, match="rounds"):
        TournamentSettings("RR", Format.ROUND_ROBIN, rounds=3, player_limit=8)
    with pytest.raises(SettingsError, match="3 to 8"):
        TournamentSettings("RR", Format.ROUND_ROBIN, player_limit=9)
    rr = TournamentSettings("RR", Format.ROUND_ROBIN, player_limit=8)
    assert (rr.min_entrants(), rr.rounds_for(6), rr.rounds_for(7)) == (3, 5, 7)
