# Compiled with mypyc at install (.build/backend.py): after an edit its group runs as Python
# until the next install (durak_core/compiled_sources.py).
"""What a seat remembers and infers from its own view and observed history (R23–R25 only).

The view already carries the public memory (discards, cards known in each hand, the bottom
trump). This module adds inferences from the history: a defender who took while a card stood
unbeaten probably holds nothing that beats it; an attacker who passed while ranks lay on the
table probably holds none of them (``lacks``). Weaker (``passed_over``): a defender who beat a
lone card with a dearer card than needed probably holds none of the cheaper ones that would
have beaten it (most players answer with their cheapest card). Inferences are reset when the
seat draws new cards.
Everything is rebuilt from ``(view, history)``, so a restarted bot gets the same decisions.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..actions import ATTACK, DEFEND, PASS, TAKE, TRANSFER
from ..cards import SAME_RANK, mask_of
from ..events import ActionTaken, BoutEnded, CardsDrawn, Event
from ..views import SeatView
from .cardinfo import CardTable, card_table


@dataclass(slots=True)
class Memory:
    """``lacks[seat]``: cards presumed absent from that hand (soft). ``passed_over[seat]``:
    cards presumed absent on weaker evidence (cheaper beaters of a card it beat dearly).
    ``emptied[seat]``: the action number that emptied the hand, or -1 (orders players out within
    a bout, R18).
    ``hidden``: cards whose place this seat does not know (other hands' unknown cards and the
    face-down talon)."""

    ct: CardTable
    lacks: list[int]
    emptied: list[int]
    hidden: int
    hand: int
    known: list[int]
    passed_over: list[int]


def remember(view: SeatView, history: Sequence[Event]) -> Memory:
    ct = card_table(view.rules, view.trump)
    n = view.seats
    lacks = [0] * n
    passed_over = [0] * n
    emptied = [-1] * n
    att: list[int] = []
    beaten: set[int] = set()
    ranks = 0
    version = 0
    for e in history:
        if isinstance(e, ActionTaken):
            a = e.action
            k = a.kind
            if k in (ATTACK, TRANSFER):
                c = a.c
                att.append(c)
                ranks |= SAME_RANK[c]
            elif k == DEFEND:
                x = a.a
                d = a.c
                if len(att) - len(beaten) == 1:  # a lone card: the choice was free
                    passed_over[e.seat] |= _cheaper_beaters(ct, x, d)
                beaten.add(x)
                ranks |= SAME_RANK[d]
            elif k == TAKE:
                for c in att:
                    if c not in beaten:
                        lacks[e.seat] |= ct.beaters[c]
            elif k == PASS:
                lacks[e.seat] |= ranks
            emptied[e.seat] = version
            version += 1
        elif isinstance(e, BoutEnded):
            att = []
            beaten = set()
            ranks = 0
            if not e.defended:  # the taken cards are known to be there now
                lacks[e.defender] &= ~mask_of(e.cards)
                passed_over[e.defender] &= ~mask_of(e.cards)
        elif isinstance(e, CardsDrawn) and e.number:
            lacks[e.seat] = 0
            passed_over[e.seat] = 0
    known = [mask_of(k) for k in view.known]
    hand = mask_of(view.hand)
    for t in range(n):
        lacks[t] &= ~known[t]
        if view.hand_sizes[t] or t == view.seat:
            emptied[t] = -1
    hidden = ct.deck & ~_visible(view, hand, known)
    for t in range(n):
        passed_over[t] &= hidden & ~lacks[t]
    return Memory(ct, lacks, emptied, hidden, hand, known, passed_over)


def _cheaper_beaters(ct: CardTable, attack: int, played: int) -> int:
    """The cards that beat ``attack`` and are worth less than ``played``, which beat it."""
    value = ct.value
    cheaper = ct.beaters[attack]
    m = cheaper
    while m:
        low = m & -m
        if value[low.bit_length() - 1] >= value[played]:
            cheaper ^= low
        m ^= low
    return cheaper


def _visible(view: SeatView, hand: int, known: list[int]) -> int:
    """Every card the seat sees: its hand, the discard, the table, known cards, the trump."""
    visible = hand | mask_of(view.discarded)
    for a_card, d_card in view.table:
        visible |= 1 << a_card.index
        if d_card is not None:
            visible |= 1 << d_card.index
    for k_mask in known:
        visible |= k_mask
    if view.trump_in_talon:
        visible |= 1 << view.trump_card.index
    return visible


def beat_chance(view: SeatView, mem: Memory, seat: int) -> list[float]:
    """Per card index: the chance that ``seat`` holds a card beating it, judged from the view
    and the inferences (hidden cards assumed uniformly placed outside ``lacks``)."""
    ct = mem.ct
    known = mem.known[seat]
    slots = view.hand_sizes[seat] - known.bit_count()
    pool = mem.hidden & ~mem.lacks[seat]
    size = max(pool.bit_count(), slots, 1)
    out = [0.0] * len(ct.value)
    m = ct.deck
    while m:
        low = m & -m
        c = low.bit_length() - 1
        m ^= low
        b = ct.beaters[c]
        if known & b:
            out[c] = 1.0
        elif slots > 0:
            free = (b & pool).bit_count()
            out[c] = 1.0 - ((size - free) / size) ** slots
    return out
