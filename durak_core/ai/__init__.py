"""AI players (see ``docs/ai.md``)."""

from .base import Budget, Clock, Player

__all__ = ["Budget", "Clock", "Player"]
