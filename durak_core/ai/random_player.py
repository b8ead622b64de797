"""A uniformly random legal player, for calibration."""

from __future__ import annotations

from collections.abc import Sequence

from ..actions import Action
from ..events import Event
from ..views import SeatView
from .base_impl import decision_rng


class RandomPlayer:
    name = "random"

    def __init__(self, seed: int) -> None:
        self.seed = seed

    def choose(self, view: SeatView, history: Sequence[Event]) -> Action:
        legal = view.legal_actions
        if not legal:
            raise ValueError("choose() needs a seat with legal actions")
        return decision_rng(self.seed, view).choice(legal)
