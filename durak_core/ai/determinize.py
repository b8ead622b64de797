"""Full game states consistent with one seat's view (determinizations), for Hard's search.

Only the view and the seat's memory go in: the seat's own hand, the cards known in other hands
(R6, R8, taken cards), hand sizes, the talon size with the face-up trump at its bottom, the
discards and the table. The hidden cards are dealt at random to the unknown slots, or, when
there are few enough ways to place them, every placement is enumerated.
"""

from __future__ import annotations

import random
from itertools import combinations, permutations
from math import comb, factorial

from ..cards import SAME_RANK, mask_of
from ..engine import _beat_table
from ..state import GameState
from ..views import SeatView
from .memory import Memory

#: Enumerate every placement of the hidden cards when there are at most this many.
ENUMERATE_LIMIT = 600


def _bits(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


class Determinizer:
    """Deals the hidden cards of a view; :meth:`next` returns a fresh state each call."""

    def __init__(self, view: SeatView, mem: Memory, rng: random.Random) -> None:
        self.view = view
        self.rng = rng
        self.hidden = _bits(mem.hidden)
        n = view.seats
        self.slots = [
            0 if t == view.seat else view.hand_sizes[t] - mem.known[t].bit_count() for t in range(n)
        ]
        self.talon_slots = view.talon_size - (1 if view.trump_in_talon else 0)
        assert sum(self.slots) + self.talon_slots == len(self.hidden), "view is inconsistent"
        self.template = _template(view, mem)
        count = _placements(self.slots, self.talon_slots)
        self.deals: list[tuple[list[int], list[int]]] | None = None
        if count <= ENUMERATE_LIMIT:
            self.deals = list(_enumerate(self.hidden, self.slots, self.talon_slots))
            rng.shuffle(self.deals)
        self.k = 0

    @property
    def exact(self) -> bool:
        """True when :meth:`next` cycles through every possible placement."""
        return self.deals is not None

    @property
    def count(self) -> int:
        return len(self.deals) if self.deals is not None else 0

    def next(self) -> GameState:
        if self.deals is not None:
            extra, talon = self.deals[self.k % len(self.deals)]
            self.k += 1
        else:
            cards = self.hidden[:]
            self.rng.shuffle(cards)
            extra = []
            pos = 0
            for size in self.slots:
                extra.append(mask_of_ints(cards[pos : pos + size]))
                pos += size
            talon = cards[pos:]
        s = self.template.copy()
        s.hands = [h | e for h, e in zip(s.hands, extra, strict=True)]
        if self.view.trump_in_talon:
            s.talon = [self.view.trump_card.index, *talon]
        else:
            s.talon = list(talon)
        return s


def mask_of_ints(cards: list[int]) -> int:
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def _placements(slots: list[int], talon_slots: int) -> int:
    total = sum(slots) + talon_slots
    count = factorial(talon_slots)
    left = total
    for k in slots:
        count *= comb(left, k)
        left -= k
    return count * comb(left, talon_slots)


def _enumerate(
    hidden: list[int], slots: list[int], talon_slots: int
) -> list[tuple[list[int], list[int]]]:
    out: list[tuple[list[int], list[int]]] = []

    def rec(seat: int, left: list[int], acc: list[int]) -> None:
        if seat == len(slots):
            for order in permutations(left):
                out.append((acc[:], list(order)))
            return
        for chosen in combinations(left, slots[seat]):
            rest = [c for c in left if c not in chosen]
            acc.append(mask_of_ints(list(chosen)))
            rec(seat + 1, rest, acc)
            acc.pop()

    rec(0, hidden, [])
    return out


def _template(view: SeatView, mem: Memory) -> GameState:
    """A state with everything but the hidden cards in place (own hand, known cards)."""
    rules = view.rules
    n = view.seats
    s = object.__new__(GameState)
    s.rules = rules
    s.n = n
    s.teams = view.teams
    s.trump_suit = int(view.trump)
    s.beat = _beat_table(rules, s.trump_suit)
    s.trump_card = view.trump_card.index
    s.hands = [mem.hand if t == view.seat else mem.known[t] for t in range(n)]
    s.known = list(mem.known)
    s.talon = []
    s.discard = mask_of(view.discarded)
    s.att = [a.index for a, _ in view.table]
    s.dfn = [-1 if d is None else d.index for _, d in view.table]
    s.table = 0
    s.ranks = 0
    for c in (*s.att, *(d for d in s.dfn if d >= 0)):
        s.table |= 1 << c
        s.ranks |= SAME_RANK[c]
    s.unbeaten = s.dfn.count(-1)
    s.attacker = view.attacker
    s.defender = view.defender
    s.attackers = sum(1 << t for t in view.attackers)
    s.limit = view.limit
    s.taken = view.taken
    s.passed = sum(1 << t for t in view.passed)
    s.active = sum(1 << t for t in view.active)
    s.out = list(view.finishing_order)
    s.emptied = list(mem.emptied)
    s.discarded_once = view.discard_size > 0
    s.bout = view.bout
    s.version = view.version
    s.dealer = view.dealer
    s.starter = view.attacker
    s.first_game = True
    s.seed = None
    s.order = ()
    s.log = ()
    s.finished = view.finished
    s._legal = None
    return s
