"""Seating players at tables, best first, without repeating opponents while that can be avoided.

Players are numbered by rank (0 is the best) and ``met[p]`` is the bit mask of the players ``p``
has sat with before. The seating is the first one, in rank order, with no repeated pair: table 1
takes the best player and the best players who have not met them or each other, table 2 the best
of the rest, and so on; when a choice leaves the rest impossible to seat, the search backtracks
to the next choice. So a player is only seated below their rank where every better seat would
force a repeat somewhere (the "float" of Swiss pairings). The search is exhaustive within a
budget of steps; when it proves (or, past the budget, cannot show) that no such seating exists,
a greedy seating is improved by swaps that remove repeats, then by swaps that move a better
player to an earlier table without adding one.

Either way the result respects the ranking: trading a player for a better-ranked one from a
later table would always add a repeated pair (tests/bot/tournaments/logic/test_seating.py).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from durak_core.cards import set_bits

STEP_BUDGET: Final = 20_000


class _OutOfBudget(Exception):
    pass


def repeats(tables: Sequence[Sequence[int]], met: Sequence[int]) -> int:
    """How many pairs at the same table have met before."""
    total = 0
    for t in tables:
        mask = sum(1 << p for p in t)
        total += sum((met[p] & mask).bit_count() for p in t)
    return total // 2


def seat(sizes: Sequence[int], met: Sequence[int], budget: int = STEP_BUDGET) -> list[list[int]]:
    """Tables of the given sizes (larger first) for players 0..sum(sizes)-1, each table in rank
    order; ``met[p]`` as above (symmetric)."""
    found = _search(sizes, met, budget)
    tables = found if found is not None else _improve(_greedy(sizes, met), met)
    _order(tables, met)
    return [sorted(t) for t in tables]


def _search(sizes: Sequence[int], met: Sequence[int], budget: int) -> list[list[int]] | None:
    """The first seating with no repeat, in rank order; None if none exists or the budget ran
    out."""
    kinds = sorted(set(sizes), reverse=True)
    counts = [sizes.count(k) for k in kinds]
    tables: list[list[int]] = []
    steps = 0

    def feasible(remaining: int) -> bool:
        # Necessary: everyone left has enough others left they have not met to fill a table.
        smallest = min(k for k, c in zip(kinds, counts, strict=True) if c)
        return all((remaining & ~met[p]).bit_count() >= smallest for p in set_bits(remaining))

    def place(remaining: int) -> bool:
        if not remaining:
            return True
        low = remaining & -remaining
        head, rest = low.bit_length() - 1, remaining ^ low
        for i, size in enumerate(kinds):
            if counts[i]:
                counts[i] -= 1
                if grow([head], rest & ~met[head], size - 1, rest):
                    return True
                counts[i] += 1
        return False

    def grow(members: list[int], cand: int, need: int, rest: int) -> bool:
        nonlocal steps
        if not need:
            remaining = rest & ~sum(1 << p for p in members[1:])
            if remaining and not feasible(remaining):
                return False
            tables.append(members)
            if place(remaining):
                return True
            tables.pop()
            return False
        while cand.bit_count() >= need:
            low = cand & -cand
            cand ^= low
            steps += 1
            if steps > budget:
                raise _OutOfBudget
            c = low.bit_length() - 1
            if grow([*members, c], cand & ~met[c], need - 1, rest):
                return True
        return False

    try:
        return tables if place((1 << sum(sizes)) - 1) else None
    except _OutOfBudget:
        return None


def _greedy(sizes: Sequence[int], met: Sequence[int]) -> list[list[int]]:
    """Table by table: the best free player, then whoever adds the fewest repeats (the better
    ranked on equal terms)."""
    free = list(range(sum(sizes)))
    tables = []
    for size in sizes:
        table = [free.pop(0)]
        mask = 1 << table[0]
        for _ in range(size - 1):
            best = min(free, key=lambda p: ((met[p] & mask).bit_count(), p))
            free.remove(best)
            table.append(best)
            mask |= 1 << best
        tables.append(table)
    return tables


def _swap_delta(t: list[int], a: int, u: list[int], b: int, met: Sequence[int]) -> int:
    """The change in repeats if ``a`` (at ``t``) and ``b`` (at ``u``) trade places."""
    t_rest = sum(1 << p for p in t) & ~(1 << a)
    u_rest = sum(1 << p for p in u) & ~(1 << b)
    return (
        (met[b] & t_rest).bit_count()
        - (met[a] & t_rest).bit_count()
        + (met[a] & u_rest).bit_count()
        - (met[b] & u_rest).bit_count()
    )


def _improve(tables: list[list[int]], met: Sequence[int]) -> list[list[int]]:
    """Swaps that remove repeats, until none does."""
    improved = True
    while improved:
        improved = False
        for i, t in enumerate(tables):
            for u in tables[i + 1 :]:
                for x, a in enumerate(t):
                    for y, b in enumerate(u):
                        if _swap_delta(t, a, u, b, met) < 0:
                            t[x], u[y] = b, a
                            a = b
                            improved = True
    return tables


def _order(tables: list[list[int]], met: Sequence[int]) -> None:
    """Swaps that bring a better player to an earlier table without adding a repeat, until none
    does (each raises sum(rank x table index), so this ends)."""
    moved = True
    while moved:
        moved = False
        for i, t in enumerate(tables):
            for u in tables[i + 1 :]:
                for x in range(len(t)):
                    for y in range(len(u)):
                        a, b = t[x], u[y]
                        if b < a and _swap_delta(t, a, u, b, met) <= 0:
                            t[x], u[y] = b, a
                            moved = True
