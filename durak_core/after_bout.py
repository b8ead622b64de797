# Compiled with mypyc at install (.build/backend.py): after an edit its group runs as Python
# until the next install (durak_core/compiled_sources.py).
"""After a bout: the table goes to the discard or to the defender (R16), the hands are refilled
(R17), players with no cards leave (R18), the game may end (R20), and the next bout's roles are
set (R19)."""

from __future__ import annotations

from typing import Any, Final

from .bits import set_bits
from .board import Board, set_roles, set_trump, with_item
from .cards import Card, cards_of
from .events import (
    BoutEnded,
    BoutStarted,
    CardsDrawn,
    CardsReceived,
    Event,
    GameOver,
    PlayerOut,
    TrumpRevealed,
)

#: ``tuple.__new__(SomeEvent, fields)`` builds a NamedTuple event from its fields in one C call;
#: the class's own ``__new__`` is a Python function, a noticeable cost a few times each bout.
_event_from_fields: Final[Any] = tuple.__new__


def end_bout(s: Board, events: list[Event] | None) -> None:
    """End the bout (R16) and start the next one, or end the game."""
    defended = not s.taken
    defender = s.defender
    table = s.table
    hands = s.hands
    if events is not None:
        events.append(_event_from_fields(BoutEnded, (defended, defender, cards_of(table))))
    if defended:  # R16a
        s.discard |= table
        s.discarded_once = True
    else:  # R16b: the taken cards are public knowledge in the defender's hand (R23)
        hands[defender] |= table
        s.known = with_item(s.known, defender, s.known[defender] | table)
        _has_cards(s, defender)
    s.att.clear()  # this state's own lists (copy copies them)
    s.dfn.clear()
    s.table = s.ranks = s.unbeaten = s.passed = 0
    s.taken = False

    if s.talon:
        _refill(s, defender, events)
    if not s.talon and _players_out(s, events):
        return
    s.bout += 1
    # R19: defended -> the defender leads; taken -> the next player to the defender's left.
    active = s.active
    leader = defender if defended and active >> defender & 1 else s._k.next_active(defender, active)
    set_roles(s, leader)
    if events is not None:
        events.append(bout_started(s.attacker, s.defender, s.limit))


def _refill(s: Board, defender: int, events: list[Event] | None) -> None:
    """R17: the main attacker draws up to a full hand first, the others clockwise, the defender
    last, while the talon lasts."""
    tables = s._k
    hands = s.hands
    active = s.active
    full = tables.hand_size
    for seat in tables.clockwise[s.attacker]:
        if seat != defender and active >> seat & 1:
            need = full - hands[seat].bit_count()
            if need > 0:
                _draw(s, seat, need, events)
                if not s.talon:
                    return
    need = full - hands[defender].bit_count()
    if need > 0:
        _draw(s, defender, need, events)


def _draw(s: Board, seat: int, need: int, events: list[Event] | None) -> None:
    """``seat`` draws up to ``need`` cards from a non-empty talon (R17)."""
    talon = s.talon  # top last
    drawn = 0
    trump = None
    if len(talon) > need + 1:  # the face-up trump (and V14's card under it) stays put
        rest = len(talon) - need
        for card in talon[rest:]:
            drawn |= 1 << card
        s.talon = talon[:rest]
    else:
        while need and talon:
            card = talon[-1]
            talon = s.talon = talon[:-1]
            drawn |= 1 << card
            need -= 1
            if card == s.trump_card:  # everyone sees who takes the face-up trump
                s.known = with_item(s.known, seat, s.known[seat] | 1 << card)
                trump = Card.from_index(card)
                if s.hidden_trump >= 0 and talon:  # V14: the card beneath is the trump now
                    set_trump(s, Card.from_index(s.hidden_trump))
                    s.hidden_trump = -1
                    if events is not None:
                        events.append(TrumpRevealed(Card.from_index(s.trump_card)))
    s.hands[seat] |= drawn
    _has_cards(s, seat)
    if events is not None:
        cards = cards_of(drawn)
        if trump is None:
            events.append(cards_drawn(seat, len(cards)))
        else:
            events.append(_event_from_fields(CardsDrawn, (seat, len(cards), trump)))
        events.append(_event_from_fields(CardsReceived, (seat, cards)))


def _has_cards(s: Board, seat: int) -> None:
    """``seat``'s hand is no longer empty: forget when it emptied (R18)."""
    if s.emptied[seat] >= 0:
        s.emptied = with_item(s.emptied, seat, -1)


def _players_out(s: Board, events: list[Event] | None) -> bool:
    """R18: with the talon empty, players without cards leave, in the order their hands
    emptied; then R20 may end the game (True if it did)."""
    hands = s.hands
    active = s.active
    # a seat out holds no cards, so an active seat's hand is empty exactly when more hands are
    # empty than seats are out
    if hands.count(0) <= s.n - active.bit_count():
        return False
    gone = [seat for seat in set_bits(active) if not hands[seat]]
    gone.sort(key=s.emptied.__getitem__)
    out = s.out
    for seat in gone:
        active &= ~(1 << seat)
        out = (*out, seat)
        if events is not None:
            events.append(PlayerOut(seat, len(out)))
    s.out = out
    s.active = active
    if not game_over(s):
        return False
    s.finished = True
    s.attackers = 0
    if events is not None:
        remaining = set_bits(active)
        events.append(GameOver(out, remaining[0] if len(remaining) == 1 else None))
    return True


def game_over(s: Board) -> bool:
    """R20/V7: at most one player holds cards, or only one team does."""
    if not s._k.team_size:
        return s.active.bit_count() <= 1
    teams = {s.teams[seat] for seat in set_bits(s.active)}
    return len(teams) <= 1


# --- interned events (events are values) ----------------------------------------------------------

_BOUTS_STARTED: Final[dict[tuple[int, int, int], BoutStarted]] = {}
_CARDS_DRAWN: Final[dict[tuple[int, int], CardsDrawn]] = {}


def bout_started(attacker: int, defender: int, limit: int) -> BoutStarted:
    key = (attacker, defender, limit)
    event = _BOUTS_STARTED.get(key)
    if event is None:
        event = _BOUTS_STARTED[key] = BoutStarted(attacker, defender, limit)
    return event


def cards_drawn(seat: int, number: int) -> CardsDrawn:
    """A draw without the face-up trump."""
    key = (seat, number)
    event = _CARDS_DRAWN.get(key)
    if event is None:
        event = _CARDS_DRAWN[key] = CardsDrawn(seat, number, None)
    return event
