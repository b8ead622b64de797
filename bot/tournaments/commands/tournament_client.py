"""What the tournament commands need of the bot besides the cog's :class:`DurakClient`: the
runner and its Discord side. A protocol, so that neither ``bot.cogs`` nor this package imports
``bot.app``."""

from __future__ import annotations

from typing import Protocol

from bot.cogs.client import DurakClient
from bot.tournaments.messages.tournament_host import DiscordEventHost
from bot.tournaments.runner.tournament_runner import TournamentRunner


class TournamentClient(DurakClient, Protocol):
    @property
    def tournaments(self) -> TournamentRunner: ...

    @property
    def event_host(self) -> DiscordEventHost: ...
