"""Easy (seeds/004): attacks low and defends with the smallest card that wins."""

from __future__ import annotations

from collections.abc import Sequence

from ..actions import Action
from ..cards import mask_of
from ..events import Event
from ..views import SeatView
from .cardinfo import card_table
from .heuristics import easy_choice


class EasyPlayer:
    name = "easy"

    def __init__(self, seed: int) -> None:
        self.seed = seed  # Easy is deterministic; the seed is kept for the common interface

    def choose(self, view: SeatView, history: Sequence[Event]) -> Action:
        legal = view.legal_actions
        if not legal:
            raise ValueError("choose() needs a seat with legal actions")
        if len(legal) == 1:
            return legal[0]
        att = [a.index for a, _ in view.table]
        dfn = [-1 if d is None else d.index for _, d in view.table]
        ct = card_table(view.rules, view.trump)
        return easy_choice(legal, mask_of(view.hand), att, dfn, ct)
