"""Normal (seeds/004): keeps its trumps, throws in what the defender seems unable to answer
(inferred from takes and passes), and plays differently once the talon is empty."""

from __future__ import annotations

from collections.abc import Sequence

from ..actions import Action
from ..events import Event
from ..views import SeatView
from .heuristics import smart_choice
from .memory import beat_chance, remember


def normal_choice(view: SeatView, history: Sequence[Event]) -> Action:
    legal = view.legal_actions
    mem = remember(view, history)
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


class NormalPlayer:
    name = "normal"

    def __init__(self, seed: int) -> None:
        self.seed = seed  # Normal is deterministic; the seed is kept for the common interface

    def choose(self, view: SeatView, history: Sequence[Event]) -> Action:
        legal = view.legal_actions
        if not legal:
            raise ValueError("choose() needs a seat with legal actions")
        if len(legal) == 1:
            return legal[0]
        return normal_choice(view, history)
