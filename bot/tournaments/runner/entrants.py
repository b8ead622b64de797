"""The players' controls of a running tournament: withdrawing (issue #30; issue #47 item 6:
one truth about the match being played)."""

from __future__ import annotations

from enum import StrEnum

from bot.tournaments.logic import Override, OverrideKind, SignupError
from bot.tournaments.storage import TournamentStatus

from .controls import Controls
from .round_tables import forfeit_seat


class Withdrawn(StrEnum):
    """What a withdrawal did to the match being played (the answer's catalogue key)."""

    PAIRED_NO_MORE = "tournament.ok.withdrew"  # no match being played
    WALKOVER = "tournament.ok.withdrew_walkover"  # its table closed: the others win
    AI_FINISHES = "tournament.ok.withdrew_ai"  # an AI plays the seat to the match's end


class EntrantControls(Controls):
    async def withdraw(self, tournament_id: str, user_id: int) -> Withdrawn:
        """A player leaves a running tournament (or the organiser takes them off): paired no
        more. Their match being played (``forfeit_seat``): at two seats a walkover, its table
        closed (in a Swiss or a round robin recorded as their forfeit); at a larger table an
        AI plays their seat to its end, for nobody. Its table is told; the answer says which
        (issue #47 item 6: one truth). Refusals (``SignupError``): not an entrant, already
        withdrawn."""
        async with self._lock(tournament_id):
            t = await self.store.get_tournament(tournament_id)
            entrants = await self.store.tournament_entrants(tournament_id)
            entrant = next((e for e in entrants if e.user_id == user_id), None)
            if entrant is None:
                raise SignupError("not_joined", "not an entrant", player=user_id)
            if entrant.withdrawn:
                raise SignupError("already_withdrawn", "withdrawn already", player=user_id)
            await self.store.withdraw_entrant(tournament_id, user_id)
            live = None
            if t.status is TournamentStatus.RUNNING:
                live = await forfeit_seat(self.service, t, user_id)
            if live is not None and live.closed and not live.match.decisive:
                forfeit = Override(
                    live.match.round, live.match.table, OverrideKind.FORFEIT, user_id
                )
                await self.store.override_tournament_table(tournament_id, forfeit, user_id)
        outcome = Withdrawn.PAIRED_NO_MORE
        if live is not None:
            self.host.withdrew(t, live.thread, user_id, closed=live.closed)
            outcome = Withdrawn.WALKOVER if live.closed else Withdrawn.AI_FINISHES
        self.host.changed(tournament_id)
        self.nudge(tournament_id)
        return outcome
