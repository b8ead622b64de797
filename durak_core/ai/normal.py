"""Normal (seeds/004): keeps its trumps, throws in what the defender seems unable to answer
(inferred from takes and passes), and plays differently once the talon is empty.

With the talon empty and two players left, the other hand is exactly the cards not yet seen
(card counting, as a careful human does), so Normal then looks ahead with a small, fixed
endgame search (:data:`ENDGAME_NODES` nodes, deterministic) before falling back to its
heuristics. Hard searches the same endgame with its whole time budget.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from ..actions import Action
from ..events import Event
from ..state import GameState
from ..views import SeatView
from .base import DeterministicPlayer
from .cardinfo import CardTable
from .determinize import Determinizer
from .endgame import EndgameSolver, OutOfBudget
from .heuristics import smart_choice
from .memory import Memory, beat_chance, remember

#: Node budget of Normal's endgame look-ahead (a few tenths of a second at most).
ENDGAME_NODES = 8000


def counts_cards(view: SeatView) -> bool:
    """Talon empty, two seats left: every hidden card's place is known, and Normal searches."""
    return view.talon_size == 0 and len(view.active) == 2


def normal_choice(
    view: SeatView,
    history: Sequence[Event],
    *,
    lookahead: bool = True,
    legal: Sequence[Action] | None = None,
) -> Action:
    """Normal's action; ``legal``: choose among these of the view's legal actions only (Hard
    leaves out its known lapses, :func:`~durak_core.ai.hard.lapse`)."""
    if legal is None:
        legal = view.legal_actions
    mem = remember(view, history)
    if lookahead and counts_cards(view):
        action = endgame_lookahead(view, mem, ENDGAME_NODES)
        if action is not None and action in legal:
            return action
    att = [a.index for a, _ in view.table]
    dfn = [-1 if d is None else d.index for _, d in view.table]
    if view.seat == view.defender:
        p_beat = [0.0] * len(mem.ct.value)
    else:
        p_beat = beat_chance(view, mem, view.defender)
    opponents = sum(1 for t in view.active if view.teams[t] != view.teams[view.seat])
    return smart_choice(
        legal, mem.hand, att, dfn, view.taken, view.talon_size, mem.ct, p_beat, opponents
    )


def endgame_lookahead(view: SeatView, mem: Memory, nodes: int) -> Action | None:
    """The endgame solver's move within ``nodes`` nodes, or None if not even a shallow pass
    fits. Only valid when every hidden card's place is known (empty talon, two seats)."""
    state = Determinizer(view, mem, random.Random(0)).next()  # exactly one placement
    return endgame_reply(state, view.seat, mem.ct, nodes)


def endgame_reply(
    state: GameState, seat: int, ct: CardTable, nodes: int = ENDGAME_NODES
) -> Action | None:
    """Normal's look-ahead move for ``seat`` in a two-seat endgame ``state`` (every card's
    place known, so the same for anyone who holds the state: Hard predicts Normal with it),
    or None when Normal would fall back to its heuristics."""
    try:
        _, action, _ = EndgameSolver(seat, ct, None, nodes).solve(state.copy())
    except OutOfBudget:
        return None
    return action


class NormalPlayer(DeterministicPlayer):
    name = "normal"

    def quick(self, view: SeatView) -> bool:
        return not counts_cards(view)  # only the endgame look-ahead searches

    def decide(self, view: SeatView, history: Sequence[Event]) -> Action:
        return normal_choice(view, history)
