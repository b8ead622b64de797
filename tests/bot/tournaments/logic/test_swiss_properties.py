"""Whole Swiss tournaments with random results, checked round by round: every active player
seated once, byes to different players, no repeat while it can be avoided, score groups
respected, and standings equal to a recomputation from the stored games.

"Score groups respected", precisely: when a player sits at an earlier (higher) table than a
player with more points, swapping the two would seat someone with an opponent met before — the
only reason a lower score group may take a seat a higher one could have had.

"No repeat while it can be avoided", here: whenever each player to be seated has met at most
k - 1 of the others (k tables), a seating without repeats exists (Hajnal–Szemerédi) and the
round has none; tests/bot/tournaments/logic/test_seating.py checks the exact form on small fields.
"""

from __future__ import annotations

import random
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.tournaments.logic.configuration import Format, MatchLength, TournamentSettings
from bot.tournaments.logic.results import PlayedGame, bye_points
from bot.tournaments.logic.rounds import Pairing, RoundRecord, rounds_from_games
from bot.tournaments.logic.seating import repeats
from bot.tournaments.logic.signup import Entrant
from bot.tournaments.logic.standings import Standings, standings
from bot.tournaments.logic.swiss import met_masks, pair_round
from tests.bot.tournaments.logic.simulate import entrants, play_round


def check_round(
    s: TournamentSettings,
    field: list[Entrant],
    history: list[RoundRecord],
    p: Pairing,
    withdrawn: set[int],
    before: Standings,
) -> None:
    n = s.table_size
    active = [e.player for e in field if e.player not in withdrawn]
    assert sorted(p.players) == sorted(active)  # each active player once, nobody else
    humans = [len(t.players) for t in p.tables]
    if s.ai_fill:
        assert not p.byes and max(humans) - min(humans) <= 1
        assert all(t.seats == (*t.players, *(None,) * (n - len(t.players))) for t in p.tables)
    else:
        assert humans == [n] * len(p.tables) and len(p.byes) == len(active) % n
    had = {r.player: r.byes for r in before.rows if r.player not in withdrawn}
    for b in p.byes:  # nobody gets a second bye while someone active has had none
        assert had[b] == min(had.values())
    order = [q for t in p.tables for q in t.players]
    index = {q: i for i, q in enumerate(order)}
    met = met_masks(order, history)
    tables = [[index[q] for q in t.players] for t in p.tables]
    found = repeats(tables, met)
    if max(m.bit_count() for m in met) + 1 <= len(tables):
        assert found == 0
    points = {r.player: r.points for r in before.rows}
    for i, t in enumerate(tables):
        for u in tables[i + 1 :]:
            for a in t:
                for b in u:
                    if points[order[b]] > points[order[a]]:
                        t2 = [b if x == a else x for x in t]
                        u2 = [a if x == b else x for x in u]
                        swapped = [t2 if x is t else u2 if x is u else x for x in tables]
                        assert repeats(swapped, met) > found


LENGTHS = [MatchLength.games(1), MatchLength.games(3), MatchLength.losses(2)]


@settings(max_examples=40, deadline=None)
@given(
    st.integers(2, 64),
    st.integers(2, 6),
    st.booleans(),
    st.integers(1, 6),
    st.integers(0, 2**32),
    st.booleans(),
    st.sampled_from(LENGTHS),
)
@pytest.mark.slow
def test_swiss_rounds(
    count: int, n: int, ai_fill: bool, rounds: int, seed: int, withdraw: bool, length: MatchLength
) -> None:
    if count < (2 if ai_fill else n):
        return
    s = TournamentSettings(
        "P",
        Format.SWISS,
        table_size=n,
        ai_fill=ai_fill,
        rounds=min(
            rounds,
            TournamentSettings("P", Format.SWISS, table_size=n, ai_fill=True).max_rounds(count),
        ),
    )
    rng = random.Random(seed)
    field = entrants(count, rng)
    history: list[RoundRecord] = []
    withdrawn: set[int] = set()
    for _ in range(s.rounds_for(count)):
        if withdraw and history and len(field) - len(withdrawn) > (2 if ai_fill else n):
            withdrawn.add(rng.choice([e.player for e in field if e.player not in withdrawn]))
        before = standings(field, n, history)
        p = pair_round(s, field, history, frozenset(withdrawn))
        check_round(s, field, history, p, withdrawn, before)
        history.append(play_round(p, rng, length))
    after = standings(field, n, history)
    # Points: every table hands out n(n-1)/2, AI seats' share left out, and each bye its own.
    ai_points = sum(
        sl.points for line in after.lines for t in line.tables for sl in t.seats if sl.seat is None
    )
    byes = sum(len(r.pairing.byes) for r in history)
    tables = sum(len(r.pairing.tables) for r in history)
    assert sum(r.points for r in after.rows) == (
        tables * Fraction(n * (n - 1), 2) - ai_points + byes * bye_points(n)
    )
    # Standings recomputed from the stored games, the tables in any order (each table's games
    # in the order played), equal the shown ones.
    tables_games = [list(t.games) for r in history for t in r.results]
    rng.shuffle(tables_games)
    games: list[PlayedGame] = [g for t in tables_games for g in t]
    stored = rounds_from_games([r.pairing for r in history], games, length)
    assert stored == tuple(history)
    assert standings(field, n, stored) == after
    assert [line.round for line in after.lines] == list(range(1, len(history) + 1))


@pytest.mark.slow
def test_a_full_field_of_64_at_every_table_size() -> None:
    # The largest field, 5 rounds (as in benchmarks/tournament.py, issue #18) at every table
    # size: the search stays within its step budget, so this stays quick.
    for n in range(2, 7):
        s = TournamentSettings("64", Format.SWISS, table_size=n, rounds=5)
        rng = random.Random(n)
        field = entrants(64, rng)
        history: list[RoundRecord] = []
        for _ in range(5):
            before = standings(field, n, history)
            p = pair_round(s, field, history)
            check_round(s, field, history, p, set(), before)
            history.append(play_round(p, rng))
        assert len(standings(field, n, history).rows) == 64


@given(st.integers(2, 40), st.booleans(), st.randoms(use_true_random=False))
@settings(max_examples=60, deadline=None)
@pytest.mark.slow
def test_round_one_pairs_the_top_half_against_the_bottom_half(
    count: int, ai_fill: bool, rng: random.Random
) -> None:
    """Issue #30, the chess Swiss at 2-seat tables: seed i meets seed i + n/2 in round 1 (the
    lowest seed has the bye, or an AI seat, when the field is odd)."""
    s = TournamentSettings("C", Format.SWISS, rounds=1, ai_fill=ai_fill)
    field = [Entrant(p, rng.uniform(0, 50), p) for p in range(1, count + 1)]
    seeds = [e.player for e in sorted(field, key=lambda e: (-e.rating, e.order))]
    p = pair_round(s, field, [])
    pairs = [t.seats for t in p.tables]
    half = count // 2
    expected: list[tuple[int | None, ...]] = [(seeds[i], seeds[i + half]) for i in range(half)]
    if count % 2 and ai_fill:
        expected.append((seeds[-1], None))
    assert pairs == expected
    assert p.byes == (() if ai_fill or count % 2 == 0 else (seeds[-1],))
