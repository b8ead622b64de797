"""Round robin (issue #30): every pair of a small field (3 to 8) meets once at 2-seat tables.

The circle method: the players in seed order round a table, the first fixed, the others
turning one place each round; each round pairs the first with the last, the second with the
one before last, and so on. With an odd field an empty place joins the circle, and whoever
faces it has the bye. A withdrawn player's remaining opponents have a bye where they would
have met them. The schedule is a function of the seeding alone, so it is the same after a
restart.

>>> [t.seats for t in round_robin_round([1, 2, 3, 4], 1).tables]
[(1, 4), (2, 3)]
>>> r = round_robin_round([1, 2, 3], 2)
>>> [t.seats for t in r.tables], r.byes
([(1, 3)], (2,))
"""

from __future__ import annotations

from collections.abc import Sequence

from .rounds import Pairing, SeatedTable


def round_robin_round(
    players: Sequence[int], number: int, withdrawn: frozenset[int] = frozenset()
) -> Pairing:
    """Round ``number`` (1-based) of the round robin of ``players`` (seed order)."""
    circle: list[int | None] = list(players)
    if len(circle) % 2:
        circle.append(None)
    rest = circle[1:]
    turn = (number - 1) % len(rest)
    order = [circle[0], *rest[len(rest) - turn :], *rest[: len(rest) - turn]]
    half = len(order) // 2
    tables: list[SeatedTable] = []
    byes: list[int] = []
    for a, b in zip(order[:half], reversed(order[half:]), strict=True):
        if a is None or b is None or a in withdrawn or b in withdrawn:
            byes.extend(p for p in (a, b) if p is not None and p not in withdrawn)
            continue
        tables.append(SeatedTable(len(tables) + 1, (a, b)))
    return Pairing(number, tuple(tables), tuple(sorted(byes)))
