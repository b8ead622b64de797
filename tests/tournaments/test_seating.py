"""The seating search (bot/tournaments/seating.py) against brute force and a theorem.

"A repeat can be avoided" is tested in two precise forms:
- small fields (up to 10 players): whenever any seating without a repeated pair exists (found by
  listing every seating), the search returns one, and with equal tables it returns the first in
  rank order;
- any field up to 64: when every player has met at most k - 1 of the others, k being the number
  of tables, a seating without repeats exists (Hajnal–Szemerédi: a graph of maximum degree D has
  an equitable colouring with any k >= D + 1 colours, the colour classes being the tables), and
  the search finds one.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from itertools import combinations

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.tournaments.seating import repeats, seat
from bot.tournaments.swiss import table_sizes

FAST = settings(max_examples=60, deadline=None)


def random_met(count: int, density: float, rng: random.Random, max_degree: int) -> list[int]:
    met = [0] * count
    pairs = [(a, b) for a in range(count) for b in range(a + 1, count)]
    rng.shuffle(pairs)
    for a, b in pairs:
        if rng.random() < density and max(met[a].bit_count(), met[b].bit_count()) < max_degree:
            met[a] |= 1 << b
            met[b] |= 1 << a
    return met


def all_seatings(players: Sequence[int], sizes: Sequence[int]) -> Iterator[list[tuple[int, ...]]]:
    """Every partition of ``players`` into tables of ``sizes`` (a multiset), tables listed by
    their best player, each table in rank order."""
    if not players:
        yield []
        return
    head, rest = players[0], players[1:]
    for size in sorted(set(sizes), reverse=True):
        left = list(sizes)
        left.remove(size)
        for others in combinations(rest, size - 1):
            remaining = [p for p in rest if p not in others]
            for tail in all_seatings(remaining, left):
                yield [(head, *others), *tail]


def check_partition(tables: list[list[int]], sizes: Sequence[int]) -> None:
    assert sorted(p for t in tables for p in t) == list(range(sum(sizes)))
    assert sorted(len(t) for t in tables) == sorted(sizes)


def check_swap_stable(tables: list[list[int]], met: Sequence[int]) -> None:
    """No better-ranked player at a later table could trade places with a player at an earlier
    table without adding a repeated pair (the seating respects the ranking)."""
    before = repeats(tables, met)
    for i, t in enumerate(tables):
        for u in tables[i + 1 :]:
            for a in t:
                for b in u:
                    if b < a:
                        t2 = [b if p == a else p for p in t]
                        u2 = [a if p == b else p for p in u]
                        swapped = [t2 if x is t else u2 if x is u else x for x in tables]
                        assert repeats(swapped, met) > before, (a, b, tables)


def seated_field(
    count: int, n: int, ai_fill: bool, density: float, seed: int, *, sparse: bool
) -> tuple[list[int], list[int], list[list[int]]] | None:
    """Tables for ``count`` entrants at ``n`` seats, a random history of who met whom (each
    player having met anyone, or with ``sparse`` fewer players than there are tables), and the
    seating of it, checked to be a partition; None if nobody can sit."""
    sizes, _ = table_sizes(count, n, ai_fill)
    if not sizes:
        return None
    m = sum(sizes)
    met = random_met(m, density, random.Random(seed), len(sizes) - 1 if sparse else m)
    tables = seat(sizes, met)
    check_partition(tables, sizes)
    return sizes, met, tables


@FAST
@given(
    st.integers(2, 10), st.integers(2, 6), st.booleans(), st.floats(0, 0.7), st.integers(0, 2**32)
)
def test_small_fields_no_repeat_whenever_one_exists(
    count: int, n: int, ai_fill: bool, density: float, seed: int
) -> None:
    seated = seated_field(count, n, ai_fill, density, seed, sparse=False)
    if seated is None:
        return
    sizes, met, tables = seated
    m = sum(sizes)
    clean = [s for s in all_seatings(range(m), sizes) if repeats(s, met) == 0]
    if clean:
        assert repeats(tables, met) == 0
        if len(set(sizes)) == 1:
            assert [tuple(t) for t in tables] == min(clean)
    check_swap_stable(tables, met)


@settings(max_examples=80, deadline=None)
@given(
    st.integers(2, 64), st.integers(2, 6), st.booleans(), st.floats(0.1, 1.0), st.integers(0, 2**32)
)
def test_no_repeat_when_every_player_met_fewer_than_the_tables(
    count: int, n: int, ai_fill: bool, density: float, seed: int
) -> None:
    seated = seated_field(count, n, ai_fill, density, seed, sparse=True)
    if seated is None:
        return
    _, met, tables = seated
    assert repeats(tables, met) == 0
    check_swap_stable(tables, met)


@FAST
@given(st.integers(2, 40), st.integers(2, 6), st.floats(0.3, 1.0), st.integers(0, 2**32))
def test_dense_history_still_seats_everyone_in_rank_order(
    count: int, n: int, density: float, seed: int
) -> None:
    # Past the point where repeats can be avoided: a valid seating, ranked as well as it can be.
    sizes, _ = table_sizes(count, n, True)
    m = sum(sizes)
    met = random_met(m, density, random.Random(seed), m)
    tables = seat(sizes, met)
    check_partition(tables, sizes)
    check_swap_stable(tables, met)


def test_first_round_is_filled_top_down() -> None:
    assert seat([3, 3, 3], [0] * 9) == [[0, 1, 2], [3, 4, 5], [6, 7, 8]]


def test_a_player_floats_down_only_as_far_as_a_repeat_forces() -> None:
    met = [0] * 4
    met[0] |= 1 << 1
    met[1] |= 1 << 0
    # 0 and 1 met: 0 sits with 2 (the best they have not met), 1 with 3.
    assert seat([2, 2], met) == [[0, 2], [1, 3]]
