# Compiled with mypyc at install (.build/backend.py): after an edit its group runs as Python
# until the next install (durak_core/compiled_sources.py).
"""Applying one legal action to a state, in place (R11–R16, V1, V6, V8, V18).

:func:`do` plays the action and, when it ends the bout (R16), hands over to
:func:`durak_core.after_bout.end_bout`. It trusts its caller: ``GameState.apply`` checks the action
first, the fast path (:mod:`durak_core.fast`) does not.
"""

from __future__ import annotations

from typing import Final

from .actions import DEFEND, EXCHANGE, PASS, SHOW, TAKE, TRANSFER, Action
from .after_bout import end_bout
from .board import Board, set_roles, with_item
from .cards import Card
from .events import Event, TrumpExchanged
from .legality import exchange_card
from .move_kinds import SPENDS_CARD

#: By action kind: does the action move a card from the hand to the table? (the table of move
#: kinds says; a module constant here, as the compiled step reads it on every action)
_PLAYS_CARD: Final = SPENDS_CARD


def do(s: Board, seat: int, action: Action, events: list[Event] | None = None) -> None:
    """Apply a legal action in place; append its events to ``events`` unless it is None."""
    kind = action.kind
    version = s.version
    s.version = version + 1
    s._legal = None
    if _PLAYS_CARD[kind]:
        _play_card(s, seat, action.c, version)
        if kind == DEFEND:
            s.dfn[s.att.index(action.a)] = action.c
            s.unbeaten -= 1
            if s.unbeaten:
                return
        else:
            s.att.append(action.c)
            s.dfn.append(-1)
            s.unbeaten += 1
            if kind == TRANSFER:  # V1: the transferrer leads; the next opponent defends
                set_roles(s, seat)
                return
            if not s.taken:
                return
    elif kind == PASS:
        s.passed |= 1 << seat
    elif kind == TAKE:
        s.taken = True
        if not s._k.throw_in_after_take:  # V6: no throw-ins after a take
            end_bout(s, events)
            return
    elif kind == EXCHANGE:
        _exchange_trump(s, seat, events)
        if not s.att:  # otherwise the swapped-out card may have been a last possible throw-in
            return
    elif kind == SHOW:
        _show_trump(s, seat, action.c)  # the action itself is the public record of the show
        return  # the same attack, still unbeaten, faces the next defender
    else:  # pragma: no cover - Action has exactly these kinds
        raise AssertionError(action)
    if _bout_is_over(s):
        end_bout(s, events)


def _show_trump(s: Board, seat: int, card: int) -> None:
    """V18: the defender shows ``card`` (it stays in the hand, known to all) and passes the same
    attack on, as a transfer (V1) does."""
    s.known = with_item(s.known, seat, s.known[seat] | 1 << card)
    bout, seats = s.shown[0], s.shown[1]
    s.shown = (s.bout, (seats if bout == s.bout else 0) | 1 << seat)
    set_roles(s, seat)


def _play_card(s: Board, seat: int, card: int, version: int) -> None:
    """``card`` leaves ``seat``'s hand for the table; a new card clears every pass (R15)."""
    bit = 1 << card
    hands = s.hands
    hand = hands[seat] ^ bit
    hands[seat] = hand
    known = s.known
    if known[seat] & bit:
        s.known = with_item(known, seat, known[seat] ^ bit)
    if not hand:
        s.emptied = with_item(s.emptied, seat, version)
    s.table |= bit
    s.ranks |= s._k.same_rank[card]
    s.passed = 0


def _exchange_trump(s: Board, seat: int, events: list[Event] | None) -> None:
    """V8: ``seat``'s lowest trump and the face-up trump change places."""
    low = exchange_card(s, seat)
    face_up = s.trump_card
    s.hands[seat] ^= (1 << low) | (1 << face_up)
    s.known = with_item(s.known, seat, (s.known[seat] & ~(1 << low)) | (1 << face_up))
    s.talon = (low, *s.talon[1:])
    s.trump_card = low
    if events is not None:
        events.append(TrumpExchanged(seat, Card.from_index(low), Card.from_index(face_up)))


def _bout_is_over(s: Board) -> bool:
    """R16: every card is beaten or taken, and every thrower has passed, explicitly or by having
    nothing to throw in (R15) or by the bout's limit (R12)."""
    if s.unbeaten and not s.taken:
        return False
    if len(s.att) >= s.limit:
        return True
    hands = s.hands
    ranks = s.ranks
    still_in = s.attackers & ~s.passed
    return not any(still_in >> seat & 1 and hands[seat] & ranks for seat in range(s.n))
