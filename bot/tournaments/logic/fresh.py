"""How many Swiss rounds can seat every player with new opponents only (issue #47 item 4):
12 players at 6-seat tables cannot have a second round without rematches (two tables of six
cannot be reshuffled so that nobody meets a tablemate again), nor 8 at 4 seats, nor 7 at 3.

The count is the pairing's own seating (:func:`~bot.tournaments.logic.seating.seat`, an
exhaustive search for a round without a repeated pair) run ahead round after round from a field
whose results are all equal, with the byes given as the pairing gives them. At 2-seat tables a
round without repeats exists for n - 1 rounds (a round robin's schedule), so the bound of
:meth:`TournamentSettings.max_rounds` is kept there and nothing is run.

>>> fresh_rounds(12, 6, False, 2), fresh_rounds(8, 4, False, 2), fresh_rounds(7, 3, False, 2)
(1, 1, 1)
>>> fresh_rounds(16, 4, False, 5), fresh_rounds(9, 3, False, 4)
(5, 4)
"""

from __future__ import annotations

from functools import cache

from .seating import repeats, seat


def table_sizes(players: int, table_size: int, ai_fill: bool) -> tuple[list[int], int]:
    """The players seated per table (larger first), and how many get a bye."""
    if not ai_fill:
        return [table_size] * (players // table_size), players % table_size
    tables = -(-players // table_size)
    base, extra = divmod(players, tables)
    return [base + 1] * extra + [base] * (tables - extra), 0


@cache
def fresh_rounds(players: int, table_size: int, ai_fill: bool, wanted: int) -> int:
    """How many of ``wanted`` rounds seat ``players`` without anyone meeting a tablemate of
    an earlier round (see the module's text); at least 1."""
    if table_size == 2 or players < 2:
        return wanted
    met = [0] * players
    byes_had = [0] * players
    for rnd in range(1, wanted + 1):
        sizes, bye_count = table_sizes(players, table_size, ai_fill)
        # the pairing's byes: the fewest byes so far, the lowest ranked of them
        byes = set(sorted(range(players), key=lambda p: (byes_had[p], -p))[:bye_count])
        seated = [p for p in range(players) if p not in byes]
        index = {p: i for i, p in enumerate(seated)}
        local = [sum(1 << index[q] for q in index if met[p] >> q & 1) for p in seated]
        tables = seat(sizes, local)
        if repeats(tables, local):
            return max(1, rnd - 1)
        for table in tables:
            mask = sum(1 << seated[i] for i in table)
            for i in table:
                met[seated[i]] |= mask & ~(1 << seated[i])
        for p in byes:
            byes_had[p] += 1
    return wanted
