"""What the turn timer plays, and for whom: the least harmful legal action of an awaited human."""

from __future__ import annotations

from bot.domain import TableStatus
from durak_core import Action, GameState, PublicView
from durak_core.actions import ATTACK, PASS, TAKE

from .table import Table


def default_action(state: GameState, seat: int, public: PublicView | None = None) -> Action | None:
    """What the turn timer plays for ``seat``: the least harmful legal action. The defender
    takes; an attacker is done; a main attacker who must lead plays its lowest non-trump card
    (the lowest trump only when it holds nothing else). None when the seat has nothing to
    answer (e.g. an attacker who could throw in while the defender is still to move)."""
    legal = state.legal_actions(seat)
    for kind in (TAKE, PASS):
        for action in legal:
            if action.kind == kind:
                return action
    if (public if public is not None else state.public_view()).table:
        return None  # throw-ins are optional: never play a card for someone
    attacks = [a for a in legal if a.kind == ATTACK]
    if not attacks:
        return None
    trump = state.trump  # a Suit, or None without trump
    return min(
        attacks,
        key=lambda a: (trump is not None and a.card.suit == trump, a.card.rank),  # type: ignore[attr-defined]
    )


def timed_seats(table: Table) -> list[int]:
    """Awaited human-played seats for which the timer has something to do."""
    state = table.state
    if state is None or table.status != TableStatus.RUNNING or state.finished:
        return []
    public = table.public_view()
    return [
        seat
        for seat in public.awaiting
        if not table.ai_controlled(seat) and default_action(state, seat, public) is not None
    ]
