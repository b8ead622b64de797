"""Full game states consistent with one seat's view (determinizations), for Hard's search.

Only the view and the seat's memory go in: the seat's own hand, the cards known in other hands
(R6, R8, taken cards), hand sizes, the talon size with the face-up trump at its bottom, the
discards and the table. The hidden cards are dealt at random to the unknown slots, or, when
there are few enough ways to place them, every placement is enumerated.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from itertools import combinations, permutations
from math import comb, factorial
from typing import Protocol

from ..cards import Card, cards_of, set_bits
from ..serialize import StateModel, state_from_model
from ..state import GameState
from ..views import SeatView
from .memory import Memory

#: Enumerate every placement of the hidden cards when there are at most this many.
ENUMERATE_LIMIT = 600


class Deals(Protocol):
    """A source of full states for a search: ``next()`` gives a fresh one each call; ``exact``
    says whether the states run through every possible placement."""

    @property
    def exact(self) -> bool: ...

    def next(self) -> GameState: ...


class Determinizer:
    """Deals the hidden cards of a view; :meth:`next` returns a fresh state each call.

    The first state is built through :func:`~durak_core.serialize.state_from_model` and checked
    by the invariant checker; later ones copy it and re-deal only the hidden cards.
    """

    def __init__(
        self,
        view: SeatView,
        mem: Memory,
        rng: random.Random,
        lack_weight: float = 1.0,
        strong_lack_weight: float = 1.0,
        passed_over_weight: float = 1.0,
        prior: Sequence[Mapping[int, float]] | None = None,
    ) -> None:
        self.view = view
        self.rng = rng
        self.hidden = set_bits(mem.hidden)
        self.mem = mem
        n = view.seats
        self.slots = [
            0 if t == view.seat else view.hand_sizes[t] - mem.known[t].bit_count() for t in range(n)
        ]
        self.talon_slots = view.talon_size - (1 if view.trump_in_talon else 0)
        #: V14: the face-down card under the trump is one of the hidden cards, dealt to the
        #: very bottom of the talon.
        self.under_trump = bool(getattr(view, "trump_will_change", False))
        if sum(self.slots) + self.talon_slots != len(self.hidden):
            raise ValueError("the view's hand sizes, talon and known cards do not add up")
        #: Per seat, per hidden card: the weight of dealing it there (:func:`_weights`).
        self.weights = _weights(
            self.slots,
            self.hidden,
            mem,
            (lack_weight, strong_lack_weight, passed_over_weight),
            prior,
        )
        count = _placements(self.slots, self.talon_slots)
        self.deals: list[tuple[list[int], list[int]]] | None = None
        self.deal_weights: list[float] | None = None
        if count <= ENUMERATE_LIMIT:
            self.deals = list(_enumerate(self.hidden, self.slots, self.talon_slots))
            rng.shuffle(self.deals)
            if self.weights is not None:
                self.deal_weights = [self._likelihood(extra) for extra, _ in self.deals]
        self.k = 0
        self.template: GameState | None = None

    @property
    def exact(self) -> bool:
        """True when :meth:`next` cycles through every possible placement."""
        return self.deals is not None

    @property
    def count(self) -> int:
        return len(self.deals) if self.deals is not None else 0

    def _likelihood(self, extra: list[int]) -> float:
        assert self.weights is not None
        p = 1.0
        for t, m in enumerate(extra):
            w = self.weights[t]
            if w:
                for c in set_bits(m):
                    p *= w.get(c, 1.0)
        return p

    def _deal(self) -> tuple[list[int], list[int]]:
        if self.deals is not None:
            if self.deal_weights is not None:  # every placement, drawn by its likelihood
                return self.rng.choices(self.deals, self.deal_weights)[0]
            deal = self.deals[self.k % len(self.deals)]
            self.k += 1
            return deal
        cards = self.hidden[:]
        self.rng.shuffle(cards)
        if self.weights is not None:
            return self._weighted_deal(cards)
        extra = []
        pos = 0
        for size in self.slots:
            extra.append(mask_of_ints(cards[pos : pos + size]))
            pos += size
        return extra, cards[pos:]

    def _weighted_deal(self, cards: list[int]) -> tuple[list[int], list[int]]:
        """Each seat's unknown slots in turn take a weighted sample without replacement
        (key ``u ** (1 / w)``, Efraimidis-Spirakis); the rest, already shuffled, is the talon."""
        assert self.weights is not None
        rng = self.rng
        left = cards
        extra = []
        for t, size in enumerate(self.slots):
            if not size:
                extra.append(0)
                continue
            w = self.weights[t]
            if w:
                keyed = sorted(
                    left,
                    key=lambda c: rng.random() ** (1.0 / w.get(c, 1.0)),
                    reverse=True,
                )
                chosen = set(keyed[:size])
            else:
                chosen = set(left[:size])
            extra.append(mask_of_ints(list(chosen)))
            left = [c for c in left if c not in chosen]
        return extra, left

    def _talon(self, drawn: list[int]) -> list[int]:
        """The talon bottom first (the engine draws from the end), from the hidden cards."""
        view = self.view
        if not view.trump_in_talon:
            return list(drawn)
        if self.under_trump:
            return [drawn[0], view.trump_card.index, *drawn[1:]]
        return [view.trump_card.index, *drawn]

    def next(self) -> GameState:
        extra, drawn = self._deal()
        hands = [
            (self.mem.hand if t == self.view.seat else self.mem.known[t]) | e
            for t, e in enumerate(extra)
        ]
        talon = self._talon(drawn)
        if self.template is None:
            self.template = _build(self.view, self.mem, hands, talon, self.under_trump)
            return self.template.copy()
        s = self.template.copy()
        s.hands = hands
        s.talon = tuple(talon)
        if self.under_trump:
            s.hidden_trump = talon[0]
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


def _names(mask: int) -> list[str]:
    return [str(c) for c in cards_of(mask)]


def _build(
    view: SeatView, mem: Memory, hands: list[int], talon: list[int], under_trump: bool
) -> GameState:
    """A full, checked state: the view's public facts, the given hands and talon."""
    rules = view.rules
    n = view.seats
    model = StateModel(
        rules=rules.options(),
        seats=n,
        dealer=view.dealer,
        starter=view.attacker,
        first_game=True,
        seed=None,
        order=[str(c) for c in rules.deck()],
        trump_card=str(view.trump_card),
        hands=[_names(h) for h in hands],
        known=[_names(k) for k in mem.known],
        talon=[str(Card.from_index(c)) for c in reversed(talon)],
        discard=[str(c) for c in view.discarded],
        table=[(str(a), None if d is None else str(d)) for a, d in view.table],
        attacker=view.attacker,
        defender=view.defender,
        limit=view.limit,
        taken=view.taken,
        passed=sorted(view.passed),
        active=list(view.active),
        out=list(view.finishing_order),
        emptied=list(mem.emptied),
        discarded_once=view.discard_size > 0,
        bout=view.bout,
        version=view.version,
        finished=view.finished,
        log=[],
        hidden_trump=str(Card.from_index(talon[0])) if under_trump else None,
    )
    s = state_from_model(model)
    # Trust the view's roles over a recomputation (V5 neighbours, V7 teams are public facts).
    s.attackers = sum(1 << t for t in view.attackers)
    return s


def _weights(
    slots: list[int],
    hidden: list[int],
    mem: Memory,
    soft: tuple[float, float, float],
    prior: Sequence[Mapping[int, float]] | None,
) -> list[dict[int, float]] | None:
    """Per seat, per hidden card: the relative weight of dealing it to that seat's unknown
    slots (below 1 for cards the seat is presumed to lack, :attr:`Memory.lacks`; the inference
    is soft: a player may take or pass on purpose, so it only weights), and the passed-over
    weight for the weaker :attr:`Memory.passed_over` inference, times ``prior[seat][card]``
    where given (what that seat's play tends to keep in hand); None where all weigh 1.
    ``soft``: the lack, strong-lack and passed-over weights."""
    lack_weight, strong_lack_weight, passed_over_weight = soft
    if soft == (1.0, 1.0, 1.0) and prior is None:
        return None
    hidden_mask = mem.hidden
    strong = mem.ct.strong
    ws: list[dict[int, float]] = []
    for t, free in enumerate(slots):
        if not free:
            ws.append({})
            continue
        lacked = mem.lacks[t] & hidden_mask
        w = {c: strong_lack_weight if strong >> c & 1 else lack_weight for c in set_bits(lacked)}
        for c in set_bits(mem.passed_over[t] & hidden_mask & ~lacked):
            w[c] = passed_over_weight
        if prior is not None and prior[t]:
            p = prior[t]
            for c in hidden:
                f = p.get(c, 1.0) * w.get(c, 1.0)
                if f != 1.0:
                    w[c] = f
        ws.append(w)
    return ws if any(ws) else None
