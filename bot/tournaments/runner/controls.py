"""What the runner's controls share (:class:`Controls`): its storage, the table service, the
Discord host, one lock per tournament, and the nudge that makes it advance. The organiser's
and the players' controls are mixins on it (``results``, ``entrants``); the runner itself
(``tournament_runner``) plays the rounds."""

from __future__ import annotations

import asyncio

from bot.tables.service import TableService
from bot.tournaments.storage import TournamentStore

from .host import EventHost


class Controls:
    service: TableService
    store: TournamentStore
    host: EventHost

    def _lock(self, tournament_id: str) -> asyncio.Lock:
        raise NotImplementedError

    def nudge(self, tournament_id: str) -> None:
        raise NotImplementedError
