# Compiled with mypyc at install (.build/backend.py): after an edit its group runs as Python
# until the next install (durak_core/compiled_sources.py).
"""Listing what is legal: every action the checks of :mod:`durak_core.legality` allow.

:func:`list_legal` is the one listing: ``legal_actions``, ``legal_moves``, the views, the AI
and the fast path all list actions through it. It decides nothing itself — each action kind is
listed when its check allows it, card by card from that check's card set — so the listing and
the refusals (:func:`durak_core.legality.check`) cannot disagree.

No listing allocates anything per action: actions are interned, and so are the (seat, action)
pairs of ``legal_moves`` (:class:`Spelling`).
"""

from __future__ import annotations

from typing import Any, Final

from .actions import (
    ATTACKS,
    EXCHANGE_ACTION,
    PASS_ACTION,
    SHOWS,
    TAKE_ACTION,
    TRANSFERS,
    Action,
    defend_i,
)
from .bits import append_each
from .board import Board
from .cards import NUM_CARD_IDS
from .legality import (
    ALLOWED,
    attack_cards,
    attack_check,
    defence_cards,
    defend_check,
    exchange_check,
    pass_check,
    show_cards,
    show_check,
    take_check,
    transfer_cards,
    transfer_check,
)
from .rules import MAX_SEATS


class Spelling:
    """How the listing writes one seat's actions: the interned actions themselves (for
    ``legal_actions``), or that seat's interned (seat, action) pairs (for ``legal_moves``)."""

    __slots__ = ("_defences", "attacks", "exchange", "pass_", "seat", "shows", "take", "transfers")

    def __init__(self, seat: int) -> None:
        self.seat = seat  # -1: bare actions
        self.attacks = tuple(self._spell(action) for action in ATTACKS)  # by card index
        self.transfers = tuple(self._spell(action) for action in TRANSFERS)
        self.shows = tuple(self._spell(action) for action in SHOWS)
        self.take = self._spell(TAKE_ACTION)
        self.pass_ = self._spell(PASS_ACTION)
        self.exchange = self._spell(EXCHANGE_ACTION)
        self._defences: list[tuple[object, ...] | None] = [None] * NUM_CARD_IDS

    def _spell(self, action: Action) -> object:
        return action if self.seat < 0 else (self.seat, action)

    def defences(self, attack: int) -> tuple[object, ...]:
        """The defences of the attack card ``attack``, by the defending card's index (made on
        first use)."""
        row = self._defences[attack]
        if row is None:
            row = self._defences[attack] = tuple(
                self._spell(defend_i(attack, card)) for card in range(NUM_CARD_IDS)
            )
        return row


#: Every seat spelled as bare actions (compiled, Final constants are C statics).
ACTIONS: Final = (Spelling(-1),) * MAX_SEATS
#: Every seat spelled as its (seat, action) pairs.
MOVES: Final = tuple(Spelling(seat) for seat in range(MAX_SEATS))
ALL_SEATS: Final = (1 << MAX_SEATS) - 1


def list_legal(
    s: Board,
    seats: int = ALL_SEATS,
    spelling: tuple[Spelling, ...] = MOVES,
    out: list[Any] | None = None,
) -> list[Any]:
    """Append to ``out`` (by default a new list) every legal action of the seats in the mask
    ``seats``, seat by seat in seat order, each written as ``spelling[seat]`` writes it, and
    return ``out``. With the defaults: every legal (seat, action) pair (``fast.legal_moves``)."""
    if out is None:
        out = []
    if s.finished:
        return out
    seats &= s.active
    if s._k.trump_exchange:  # V8: a seat's exchange comes first, at any time
        for seat in range(s.n):
            if seats >> seat & 1:
                if exchange_check(s, seat) == ALLOWED:
                    out.append(spelling[seat].exchange)
                _list_bout_actions(s, 1 << seat, spelling, out)
    else:
        _list_bout_actions(s, seats, spelling, out)
    return out


def _list_bout_actions(
    s: Board, seats: int, spelling: tuple[Spelling, ...], out: list[Any]
) -> None:
    """The bout's actions (all but V8's exchange) of the seats in ``seats`` (active seats).

    The seats :func:`~durak_core.legality.turn_check` refuses are filtered out up front, and so
    are throwers who passed (R15), so the loop asks no check that must refuse."""
    defender = s.defender
    is_open = bool(s.att)
    if is_open:  # in an open bout only the defender and throwers who have not passed can act
        seats &= (s.attackers & ~s.passed) | 1 << defender
    else:  # R10: nobody acts before the main attacker opens the bout
        seats &= 1 << s.attacker
    for seat in range(s.n):  # (seats are few: a plain loop beats walking the mask's bits)
        if not seats >> seat & 1:
            continue
        spell = spelling[seat]
        if seat == defender:  # the defender's actions; the others are refused to it anyway
            if defend_check(s, seat, -1, -1) == ALLOWED:
                att = s.att
                dfn = s.dfn
                if s.unbeaten == 1:  # the usual case: one card to beat, usually the last one
                    attack = att[-1] if dfn[-1] < 0 else att[dfn.index(-1)]
                    append_each(out, spell.defences(attack), defence_cards(s, attack))
                else:
                    for attack, beaten_by in zip(att, dfn):  # noqa: B905 - same length
                        if beaten_by < 0:
                            append_each(out, spell.defences(attack), defence_cards(s, attack))
            if transfer_check(s, seat, -1) == ALLOWED:
                append_each(out, spell.transfers, transfer_cards(s))
            if s._k.transfer_by_trump and show_check(s, seat, -1) == ALLOWED:  # V18
                append_each(out, spell.shows, show_cards(s))
            if take_check(s, seat) == ALLOWED:
                out.append(spell.take)
        else:
            cards = attack_cards(s, seat)
            # nothing to throw in: no attack, and no pass (R15: passed already); before the
            # opening card no pass either (R10)
            if cards:
                if attack_check(s, seat, -1) == ALLOWED:
                    append_each(out, spell.attacks, cards)
                if is_open and pass_check(s, seat) == ALLOWED:
                    out.append(spell.pass_)
