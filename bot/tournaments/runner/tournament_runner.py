"""The tournament runner: sign-up to the start (by hand or at the deadline), round after round
until the last, cancelling, and resuming all of it after a restart.

Everything it decides comes from storage: the rounds paired, the tables opened, the games
recorded (the standings and a round's end are functions of them, ``bot.tournaments``). Only
"deal the next game of this match" is the table's own state (its series), saved with the table.
One lock per tournament runs its steps one at a time.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta

from bot.tables.service import TableService
from bot.tables.table import Table
from bot.tables.ticker import Ticker
from bot.tournaments.logic import (
    Pairing,
    PlayedGame,
    Signup,
    SignupError,
    TournamentError,
    check_start,
)
from bot.tournaments.storage import (
    EntrantRecord,
    RoundStatus,
    StoredRound,
    TournamentRecord,
    TournamentStatus,
    TournamentStore,
)

from .check_in import ANNOUNCED, HOUR_REMINDED, announced, hour_left, window_open
from .coalesce import Coalesced
from .deciding import DECIDER_ROUND, decider_round, deciding_pairing, wants_decider
from .entrants import EntrantControls
from .formats import field_size, next_pairing, round_over
from .host import EventHost, ThreadsRefused
from .result_controls import ResultControls
from .round_tables import (
    close_tables,
    closing_notices,
    live_tables,
    round_threads,
    run_round,
)

log = logging.getLogger(__name__)

#: How often deadlines are looked at and running tournaments nudged (a game recorded late, a
#: thread Discord refused).
TICK_SECONDS = 2.0
#: A tournament whose tables Discord refuses (a permission the organiser must grant) tries
#: again this rarely by itself; a change to its channel makes it try at once.
BLOCKED_RETRY_SECONDS = 60.0


#: The tournament option listing the tables a cancel closes and must tell (their thread and
#: table message), until they are told; a restart within CLOSING_KEPT tells them again.
CLOSING = "closing_notices"
CLOSING_KEPT = timedelta(days=2)

#: The tournament option that holds it between rounds (``TournamentRunner.pause``).
PAUSED = "paused"


def stored_notices(t: TournamentRecord) -> list[tuple[int, int | None]]:
    """The tables a cancel closed and has not told yet (``CLOSING``)."""
    raw = t.options.get(CLOSING)
    pairs = raw if isinstance(raw, list) else []
    return [(int(a), None if b is None else int(b)) for a, b in pairs]


#: The break between rounds (issue #47): its length (the organiser's option), and the round
#: it leads to with the time it ends (Unix seconds), stored when it starts.
BREAK, BREAK_ROUND, BREAK_UNTIL = "break_minutes", "break_round", "break_until"


def break_minutes(t: TournamentRecord) -> int:
    value = t.options.get(BREAK)
    return value if isinstance(value, int) else 0


def is_paused(t: TournamentRecord) -> bool:
    return bool(t.options.get(PAUSED))


def next_round(
    t: TournamentRecord,
    entrants: list[EntrantRecord],
    rounds: list[StoredRound],
    games: list[PlayedGame],
) -> tuple[Pairing | None, bool]:
    """The round to pair next (None: the tournament is over), and whether it is a new
    deciding game of the joint leaders (first place still shared after every tie-break)."""
    decider = decider_round(t)
    pairing = next_pairing(t.settings, entrants, rounds, games, decider)
    if pairing is None and decider is None and wants_decider(t.options, t.settings):
        pairing = deciding_pairing(t.settings, entrants, rounds, games)
        return pairing, pairing is not None
    return pairing, False


class TournamentRunner(ResultControls, EntrantControls):
    def __init__(
        self,
        service: TableService,
        host: EventHost,
        clock: Callable[[], float] = time.time,
        tick_seconds: float = TICK_SECONDS,
    ) -> None:
        self.service = service
        #: The tournaments' records, in the table service's storage.
        self.store = TournamentStore(service.storage)
        self.host = host
        self.clock = clock
        self.tick_seconds = tick_seconds
        self._locks: dict[str, asyncio.Lock] = {}
        self._advances = Coalesced(self.advance, "tournament")
        self._ticker = Ticker(tick_seconds, self.tick)
        #: What the public messages last heard of each tournament (games, rounds, status).
        self._seen: dict[str, tuple[int, int, str]] = {}
        #: Tournaments whose tables cannot open: why (``ThreadsRefused.missing``), when last
        #: tried, and their channel.
        self._blocked: dict[str, tuple[str, float, int]] = {}
        service.core.matches = self

    def _lock(self, tournament_id: str) -> asyncio.Lock:
        return self._locks.setdefault(tournament_id, asyncio.Lock())

    # -- the table service's hook -----------------------------------------------------------

    def game_finished(self, table: Table) -> None:
        if table.match is not None:
            self.nudge(table.match.tournament_id)

    def nudge(self, tournament_id: str) -> None:
        """Run :meth:`advance` soon; requests that come while one runs make one more run."""
        self._advances.want(tournament_id)

    # -- commands ---------------------------------------------------------------------------

    async def start(self, tournament_id: str) -> TournamentRecord:
        """Close the sign-up and play the first round. Entrants who left the server, and in a
        check-in window those who did not check in, are taken off once the start is sure; a
        ``SignupError`` (too few, too few checked in, too many rounds) changes nothing."""
        async with self._lock(tournament_id):
            t = await self.store.get_tournament(tournament_id)
            if t.status is not TournamentStatus.SIGNUP:
                raise SignupError("started", "the tournament has already started")
            entrants = await self.store.tournament_entrants(tournament_id)
            present = await self.host.present(t.guild_id, [e.user_id for e in entrants])
            kept = [e for e in entrants if e.user_id in present]
            if window_open(t, datetime.fromtimestamp(self.clock(), UTC)):
                confirmed = [e for e in kept if e.checked_in]
                if len(confirmed) < t.settings.min_entrants():  # a refused start drops nobody
                    raise SignupError(
                        "too_few_checked_in",
                        "too few have checked in",
                        need=t.settings.min_entrants(),
                        count=len(confirmed),
                    )
                kept = confirmed  # not confirmed in the check-in window: dropped
            if t.settings.rounds is not None:  # the rematch check's search, off the loop
                await asyncio.to_thread(t.settings.fresh_rounds, len(kept), t.settings.rounds)
            check_start(Signup(t.settings, tuple(e.entrant for e in kept)))
            for e in entrants:  # only now: a refused start changes nothing (issue #47 item 3)
                if e not in kept:
                    await self.store.remove_entrant(tournament_id, e.user_id)
            t = await self.store.set_tournament_status(tournament_id, TournamentStatus.RUNNING)
        self.host.changed(tournament_id)
        self.nudge(tournament_id)
        return t

    async def cancel(self, tournament_id: str) -> TournamentRecord:
        """Stop the tournament and close its tables whose match is not over, each told why:
        the games being played are not recorded (no rating changes); the games already
        finished count as any game. What each table must be told is stored first, so a bot
        killed meanwhile tells it after its restart (issue #47 item 10)."""
        async with self._lock(tournament_id):
            tables = live_tables(self.service, tournament_id)
            notices = closing_notices(tables)
            await self.store.set_tournament_options(tournament_id, {CLOSING: notices})
            t = await self.store.set_tournament_status(tournament_id, TournamentStatus.CANCELLED)
            await close_tables(self.service, tables)
        self._blocked.pop(tournament_id, None)
        self.host.tables_cancelled(t, notices)
        self.host.changed(tournament_id)
        return t

    async def pause(self, tournament_id: str, paused: bool) -> tuple[TournamentRecord, bool]:
        """Pause (``paused``) or resume a running tournament: paused, the round being played
        goes on to its end and the next is not paired until it is resumed; after the last
        round it finishes all the same. Stored with the tournament (a restart keeps it).
        Returns it, and whether the round being played is its last planned one. Refusals
        (``SignupError``): not running, already so."""
        async with self._lock(tournament_id):
            t = await self.store.get_tournament(tournament_id)
            if t.status is not TournamentStatus.RUNNING:
                raise SignupError("not_running", "the tournament is not running")
            if is_paused(t) == paused:
                code = "already_paused" if paused else "not_paused"
                raise SignupError(code, "paused already" if paused else "not paused")
            t = await self.store.set_tournament_options(tournament_id, {PAUSED: paused})
            entrants = await self.store.tournament_entrants(tournament_id)
            played = max(t.current_round, 1)  # round 1 is paired right after the start
        self.host.changed(tournament_id)
        self.nudge(tournament_id)
        return t, played >= t.settings.rounds_for(field_size(entrants))

    # -- running ----------------------------------------------------------------------------

    async def advance(self, tournament_id: str) -> None:
        """Whatever is due: open the round's missing tables, deal next games, finish a round
        whose matches are all over, pair the next one, finish the tournament after the last."""
        async with self._lock(tournament_id):
            changed = await self._advance(tournament_id)
        if changed:
            self.host.changed(tournament_id)

    async def _advance(self, tournament_id: str) -> bool:
        store = self.store
        changed = False
        while True:  # one round after another, while each is complete
            t = await store.get_tournament(tournament_id)
            if t.status is not TournamentStatus.RUNNING:
                return changed
            rounds = await store.tournament_rounds(tournament_id)
            games = await store.tournament_games(tournament_id)
            entrants = await store.tournament_entrants(tournament_id)
            seen = (len(games), len(rounds), str(t.status))
            changed = changed or self._seen.get(tournament_id) != seen
            self._seen[tournament_id] = seen
            current = rounds[-1] if rounds else None
            decider = decider_round(t)
            if current is not None and current.status is RoundStatus.RUNNING:
                if not round_over(t.settings, entrants, rounds, games, decider):
                    await self._run_round(t, current)
                    return changed
                await store.finish_round(tournament_id, current.number)
                changed = True
                continue
            # paused, or in the break between rounds: the next round waits; after the last
            # round nothing waits (issue #47 item 11): the tournament finishes
            coming = next_round(t, entrants, rounds, games)[0]
            if coming is not None and (is_paused(t) or await self._in_break(t, rounds)):
                return changed
            if coming is not None and await self._withdraw_absent(t, entrants):
                entrants = await store.tournament_entrants(tournament_id)
            pairing, deciding = next_round(t, entrants, rounds, games)
            if pairing is not None and deciding:  # first place shared: the leaders play on
                await store.set_tournament_options(tournament_id, {DECIDER_ROUND: pairing.round})
            if pairing is None:  # every round played, a champion, or too few players left
                log.info("tournament %s is over", tournament_id)
                await store.set_tournament_status(tournament_id, TournamentStatus.FINISHED)
                return True
            await store.save_round(tournament_id, pairing)
            changed = True

    async def _in_break(self, t: TournamentRecord, rounds: list[StoredRound]) -> bool:
        """Whether the break between rounds (the ``break_minutes`` option) still runs: it
        starts when the last round finished, told once in the channel and the round's
        threads with a countdown (stored: a restart neither tells it again nor shortens it)."""
        minutes = break_minutes(t)
        if not minutes or not rounds:
            return False
        coming = rounds[-1].number + 1
        until = t.options.get(BREAK_UNTIL)
        if t.options.get(BREAK_ROUND) != coming or not isinstance(until, int | float):
            ended = rounds[-1].finished_at or datetime.fromtimestamp(self.clock(), UTC)
            until = int(ended.timestamp()) + 60 * minutes
            t = await self.store.set_tournament_options(
                t.tournament_id, {BREAK_ROUND: coming, BREAK_UNTIL: until}
            )
            if until > self.clock():
                threads = round_threads(self.service, t.tournament_id, coming - 1)
                self.host.break_started(t, coming, int(until), threads)
        return self.clock() < until

    async def _run_round(self, t: TournamentRecord, current: StoredRound) -> None:
        """Open the round's missing tables and deal next games. A refusal only the organiser
        can lift is said once (in the channel, on the standings) and then tried again rarely,
        not at every tick; the first table that opens again says the tournament goes on."""
        tid = t.tournament_id
        blocked = self._blocked.get(tid)
        may_open = blocked is None or self.clock() - blocked[1] >= BLOCKED_RETRY_SECONDS
        try:
            await run_round(self.service, self.host, t, current, open_missing=may_open)
        except ThreadsRefused as exc:
            self._blocked[tid] = (exc.missing, self.clock(), t.channel_id)
            if blocked is None or blocked[0] != exc.missing:
                log.warning("tournament %s cannot open its tables: %s", tid, exc.missing)
                self.host.blocked(t, exc.missing)
            return
        if may_open and blocked is not None:
            del self._blocked[tid]
            log.info("tournament %s opens its tables again", tid)
            self.host.blocked(t, None)

    def channel_changed(self, channel_id: int) -> None:
        """The server changed a channel (its permissions, say): tournaments blocked there try
        again now."""
        for tid, (missing, _, channel) in list(self._blocked.items()):
            if channel == channel_id:
                self._blocked[tid] = (missing, float("-inf"), channel)
                self.nudge(tid)

    async def _withdraw_absent(self, t: TournamentRecord, entrants: list[EntrantRecord]) -> bool:
        """Entrants who left the server are withdrawn before a round is paired (their results
        stay); True if anyone was."""
        active = [e.user_id for e in entrants if not e.withdrawn]
        present = await self.host.present(t.guild_id, active)
        gone = [user for user in active if user not in present]
        for user in gone:
            await self.store.withdraw_entrant(t.tournament_id, user)
        return bool(gone)

    # -- deadlines and restarts -------------------------------------------------------------

    async def resume(self) -> None:
        """After a restart: every running tournament goes on; deadlines are watched again. A
        tournament cancelled just before the bot stopped finishes closing its tables and
        telling them (issue #47 item 10)."""
        for t in await self.store.active_tournaments():
            if t.status is TournamentStatus.RUNNING:
                self.nudge(t.tournament_id)
        since = datetime.fromtimestamp(self.clock(), UTC) - CLOSING_KEPT
        for t in await self.store.cancelled_since(since):
            tables = live_tables(self.service, t.tournament_id)  # restored: not closed yet
            await close_tables(self.service, tables)
            told = stored_notices(t)
            notices = [*told, *(n for n in closing_notices(tables) if n not in told)]
            if notices:
                self.host.tables_cancelled(t, notices)
        self.ensure_ticker()

    def ensure_ticker(self) -> None:
        self._ticker.ensure()

    async def tick(self) -> None:
        """Start the tournaments whose sign-up deadline has come (one that cannot start is
        cancelled: the sign-up message says why); nudge the running ones."""
        now = datetime.fromtimestamp(self.clock(), UTC)
        for t in await self.store.active_tournaments():
            if t.status is TournamentStatus.RUNNING:
                self.nudge(t.tournament_id)
                continue
            t = await self._check_in_reminders(t, now)
            deadline = t.signup_deadline
            if deadline is None or deadline > now:
                continue
            try:
                await self.start(t.tournament_id)
            except TournamentError as exc:  # too few entrants: cancelled, and everyone told why
                log.info("tournament %s cannot start at its deadline: %s", t.tournament_id, exc)
                await self.cancel(t.tournament_id)
                self.host.deadline_failed(t, exc)

    async def _check_in_reminders(self, t: TournamentRecord, now: datetime) -> TournamentRecord:
        """The check-in window's opening, then its last hour: each said once (stored, so a
        restart does not say it again)."""
        tid = t.tournament_id
        if window_open(t, now) and not announced(t):
            t = await self.store.set_tournament_options(tid, {ANNOUNCED: True})
            self.host.check_in_opened(t)
        if hour_left(t, now) and not t.options.get(HOUR_REMINDED):
            t = await self.store.set_tournament_options(tid, {HOUR_REMINDED: True})
            self.host.check_in_closing(t)
        return t

    async def close(self) -> None:
        self._ticker.cancel()
        await self._advances.close()
