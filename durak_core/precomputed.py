# Compiled with mypyc at install (.build/backend.py): after an edit its group runs as Python
# until the next install (durak_core/compiled_sources.py).
"""Who sits where, and what the engine precomputes once per (rule set, seat count).

The roles (R9, R19, V5, V7) are defined here as plain functions of the seat count and the mask
of active seats; :class:`Tables` looks their answers up for every seat and active mask, so that
the step reads a table instead of recomputing them. A state holds its tables (``state._k``).
"""

from __future__ import annotations

from typing import Final

from .cards import COPY_STRIDE, SAME_RANK, SUIT_BLOCKS, Suit
from .rules import MAX_SEATS, MIN_SEATS, RuleSet, lowest_trumps

#: Every mask of active seats is below this (one bit per seat, at most MAX_SEATS of them).
ACTIVE_MASKS: Final = 1 << MAX_SEATS
#: A bout cap no hand reaches (V9: no cap).
NO_CAP: Final = 1 << 30

#: CLOCKWISE[n][seat]: the seats of an n-seat table clockwise, starting with ``seat``.
CLOCKWISE: Final = tuple(
    tuple(tuple((seat + k) % n for k in range(n)) for seat in range(n))
    for n in range(MAX_SEATS + 1)
)


def next_active_of(n: int, active: int, seat: int) -> int:
    """R19: the next active seat clockwise after ``seat`` (``seat`` itself if it is alone)."""
    for other in CLOCKWISE[n][seat][1:]:
        if active >> other & 1:
            return other
    return seat


def next_opponent_of(n: int, teams: tuple[int, ...], active: int, seat: int) -> int:
    """R9/V7: the next active player clockwise who is not ``seat``'s teammate, or -1."""
    team = teams[seat]
    for other in CLOCKWISE[n][seat][1:]:
        if active >> other & 1 and teams[other] != team:
            return other
    return -1


def throwers_of(
    rules: RuleSet, n: int, teams: tuple[int, ...], active: int, attacker: int, defender: int
) -> int:
    """R9: the seats that may throw in against ``defender``: every other active player; V7 drops
    the defender's teammates, V5 keeps only the defender's neighbours and the main attacker."""
    if rules.team_size:
        team = teams[defender]
        mask = 0
        for seat in range(n):
            if active >> seat & 1 and teams[seat] != team:
                mask |= 1 << seat
    else:
        mask = active & ~(1 << defender)
    if rules.neighbours_only:
        left = next_active_of(n, active, defender)
        right = defender
        for seat in reversed(CLOCKWISE[n][defender][1:]):
            if active >> seat & 1:
                right = seat
                break
        mask &= (1 << left) | (1 << right) | (1 << attacker)
    return mask


def _seat_key(seat: int, active: int) -> int:
    """Where the answer for (``seat``, ``active``) sits in a per-seat table."""
    return seat * ACTIVE_MASKS + active


def _pair_key(attacker: int, defender: int, active: int) -> int:
    """Where the answer for (``attacker``, ``defender``, ``active``) sits in a per-pair table."""
    return (attacker * MAX_SEATS + defender) * ACTIVE_MASKS + active


class Tables:
    """What the engine precomputes once per (rule set, seat count), from the role functions above
    and the rule set's own methods:

    - :meth:`next_opponent`, :meth:`next_active`, :meth:`throwers`: the roles, for every seat
      and mask of active seats;
    - ``caps[discarded_once]``: ``rules.bout_cap`` (R12, V4, V9; no cap: :data:`NO_CAP`);
    - ``beat[trump]``: the beat table per trump suit (-1: none), filled on first use;
    - ``lowest_trumps[suit]``: the mask of the lowest trump of each suit (V8; both copies
      under V16);
    - ``same_rank[card]``: ``SAME_RANK`` within this deck (R11; without the second copies of
      V16 every mask fits a machine word, which the compiled engine handles natively);
    - ``suit_cards[suit]``: the mask of a suit's cards, both copies (V16); ``[-1]``, no trump,
      is empty (V18 shows a trump);
    - the rule set's switches the step reads (V1, V6, V7, V8, V18), as plain attributes (compiled,
      reading them from the interpreted ``RuleSet`` would cost a dictionary look-up each).
    """

    __slots__ = (
        "_next_active",
        "_next_opponent",
        "_throwers",
        "beat",
        "caps",
        "clockwise",
        "hand_size",
        "lowest_trumps",
        "same_rank",
        "suit_cards",
        "team_size",
        "throw_in_after_take",
        "transfer",
        "transfer_by_trump",
        "trump_exchange",
    )

    def __init__(self, rules: RuleSet, n: int) -> None:
        assert MIN_SEATS <= n <= MAX_SEATS, "the tables are sized for MAX_SEATS seats (R3)"
        teams = rules.teams_of(n)
        actives = range(ACTIVE_MASKS)
        self._next_opponent = tuple(
            next_opponent_of(n, teams, active, seat) for seat in range(n) for active in actives
        )
        self._next_active = tuple(
            next_active_of(n, active, seat) for seat in range(n) for active in actives
        )
        throwers = [0] * (MAX_SEATS * MAX_SEATS * ACTIVE_MASKS)
        for attacker in range(n):
            for defender in range(n):
                for active in actives:
                    throwers[_pair_key(attacker, defender, active)] = throwers_of(
                        rules, n, teams, active, attacker, defender
                    )
        self._throwers = tuple(throwers)
        caps = (rules.bout_cap(False), rules.bout_cap(True))
        self.caps = tuple(NO_CAP if cap is None else cap for cap in caps)
        self.hand_size = rules.hand_size
        self.clockwise = CLOCKWISE[n]
        self.beat: list[tuple[int, ...] | None] = [None] * 5  # index -1 is "no trump"
        deck = 0
        for card in rules.deck():
            deck |= 1 << card.index
        self.same_rank = tuple(mask & deck for mask in SAME_RANK)
        self.lowest_trumps = tuple(lowest_trumps(rules, suit) for suit in Suit)
        both = 1 | 1 << COPY_STRIDE
        self.suit_cards = (*(block * both for block in SUIT_BLOCKS), 0)
        self.transfer = rules.transfer
        self.throw_in_after_take = rules.throw_in_after_take
        self.team_size = rules.team_size
        self.trump_exchange = rules.trump_exchange
        self.transfer_by_trump = rules.transfer_by_trump

    def next_opponent(self, seat: int, active: int) -> int:
        """R9/V7: see :func:`next_opponent_of`."""
        return self._next_opponent[_seat_key(seat, active)]

    def next_active(self, seat: int, active: int) -> int:
        """R19: see :func:`next_active_of`."""
        return self._next_active[_seat_key(seat, active)]

    def throwers(self, attacker: int, defender: int, active: int) -> int:
        """R9, V5, V7: see :func:`throwers_of`."""
        return self._throwers[_pair_key(attacker, defender, active)]


_TABLES: Final[dict[tuple[RuleSet, int], Tables]] = {}


def tables_for(rules: RuleSet, n: int) -> Tables:
    """The (shared) tables of ``rules`` at an ``n``-seat table."""
    key = (rules, n)
    tables = _TABLES.get(key)
    if tables is None:
        tables = _TABLES[key] = Tables(rules, n)
    return tables
