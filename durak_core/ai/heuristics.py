# Compiled with mypyc at install (.build/backend.py): after an edit its group runs as Python
# until the next install (durak_core/compiled_sources.py).
"""Card-play heuristics on bitmasks, shared by Easy, Normal and Hard's playouts.

Inputs are plain data (hand mask, table columns, talon size, a :class:`CardTable`), so the same
code serves a real decision (from a view) and a playout step (from a determinized state).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final, Protocol

from ..actions import (
    ATTACK,
    DEFEND,
    EXCHANGE,
    PASS,
    TAKE,
    TRANSFER,
    Action,
    defend_i,
)
from ..cards import SAME_RANK
from ..move_kinds import FREE_PASS_ON
from .cardinfo import CardTable

#: Bits of the kinds that pass the attack on and keep every card (V18's show): the table's.
_FREE_PASS_ON: Final = FREE_PASS_ON


class BeatChance(Protocol):
    """Per card index: the chance the defender can beat that card."""

    def __getitem__(self, card: int, /) -> float: ...


def cover(unbeaten: Sequence[int], hand: int, ct: CardTable) -> list[tuple[int, int]] | None:
    """Beat every card in ``unbeaten`` from ``hand``: strongest attack first, each with the
    cheapest card that beats it and is still free. None when that greedy cover fails."""
    value = ct.value
    free = hand
    out: list[tuple[int, int]] = []
    for a in sorted(unbeaten, key=value.__getitem__, reverse=True):
        m = free & ct.beaters[a]
        if not m:
            return None
        best = -1
        while m:
            low = m & -m
            d = low.bit_length() - 1
            m ^= low
            if best < 0 or value[d] < value[best]:
                best = d
        free &= ~(1 << best)
        out.append((a, best))
    return out


def easy_choice(
    legal: Sequence[Action], hand: int, att: Sequence[int], dfn: Sequence[int], ct: CardTable
) -> Action:
    """Easy (seeds/004): attack low, throw in only cheap plain cards, defend with the smallest
    card that wins, take when that fails; but pass the attack on by showing a trump whenever it
    may (V18: it costs no card)."""
    value = ct.value
    kinds = {a.kind for a in legal}
    for a in legal:
        if a.kind == EXCHANGE:
            return a
    for kind in kinds:
        if _FREE_PASS_ON >> kind & 1:
            return _first(legal, kind)
    if DEFEND in kinds or TAKE in kinds:
        unbeaten = [x for x, d in zip(att, dfn, strict=True) if d < 0]
        for x in unbeaten:  # table order, the smallest winning card each
            options = [a for a in legal if a.kind == DEFEND and a.a == x]
            if not options:
                break
            return min(options, key=lambda a: value[a.c])
        return _first(legal, TAKE)
    attacks = [a for a in legal if a.kind == ATTACK]
    if not att:
        return min(attacks, key=lambda a: (value[a.c], a.c))
    cheap = [a for a in attacks if ct.cheap >> a.c & 1]
    if cheap:
        return min(cheap, key=lambda a: (value[a.c], a.c))
    if PASS in kinds:
        return _first(legal, PASS)
    return min(legal, key=lambda a: (value[a.c], a.code))


def _first(legal: Sequence[Action], kind: int) -> Action:
    for a in legal:
        if a.kind == kind:
            return a
    return legal[0]


def smart_choice(
    legal: Sequence[Action],
    hand: int,
    att: Sequence[int],
    dfn: Sequence[int],
    taken: bool,
    talon: int,
    ct: CardTable,
    p_beat: BeatChance,
    opponents_left: int,
) -> Action:
    """Normal's play: keep trumps while the talon lasts, lead and throw in what the defender
    probably cannot beat (``p_beat`` per card), defend cheaply, and in the endgame (empty
    talon) defend whenever possible and unload cards."""
    kinds = 0
    for a in legal:
        kinds |= 1 << a.kind
    if kinds & (1 << EXCHANGE):  # V8: a higher trump for the lowest one
        return _first(legal, EXCHANGE)
    value = ct.value
    if kinds & (1 << TAKE):
        return _defend(legal, hand, att, dfn, talon, ct, kinds)
    if not att:
        return _open(legal, hand, talon, ct, p_beat, opponents_left)
    # Throwing in (R11, R14) or passing (R15).
    best: Action | None = None
    best_score = 0.0
    for a in legal:
        if a.kind != ATTACK:
            continue
        c = a.c
        strong = ct.strong >> c & 1
        if talon and strong:  # keep trumps while the talon lasts; in the endgame unload all
            continue
        score = value[c] - (0.0 if taken else 8.0 * (1.0 - p_beat[c]))
        if best is None or score < best_score:
            best, best_score = a, score
    if best is not None:
        return best
    if kinds & (1 << PASS):
        return _first(legal, PASS)
    return min(legal, key=lambda a: (value[a.c] if a.kind == ATTACK else 99, a.code))


def _open(
    legal: Sequence[Action],
    hand: int,
    talon: int,
    ct: CardTable,
    p_beat: BeatChance,
    opponents_left: int,
) -> Action:
    value = ct.value
    strong = ct.strong
    best = legal[0]
    best_c = -1
    best_score = 1e9
    endgame = talon == 0
    trump_cost = 12.0 if endgame else 40.0
    pair_gain = 6.0 if endgame else 2.5
    unanswered_gain = 14.0 if endgame else 10.0
    for a in legal:
        if a.kind != ATTACK:
            continue
        c = a.c
        score = float(value[c])
        if strong >> c & 1:
            score += trump_cost
        score -= pair_gain * ((hand & SAME_RANK[c]).bit_count() - 1)
        score -= unanswered_gain * (1.0 - p_beat[c])
        if score < best_score or (score == best_score and c < best_c):
            best, best_c, best_score = a, c, score
    return best


def _defend(
    legal: Sequence[Action],
    hand: int,
    att: Sequence[int],
    dfn: Sequence[int],
    talon: int,
    ct: CardTable,
    kinds: int,
) -> Action:
    value = ct.value
    unbeaten = [x for x, d in zip(att, dfn, strict=True) if d < 0]
    plan = cover(unbeaten, hand, ct)
    if kinds & (1 << TRANSFER):  # V1: pass the attack on with a cheap card rather than spend cards
        transfers = [a for a in legal if a.kind == TRANSFER]
        t = min(transfers, key=lambda a: value[a.c])
        if not talon and hand & (hand - 1) == 0:  # the last card: out of the game (R18)
            return t
        if not ct.strong >> t.c & 1 and (plan is None or talon):
            return t
    if kinds & _FREE_PASS_ON and (plan is None or talon):  # V18: pass it on, keeping every card
        return next(a for a in legal if _FREE_PASS_ON >> a.kind & 1)
    if plan is None:
        return _first(legal, TAKE)
    if talon:
        used = [d for _, d in plan]
        strong_used = [d for d in used if ct.strong >> d & 1]
        if strong_used:
            tops = sum(1 for d in strong_used if ct.top >> d & 1)
            table_value = sum(value[x] for x in att)
            # Keep trumps while the talon lasts: pick up a cheap table rather than spend
            # high trumps on it.
            if (tops and talon >= 4 and table_value < 4 * len(att) + 4) or (
                len(strong_used) >= 2 and talon >= 10
            ):
                return _first(legal, TAKE)
    a, d = plan[-1]  # the cheapest-to-answer attack first; the strongest need stays planned
    action = defend_i(a, d)
    return action if action in legal else _first(legal, TAKE)
