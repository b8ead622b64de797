# Compiled with mypyc at install (.build/backend.py): after an edit its group runs as Python
# until the next install (durak_core/compiled_sources.py).
"""Hard's comparison of its root candidates (:mod:`durak_core.ai.hard`): sequential halving
of the candidates still competing, and the paired gain over Normal's choice that decides.

Candidate 0 is Normal's choice: the reference every other candidate is compared with, played
on the same determinization (common random numbers), so it is never halved away.
"""

from __future__ import annotations

import math


def halve(alive: list[int], total: list[float], rounds: list[int]) -> list[int]:
    """The better half of the ``alive`` candidates by mean result (at least two), with
    Normal's choice kept as the reference of the comparison."""
    alive = sorted(alive, key=lambda i: total[i] / rounds[i], reverse=True)
    keep = alive[: max(2, len(alive) // 2)]
    if 0 not in keep:
        keep[-1] = 0
    return sorted(keep)


def clear_gain(rounds: list[int], diff_sum: list[float], diff_sq: list[float]) -> int:
    """The candidate with the largest paired gain over Normal's choice (0), if that gain is
    clear (over one standard error); else 0."""
    best = 0
    best_gain = 0.0
    for i in range(1, len(rounds)):
        m = rounds[i]
        if m < 4:
            continue
        mean = diff_sum[i] / m
        var = max(diff_sq[i] / m - mean * mean, 1e-9)
        if mean > math.sqrt(var / m) and mean > best_gain:
            best, best_gain = i, mean
    return best


def halvings(k: int) -> int:
    """How many halvings take ``k`` root candidates down to the last two.

    >>> [halvings(k) for k in range(1, 7)]
    [0, 0, 1, 1, 1, 2]
    """
    h = 0
    while k > 2:
        k, h = max(2, k // 2), h + 1
    return h
