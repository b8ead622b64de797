"""What the coach's commands need of the bot besides the cog's :class:`DurakClient`: its
reviews and hints. A protocol, so that neither ``bot.cogs`` nor this package imports
``bot.app``."""

from __future__ import annotations

from typing import Protocol

from bot.coach.reviews import Reviews
from bot.cogs.client import DurakClient


class CoachClient(DurakClient, Protocol):
    @property
    def reviews(self) -> Reviews: ...
