"""The players' controls of a running tournament: withdrawing (issue #30; issue #47 item 6:
one truth about the match being played), joining late and asking for a bye (issue #47)."""

from __future__ import annotations

from enum import StrEnum

from bot.tournaments.logic import Format, Override, OverrideKind, SignupError
from bot.tournaments.storage import EntrantRecord, TournamentRecord, TournamentStatus
from bot.tournaments.storage.tournament_entrants import RESTS

from .controls import Controls
from .deciding import decider_round
from .formats import field_size
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
            await self._active(tournament_id, user_id)
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

    async def _active(
        self, tournament_id: str, user_id: int
    ) -> tuple[list[EntrantRecord], EntrantRecord]:
        """The entrants, and ``user_id``'s record; refused unless they are an entrant still
        in (not withdrawn)."""
        entrants = await self.store.tournament_entrants(tournament_id)
        me = next((e for e in entrants if e.user_id == user_id), None)
        if me is None:
            raise SignupError("not_joined", "not an entrant", player=user_id)
        if me.withdrawn:
            raise SignupError("already_withdrawn", "withdrawn already", player=user_id)
        return entrants, me

    async def late_join(self, tournament_id: str, user_id: int, rating: float) -> int:
        """A player joins a running Swiss or round robin (issue #47 "late join"), to play
        from the next round to be paired, while that round is at most the tournament's
        ``late_join`` round; they get one bye of half a win for the rounds missed (lichess).
        Returns that first round. Refusals (``SignupError``): single elimination, too late,
        a round robin whose schedule has no free place, joined already, full."""
        async with self._lock(tournament_id):
            t = await self.store.get_tournament(tournament_id)
            if t.status is not TournamentStatus.RUNNING:
                raise SignupError("started", "the tournament has already started")
            if t.settings.format is Format.SINGLE_ELIMINATION:
                raise SignupError("late_elimination", "a bracket takes nobody once drawn")
            entrants = await self.store.tournament_entrants(tournament_id)
            if any(e.user_id == user_id for e in entrants):
                raise SignupError("already_joined", "joined already", player=user_id)
            first = t.current_round + 1
            on_time = [e for e in entrants if e.joined_round == 1]
            last = t.settings.rounds_for(len(on_time))
            until = late_join_until(t)
            if first > min(until, last) or decider_round(t) is not None:
                raise SignupError("late_closed", "too late to join", until=until)
            if t.settings.format is Format.ROUND_ROBIN and (
                len(on_time) % 2 == 0 or len(on_time) < len(entrants)
            ):
                raise SignupError("late_round_robin", "the schedule has no free place")
            await self.store.add_late_entrant(tournament_id, user_id, rating, first)
        self.host.changed(tournament_id)
        self.nudge(tournament_id)
        return first

    async def request_bye(self, tournament_id: str, user_id: int) -> int:
        """A Swiss player sits out the next round to be paired, for a bye of half a win (as
        a late entrant's); at most ``bye_limit`` times in the event. Returns that round.
        Refusals (``SignupError``): not a Swiss, not running, not an active entrant, no round
        left, asked already, the limit reached, too few left to seat."""
        async with self._lock(tournament_id):
            t = await self.store.get_tournament(tournament_id)
            if t.status is not TournamentStatus.RUNNING:
                raise SignupError("not_running", "the tournament is not running")
            if t.settings.format is not Format.SWISS:
                raise SignupError("bye_swiss", "only a Swiss gives byes on request")
            entrants, me = await self._active(tournament_id, user_id)
            rnd = t.current_round + 1
            last = t.settings.rounds_for(field_size(entrants))
            if rnd > last or decider_round(t) is not None:
                raise SignupError("bye_no_round", "no round is left to sit out")
            if rnd in me.rests:
                raise SignupError("bye_twice", "asked already", round=rnd)
            limit = bye_limit(t)
            if len(me.rests) >= limit:
                raise SignupError("bye_limit", "no bye left", limit=limit)
            seated = [
                e for e in entrants
                if not e.withdrawn and e.joined_round <= rnd and rnd not in e.rests
            ]  # fmt: skip
            if len(seated) - 1 < t.settings.min_entrants():
                raise SignupError("bye_too_few", "too few would be left to seat", round=rnd)
            stored = t.options.get(RESTS)
            rests: dict[str, object] = dict(stored) if isinstance(stored, dict) else {}
            rests[str(user_id)] = [*me.rests, rnd]
            await self.store.set_tournament_options(tournament_id, {RESTS: rests})
        self.host.changed(tournament_id)
        return rnd


#: The tournament options of these controls: the last round a late entrant may start with
#: (0: no late join), and how many byes a player may ask for in the event.
LATE_JOIN, BYE_LIMIT = "late_join", "bye_limit"
LATE_JOIN_DEFAULT, BYE_LIMIT_DEFAULT = 2, 1


def late_join_until(t: TournamentRecord) -> int:
    value = t.options.get(LATE_JOIN)
    return LATE_JOIN_DEFAULT if not isinstance(value, int) else value


def bye_limit(t: TournamentRecord) -> int:
    value = t.options.get(BYE_LIMIT)
    return BYE_LIMIT_DEFAULT if not isinstance(value, int) else value
