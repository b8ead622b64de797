"""The seating search (bot/tournaments/logic/seating.py) against brute force and a theorem.

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

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from bot.tournaments.logic.fresh import table_sizes
from bot.tournaments.logic.seating import repeats, seat

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


#: A field to seat: the sizes of its tables, and who met whom (bit masks, by rank).
Field = tuple[list[int], list[int]]


@st.composite
def fields(
    draw: st.DrawFn,
    max_count: int,
    density: st.SearchStrategy[float],
    *,
    ai_fill: bool | None = None,
    sparse: bool = False,
) -> Field:
    """Tables for 2..``max_count`` entrants at 2..6 seats, and a random history of who met whom
    (each player having met anyone, or with ``sparse`` fewer players than there are tables); AI
    seats fill the tables or not as ``ai_fill`` says (None: either). A field where nobody can sit
    is not drawn."""
    fill = draw(st.booleans()) if ai_fill is None else ai_fill
    sizes, _ = table_sizes(draw(st.integers(2, max_count)), draw(st.integers(2, 6)), fill)
    assume(sizes)
    m = sum(sizes)
    rng = random.Random(draw(st.integers(0, 2**32)))
    return sizes, random_met(m, draw(density), rng, len(sizes) - 1 if sparse else m)


def seated(sizes: list[int], met: list[int]) -> list[list[int]]:
    """The search's seating, checked to be a partition into tables of ``sizes``."""
    tables = seat(sizes, met)
    check_partition(tables, sizes)
    return tables


@FAST
@given(fields(10, st.floats(0, 0.7)))
def test_small_fields_no_repeat_whenever_one_exists(field: Field) -> None:
    sizes, met = field
    tables = seated(sizes, met)
    clean = [s for s in all_seatings(range(sum(sizes)), sizes) if repeats(s, met) == 0]
    if clean:
        assert repeats(tables, met) == 0
        if len(set(sizes)) == 1:
            assert [tuple(t) for t in tables] == min(clean)
    check_swap_stable(tables, met)


@settings(max_examples=80, deadline=None)
@given(fields(64, st.floats(0.1, 1.0), sparse=True))
def test_no_repeat_when_every_player_met_fewer_than_the_tables(field: Field) -> None:
    sizes, met = field
    tables = seated(sizes, met)
    assert repeats(tables, met) == 0
    check_swap_stable(tables, met)


@FAST
@given(fields(40, st.floats(0.3, 1.0), ai_fill=True))
def test_dense_history_still_seats_everyone_in_rank_order(field: Field) -> None:
    # Past the point where repeats can be avoided: a valid seating, ranked as well as it can be.
    sizes, met = field
    check_swap_stable(seated(sizes, met), met)


def test_first_round_is_filled_top_down() -> None:
    assert seat([3, 3, 3], [0] * 9) == [[0, 1, 2], [3, 4, 5], [6, 7, 8]]


def test_a_player_floats_down_only_as_far_as_a_repeat_forces() -> None:
    met = [0] * 4
    met[0] |= 1 << 1
    met[1] |= 1 << 0
    # 0 and 1 met: 0 sits with 2 (the best they have not met), 1 with 3.
    assert seat([2, 2], met) == [[0, 2], [1, 3]]
