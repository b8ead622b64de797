"""Easy (seeds/004): attacks low and defends with the smallest card that wins."""

from __future__ import annotations

from collections.abc import Sequence

from ..actions import Action
from ..cards import mask_of
from ..events import Event
from ..views import SeatView
from .base import DeterministicPlayer
from .cardinfo import card_table
from .heuristics import easy_choice


class EasyPlayer(DeterministicPlayer):
    name = "easy"

    def decide(self, view: SeatView, history: Sequence[Event]) -> Action:
        att = [a.index for a, _ in view.table]
        dfn = [-1 if d is None else d.index for _, d in view.table]
        ct = card_table(view.rules, view.trump)
        return easy_choice(view.legal_actions, mask_of(view.hand), att, dfn, ct)
