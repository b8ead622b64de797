"""The organiser's results of tables (issue #30 control 4; issue #47 "undo a result"): an
override of a table of the last round paired, replaced or taken back until the next round is
paired; each change logged in the tournament's channel (the host)."""

from __future__ import annotations

import logging

from bot.tournaments.logic import Override, OverrideKind, ResultError, SignupError
from bot.tournaments.storage import (
    PairedTable,
    RoundStatus,
    StoredRound,
    TournamentRecord,
    TournamentStatus,
)

from .controls import Controls
from .deciding import decider_round
from .formats import match_decided
from .host import Recorded
from .round_tables import close_match

log = logging.getLogger(__name__)


class ResultControls(Controls):
    async def override(
        self,
        tournament_id: str,
        table: int,
        kind: OverrideKind,
        player: int,
        by: int,
        round: int | None = None,
    ) -> tuple[TournamentRecord, Override, int, bool]:
        """The organiser's result of table ``table`` of round ``round`` (None: the last one
        paired) (issue #30 control 4): ``player`` wins it (a walkover) or forfeits it. The
        table's live game, if any, is closed unrecorded (no rating changes; the match's
        finished games stay as played) and told why; the standings use the override instead
        of the table's games. A recorded result may be replaced until the next round is
        paired. Returns the tournament, the result, the table's label and whether it replaced
        one. Refusals (``TournamentError``): not running, a choice of an earlier round, no
        such table, the player not seated there, its match already over."""
        async with self._lock(tournament_id):
            t, current, paired = await self._last_table(tournament_id, table, round)
            if player not in paired.seats:
                raise ResultError("override_seat", "the player does not sit there")
            replacing = paired.override is not None
            if not replacing and current.status is not RoundStatus.RUNNING:
                raise ResultError("override_done", "the match is over: its result stands")
            closed = await close_match(self.service, t, current.number, table)
            if not replacing:
                rounds = await self.store.tournament_rounds(tournament_id)
                entrants = await self.store.tournament_entrants(tournament_id)
                games = await self.store.tournament_games(tournament_id)
                if match_decided(t.settings, entrants, rounds, games, table, decider_round(t)):
                    raise ResultError("override_done", "the match is over: its result stands")
            decided = Override(current.number, table, kind, player)
            await self.store.override_tournament_table(
                tournament_id, decided, by, replace=replacing
            )
            log.info(
                "tournament %s round %d table %d: %s %s, recorded by %s",
                tournament_id, current.number, table, kind, player, by,
            )  # fmt: skip
        label = current.tables.index(paired) + 1
        recorded = Recorded(decided, label=label, by=by, thread_id=closed, replaced=replacing)
        self.host.overridden(t, recorded)
        self.host.changed(tournament_id)
        self.nudge(tournament_id)
        return t, decided, label, replacing

    async def undo_override(
        self, tournament_id: str, table: int, by: int, round: int | None = None
    ) -> tuple[TournamentRecord, int, int]:
        """Take back the organiser's result of a table of the last round paired: its match
        counts by its games again (a closed table opens again for the rest of the match).
        Refused (``TournamentError``) once the next round is paired: its pairing used the
        result. Returns the tournament, the round and the table's label."""
        async with self._lock(tournament_id):
            t, current, paired = await self._last_table(tournament_id, table, round, "undo_paired")
            if paired.override is None:
                raise ResultError("undo_none", "that table has no recorded result")
            bot_table = paired.bot_table_id
            live = bot_table is not None and self.service.registry.get(bot_table) is not None
            await self.store.undo_tournament_override(
                tournament_id, current.number, table, reopen=not live
            )
            log.info(
                "tournament %s round %d table %d: result taken back by %s",
                tournament_id, current.number, table, by,
            )  # fmt: skip
        label = current.tables.index(paired) + 1
        self.host.undone(t, current.number, label, by)
        self.host.changed(tournament_id)
        self.nudge(tournament_id)
        return t, current.number, label

    async def _last_table(
        self, tournament_id: str, table: int, round: int | None, stale: str = "override_stale"
    ) -> tuple[TournamentRecord, StoredRound, PairedTable]:
        """The running tournament, its last round paired and that round's table ``table``.
        A ``round`` before the last (a choice made earlier) is refused, saying which round
        its results belong to now."""
        t = await self.store.get_tournament(tournament_id)
        if t.status is not TournamentStatus.RUNNING:
            raise SignupError("override_not_running", "the tournament is not running")
        rounds = await self.store.tournament_rounds(tournament_id)
        if not rounds:
            raise ResultError("override_table", "no such table in the round being played")
        current = rounds[-1]
        if round is not None and round != current.number:
            raise ResultError(
                stale,
                f"round {round} is over and round {current.number} is paired",
                round=round,
                current=current.number,
            )
        paired = next((p for p in current.tables if p.number == table), None)
        if paired is None:
            raise ResultError("override_table", "no such table in the round being played")
        return t, current, paired
