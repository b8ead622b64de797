"""Shared plumbing of the AI levels: per-decision seeding and the legal-action guard."""

from __future__ import annotations

import random

from ..views import SeatView


def decision_rng(seed: int, view: SeatView) -> random.Random:
    """A generator seeded by (seed, seat, position): the same decision for the same view and
    history, whatever was asked before (the bot may restart and re-create players)."""
    return random.Random(f"{seed}:{view.seat}:{view.version}:{view.bout}")
