# Compiled with mypyc at install (.build/backend.py): after an edit its group runs as Python
# until the next install (durak_core/compiled_sources.py).
"""Exact endgame play: two seats left, talon empty, so every card's place is known.

Alpha-beta over the engine's own moves (fast path), with a transposition table and
cheapest-first move ordering, inside iterative deepening: each pass searches to a depth limit
and scores cut-off positions heuristically; a pass that finishes without any cut-off is exact
and ends the search. A pass that runs out of budget is discarded (the previous pass's move
stands). Values are from ``me``'s side: +1 win (the other seat is the Durak), 0 a draw, -1 Durak.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Final

from ..actions import PASS, TAKE, Action
from ..fast import apply_unchecked, legal_actions
from ..rules import RuleSet
from ..state import GameState
from .cardinfo import CardTable
from .heuristics import easy_choice
from .schedule import next_actor

_EXACT, _LOWER, _UPPER = 0, 1, 2


class OutOfBudget(Exception):
    """The search used up its node or time budget."""


def outcome(s: GameState, me: int) -> float:
    """+1, 0 or -1 for a finished game, from ``me``'s side (R20; V7 teams)."""
    remaining = [t for t in range(s.n) if s.active >> t & 1]
    if not remaining:
        return 0.0
    return -1.0 if s.teams[remaining[0]] == s.teams[me] else 1.0


def position_key(s: GameState) -> tuple[object, ...]:
    """A position's identity for the solver's tables (and the puzzles' memo): the cards in
    each place, the bout's state and the roles."""
    # The table as a set of pairs: the order cards were played in changes nothing that may
    # follow, and throw-ins in another order reach the same position (a take's throw-ins
    # alone would otherwise count each order of the same cards apart).
    return (
        tuple(s.hands),
        tuple(sorted(zip(s.att, s.dfn))),  # noqa: B905 - same length
        len(s.talon),  # the face-up trump still to draw, or drawn
        _bout_state(s),
    )


def _bout_state(s: GameState) -> tuple[object, ...]:
    """The bout's state and the roles, the part of a key that holds no card."""
    shown = s.shown  # V18: who has shown this bout changes what may follow
    return (
        s.taken,
        s.passed,
        s.attacker,
        s.limit,
        s.discarded_once,
        shown[1] if shown[0] == s.bout else 0,
    )


#: The cards of each rank position (0 = a suit's lowest index) in the four suits of the first
#: copy of the deck: a mask's cards of that rank, whatever the suit.
_COLUMNS: Final = tuple(sum(1 << (13 * k + r) for k in range(4)) for r in range(13))
#: The four suits' blocks of the index folded onto one: a mask's ranks in any suit.
_RANKS13: Final = 0x1FFF
#: What a relative key ends with, so that it never equals a plain one.
_RELATIVE: Final = "relative"


def relative_ranks_hold(rules: RuleSet) -> bool:
    """Does play depend only on the live cards' relative ranks (their order within a suit and
    which are of equal rank), not on which ranks they are? Not with jokers or a second copy of
    the deck (indices outside one 52-card block), nor with a trump exchange (V8) or a changing
    trump (V14), where one particular card matters."""
    return not (rules.jokers or rules.double_deck or rules.trump_exchange or rules.changing_trump)


def relative_key(s: GameState) -> tuple[object, ...]:
    """:func:`position_key` with the ranks compressed: the ranks no live card (in a hand, on the
    table or in the talon) holds are dropped and the rest renumbered 0, 1, …, keeping their
    order. Two positions with the same relative key play alike (where
    :func:`relative_ranks_hold`): a card beats the same cards and matches the same ranks. So a
    proof of one is a proof of the other, and a search meets far more of its positions again
    once cards have gone to the discard pile."""
    live = s.table
    for h in s.hands:
        live |= h
    for c in s.talon:
        live |= 1 << c
    folded = (live | live >> 13 | live >> 26 | live >> 39) & _RANKS13
    position = [0] * 13
    shifts: list[int] = []
    i = 0
    for r in range(13):
        if folded >> r & 1:
            position[r] = i
            shifts.append(r)
            i += 1
    hands = []
    for h in s.hands:
        out = 0
        for j, r in enumerate(shifts):
            out |= (h & _COLUMNS[r]) >> (r - j)
        hands.append(out)
    pairs = []
    for a, d in zip(s.att, s.dfn):  # noqa: B905 - same length
        pairs.append(
            (a - a % 13 + position[a % 13], -1 if d < 0 else d - d % 13 + position[d % 13])
        )
    pairs.sort()
    return (
        tuple(hands),
        tuple(pairs),
        tuple(c - c % 13 + position[c % 13] for c in s.talon),
        _bout_state(s),
        _RELATIVE,
    )


@dataclass(eq=False)
class EndgameSolver:
    """``stop()`` is polled every few hundred nodes; ``node_limit`` caps the work (both raise
    :class:`OutOfBudget` inside a pass)."""

    me: int
    ct: CardTable
    stop: Callable[[], bool] | None = None
    node_limit: int | None = None
    #: Seats known to play Easy's rules (bit mask): deterministic, so the search follows
    #: their one move instead of assuming their best.
    easy_seats: int = 0
    nodes: int = field(init=False)
    best: dict[tuple[object, ...], Action] = field(init=False, repr=False)
    #: key -> (depth searched, bound flag, value, subtree had cut-offs). Kept across passes:
    #: an entry without cut-offs is exact at any depth.
    tt: dict[tuple[object, ...], tuple[int, int, float, bool]] = field(init=False, repr=False)
    cuts: int = field(init=False)
    #: Keys by relative ranks (:func:`relative_key`): in a proof only, where every value is
    #: exact; a depth-limited pass keeps plain keys, its cut-off scores read absolute ranks.
    relative: bool = field(init=False)

    def __post_init__(self) -> None:
        # Not field defaults: compiled by mypyc, the default of a field left out of __init__
        # is never stored.
        self.nodes = self.cuts = 0
        self.relative = False
        self.best = {}
        self.tt = {}

    def _order(self, legal: list[Action], hint: Action | None) -> list[Action]:
        value = self.ct.value

        def cost(a: Action) -> int:
            if a is hint:
                return -2
            if a.kind == PASS:
                return -1
            if a.kind == TAKE:
                return 10_000
            return value[a.c]

        return sorted(legal, key=cost)

    def _eval(self, s: GameState) -> float:
        """A cut-off position: fewer and stronger cards are better; always inside (-1, 1)."""
        me = self.me
        value = self.ct.value
        mine = 0
        theirs = 0
        diff = 0.0
        for t in range(s.n):
            h = s.hands[t]
            if not s.active >> t & 1:
                continue
            count = h.bit_count()
            strength = 0
            while h:
                low = h & -h
                strength += value[low.bit_length() - 1]
                h ^= low
            avg = strength / count if count else 0.0
            if s.teams[t] == s.teams[me]:
                mine += count
                diff += avg
            else:
                theirs += count
                diff -= avg
        score = 0.08 * (theirs - mine) + 0.01 * diff
        return max(-0.9, min(0.9, score))

    def _search(self, s: GameState, depth: int, alpha: float, beta: float) -> float:
        if s.finished:
            return outcome(s, self.me)
        self.nodes += 1
        if self.nodes & 255 == 0:
            if self.node_limit is not None and self.nodes > self.node_limit:
                raise OutOfBudget
            if self.stop is not None and self.stop():
                raise OutOfBudget
        if depth <= 0:
            self.cuts += 1
            return self._eval(s)
        key = relative_key(s) if self.relative else position_key(s)
        entry = self.tt.get(key)
        if entry is not None and (entry[0] >= depth or not entry[3]):
            _, flag, v, cut = entry
            if flag == _EXACT or (flag == _LOWER and v >= beta) or (flag == _UPPER and v <= alpha):
                self.cuts += cut
                return v
        cuts0 = self.cuts
        seat = next_actor(s)
        assert seat is not None
        legal = legal_actions(s, seat)
        if self.easy_seats >> seat & 1 and len(legal) > 1:
            legal = [easy_choice(legal, s.hands[seat], s.att, s.dfn, self.ct)]
        maximize = s.teams[seat] == s.teams[self.me]
        a0, b0 = alpha, beta
        best_v = -2.0 if maximize else 2.0
        best_a: Action | None = None
        for a in self._order(legal, self.best.get(key)):
            child = s.copy()
            apply_unchecked(child, seat, a)
            v = self._search(child, depth - 1, alpha, beta)
            if maximize:
                if v > best_v:
                    best_v, best_a = v, a
                alpha = max(alpha, v)
            else:
                if v < best_v:
                    best_v, best_a = v, a
                beta = min(beta, v)
            if alpha >= beta:
                break
        flag = _EXACT
        if best_v <= a0:
            flag = _UPPER
        elif best_v >= b0:
            flag = _LOWER
        self.tt[key] = (depth, flag, best_v, self.cuts > cuts0)
        if best_a is not None:
            self.best[key] = best_a
        return best_v

    def root(self, s: GameState, depth: int) -> tuple[float, Action]:
        """One pass to ``depth``: the value and best action of the seat to move at ``s``."""
        self.relative = False
        return self._root_pass(s, depth, -2.0, 2.0)

    def prove(self, s: GameState, max_depth: int = 400) -> tuple[float, Action, bool]:
        """One full-depth pass with the narrow window (-1, 1): (value, action, exact).

        Outcomes are only -1, 0 and +1, so a seat that finds a win (or the opponent a loss)
        stops looking at its other moves at once; without a depth limit no position is scored
        heuristically on the way and the pass usually proves the result in far fewer nodes than
        iterative deepening needs. Raises :class:`OutOfBudget` when it does not finish."""
        self.relative = relative_ranks_hold(s.rules) and not self.easy_seats
        value, action = self._root_pass(s, max_depth, -1.0, 1.0)
        return value, action, not self.cuts

    def _root_pass(
        self, s: GameState, depth: int, alpha: float, beta: float
    ) -> tuple[float, Action]:
        self.cuts = 0
        seat = next_actor(s)
        assert seat is not None
        legal = legal_actions(s, seat)
        key = relative_key(s) if self.relative else position_key(s)
        maximize = s.teams[seat] == s.teams[self.me]
        best_v = -2.0 if maximize else 2.0
        best_a = legal[0]
        for a in self._order(legal, self.best.get(key)):
            child = s.copy()
            apply_unchecked(child, seat, a)
            v = self._search(child, depth - 1, alpha, beta)
            if (maximize and v > best_v) or (not maximize and v < best_v):
                best_v, best_a = v, a
            if maximize:
                alpha = max(alpha, v)
            else:
                beta = min(beta, v)
            if alpha >= beta:  # never with root's full window: values lie in [-1, 1]
                break
        self.best[key] = best_a
        return best_v, best_a

    def solve(self, s: GameState, max_depth: int = 400) -> tuple[float, Action, bool]:
        """Iterative deepening: (value, action, exact). Raises :class:`OutOfBudget` only if not
        even the first pass finished."""
        result: tuple[float, Action, bool] | None = None
        depth = 4
        while depth <= max_depth:
            try:
                v, a = self.root(s, depth)
            except OutOfBudget:
                if result is None:
                    raise
                return result
            result = (v, a, not self.cuts or v == 1.0)  # a win found is proven
            if not self.cuts or v == 1.0:
                return result
            depth += 4
        assert result is not None
        return result


def brute_force(s: GameState, me: int, ct: CardTable | None = None, easy_seats: int = 0) -> float:
    """Plain minimax over every move, no pruning, no table: the reference for tests (the seats
    in ``easy_seats`` play Easy's one move; ``ct`` is then needed)."""
    if s.finished:
        return outcome(s, me)
    seat = next_actor(s)
    assert seat is not None
    legal = legal_actions(s, seat)
    if easy_seats >> seat & 1 and len(legal) > 1:
        assert ct is not None
        legal = [easy_choice(legal, s.hands[seat], s.att, s.dfn, ct)]
    values = []
    for a in legal:
        child = s.copy()
        apply_unchecked(child, seat, a)
        values.append(brute_force(child, me, ct, easy_seats))
    return max(values) if s.teams[seat] == s.teams[me] else min(values)
