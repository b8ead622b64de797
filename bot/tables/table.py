"""A table at runtime: seats, the engine state of the current game, the series, one lock.

No Discord here: seats are user ids or AI levels; messages are ids. Legality lives in the engine;
this module only holds what the bot must remember between actions.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Literal

from bot.domain import ACTIVE_STATUSES, TableStatus
from bot.storage import RatingChange
from durak_core import Action, Card, Event, GameState, PublicView, RuleSet, SeatView, Series
from durak_core.ai import Level, Player
from durak_core.rules import MAX_SEATS as MAX_SEATS  # R3, re-exported
from durak_core.rules import MIN_SEATS as MIN_SEATS
from durak_core.snapshot import SnapshotWriter
from durak_core.views import seat_view

#: Who plays a seat now (not stored: derived from the seat and the table's away/left sets).
SeatPlayer = Literal["human", "ai", "away", "left"]
#: The level that plays a human's seat while its owner is away or has left (shown by name).
STAND_IN_LEVEL = Level.NORMAL


@dataclass(frozen=True, slots=True)
class Note:
    """A line of the table's public log that is not an engine event: who leads and why (R8),
    who holds the trump card (R6), a player leaving or coming back. ``at`` is the number of
    events before it, so notes interleave with the engine's events in order."""

    at: int
    key: str  # the catalogue key ``note.<key>``
    seat: int
    card: Card | None = None


@dataclass(frozen=True, slots=True)
class Seat:
    """A human (``user_id``) or an AI (``ai_level``) with the name shown at the table."""

    name: str
    user_id: int | None = None
    ai_level: Level | None = None
    #: An AI seat that was a human's until its owner left a game (named after the owner).
    replaced: bool = False
    #: The human's Discord avatar hash (None: none, or not known), for the Activity's seats.
    avatar: str | None = None

    @property
    def is_ai(self) -> bool:
        return self.ai_level is not None


@dataclass(frozen=True, slots=True)
class MatchOf:
    """A tournament table: where its games count (tournament, round, table) and how long its
    match lasts: ``games`` games, or (0) until the series ends, someone having been the Durak
    ``rules.series_losses`` times (V17)."""

    tournament_id: str
    round: int
    table: int
    games: int = 1
    #: Single elimination: a tied match goes on, one deciding game after another.
    decisive: bool = False

    def over(self, series: Series | None) -> bool:
        if series is None:
            return False
        done = series.finished if self.games == 0 else series.games >= self.games
        if done and self.decisive:  # 2 seats: tied exactly when both lost as often
            fewest = sorted(series.losses)
            return fewest[0] != fewest[1]
        return done


@dataclass
class Table:
    """One table in one channel (or thread). Mutate only under ``lock``."""

    table_id: str
    guild_id: int
    channel_id: int  # where the table lives: the channel, or its own thread
    host_id: int
    rules: RuleSet
    max_seats: int
    turn_timer: int  # seconds; 0 = no timer
    seats: list[Seat] = field(default_factory=list)
    status: TableStatus = TableStatus.LOBBY
    thread_id: int | None = None
    lobby_message_id: int | None = None
    table_message_id: int | None = None
    #: Bumped by every change; saved with the table and carried by every button (staleness).
    version: int = 0
    state: GameState | None = None
    #: Every event of the current game, in order (AI history, the "last actions" lines).
    events: list[Event] = field(default_factory=list)
    series: Series | None = None
    series_number: int = 1
    seed: int | None = None
    started_at: datetime | None = None
    #: When the awaited players must act (Unix seconds), or None.
    deadline: float | None = None
    #: Seats whose actions the turn timer made (shown in the public log).
    timed_out: list[int] = field(default_factory=list)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock, repr=False, compare=False)
    #: AI players of the current game, by seat (rebuilt after a restart).
    ai_players: dict[int, Player] = field(default_factory=dict, repr=False, compare=False)
    #: Human seats a Normal AI plays after 2 consecutive timer expiries, until "I'm back".
    away: set[int] = field(default_factory=set)
    #: Seats whose owner did something at the table during the current game. At a tournament
    #: table a game counts for a seat's owner only if they played some of it (issue #30).
    present: set[int] = field(default_factory=set)
    #: Seats of players withdrawn from the tournament: an AI plays them to the end of the
    #: match, and those games never count for the player.
    forfeit: set[int] = field(default_factory=set)
    #: Human seats whose owner left mid-game: an AI plays them to the end of this game (the
    #: result is still the owner's).
    left: set[int] = field(default_factory=set)
    #: Consecutive timer expiries per seat (reset when the owner acts).
    expiries: dict[int, int] = field(default_factory=dict)
    #: "Done for this bout": seat → the bout number it was set in. While it holds, the table
    #: passes for the seat whenever passing is legal (R15); the seat's own throw-in clears it.
    auto_pass: dict[int, int] = field(default_factory=dict)
    #: Public log lines of the current game that are not engine events (see :class:`Note`).
    notes: list[Note] = field(default_factory=list)
    #: Whether any seated player may add or remove AI seats in the lobby (else the host only).
    anyone_adds_ai: bool = False
    #: A practice table: each hand offers Hard's hint, and its games are recorded as assisted
    #: (unrated, no tally).
    practice: bool = False
    #: Service-clock time of the last human action (for the abandonment timeout).
    last_human_action: float = 0.0
    #: Language of the public messages (catalogue code, e.g. "ru"): `/durak new language:` or
    #: the guild's locale at creation; None = English (tables saved before the field existed).
    language: str | None = None
    #: Set for a table of a tournament round (its games link to it; no rematch, no abandonment).
    match: MatchOf | None = None
    #: The finished game's rating change per human seat, as recording it returned them (None:
    #: not recorded yet, or recorded before, e.g. by another process). Not saved: a finished
    #: table is not restored.
    ratings: Mapping[int, RatingChange] | None = None
    #: The public view of ``state`` (a state is immutable: computed once, read by the timer,
    #: the embed and the picture of the same change).
    _public: tuple[GameState, PublicView] | None = field(
        default=None, init=False, repr=False, compare=False
    )
    #: The running bout's attack cards on the table from a version on: ((game, bout),
    #: [(version, count)]), so a Take clicked on an older hand knows what that hand showed
    #: (not saved: after a restart, a click on a hand older than the restored version is
    #: refused as stale once, with the fresh hand).
    _attacks: tuple[tuple[int, int], list[tuple[int, int]]] = field(
        default_factory=lambda: ((0, -1), []), init=False, repr=False, compare=False
    )
    #: Writes ``state``'s snapshot for each save, its log's text kept from the previous one.
    snapshot: SnapshotWriter = field(
        default_factory=SnapshotWriter, init=False, repr=False, compare=False
    )

    def public_view(self) -> PublicView:
        """``state.public_view()``, computed once per state."""
        state = self.state
        assert state is not None
        cached = self._public
        if cached is None or cached[0] is not state:
            cached = self._public = (state, state.public_view())
        return cached[1]

    def seat_view(self, seat: int) -> SeatView:
        """``state.view(seat)``, sharing the public part computed once per state."""
        state = self.state
        assert state is not None
        return seat_view(state, seat, self.public_view())

    def track_attacks(self) -> None:
        """After a change (``version`` bumped): note the bout's attack cards if they changed."""
        if self.state is None:
            return
        bout, marks = self._attacks
        if bout != (self.game_number, self.state.bout):
            marks = []
            self._attacks = ((self.game_number, self.state.bout), marks)
        n = len(self.public_view().table)
        if not marks or marks[-1][1] != n:
            marks.append((self.version, n))

    def attacks_at(self, version: int) -> int | None:
        """The attack cards on the table at ``version`` of the running bout (None: that version
        is from an earlier bout, or from before a restart: the bot does not know which)."""
        found = None
        for since, n in self._attacks[1]:
            if since > version:
                break
            found = n
        return found

    # -- seats -------------------------------------------------------------------------------

    def seat_of(self, user_id: int) -> int | None:
        for i, seat in enumerate(self.seats):
            if seat.user_id == user_id:
                return i
        return None

    @property
    def humans(self) -> list[int]:
        return [s.user_id for s in self.seats if s.user_id is not None]

    @property
    def is_full(self) -> bool:
        return len(self.seats) >= self.max_seats

    @property
    def active(self) -> bool:
        """Lobby or running: the channel's one table."""
        return self.status in ACTIVE_STATUSES

    @property
    def series_id(self) -> str:
        return f"{self.table_id}.{self.series_number}"

    @property
    def game_number(self) -> int:
        """The number of the current (or just finished) game within the series."""
        if self.series is None:
            return 1
        return self.series.games + (0 if self.status == TableStatus.FINISHED else 1)

    def seat_name(self, seat: int) -> str:
        return self.seats[seat].name

    def note(self, key: str, seat: int, card: Card | None = None) -> None:
        """Add a line to the public log after the events so far."""
        self.notes.append(Note(len(self.events), key, seat, card))

    def counts_for(self, seat: int) -> int | None:
        """The user whose stats and rating this game's result at ``seat`` changes: the seat's
        owner, except at a tournament table where an AI played all of it for a withdrawn or
        absent owner (then nobody: an AI's game)."""
        owner = self.seats[seat].user_id
        if owner is None or self.match is None:
            return owner
        stood_in = seat in self.away or seat in self.left
        if seat in self.forfeit or (stood_in and seat not in self.present):
            return None
        return owner

    def return_to_owner(self, seat: int) -> None:
        """The owner plays ``seat`` again (back from idle or from leaving): no AI stands in."""
        self.away.discard(seat)
        self.expiries.pop(seat, None)
        self.ai_players.pop(seat, None)

    def player_of(self, seat: int) -> tuple[SeatPlayer, Level | None]:
        """Who plays ``seat`` now, and at which AI level: its owner ("human"), an AI seat
        ("ai"), or an AI standing in for an idle ("away") or departed ("left") owner."""
        level = self.seats[seat].ai_level
        if level is not None:
            return ("left" if self.seats[seat].replaced else "ai"), level
        if seat in self.left:
            return "left", STAND_IN_LEVEL
        if seat in self.away:
            return "away", STAND_IN_LEVEL
        return "human", None

    def stand_in(self, seat: int) -> bool:
        """A human's seat that an AI plays for now (its owner is idle or left, and may come
        back: not a seat taken over for good in an earlier game)."""
        return not self.seats[seat].is_ai and self.player_of(seat)[0] != "human"

    def ai_controlled(self, seat: int) -> bool:
        """An AI seat, or a human seat an AI plays for now (idle or left)."""
        return self.player_of(seat)[0] != "human"

    @property
    def only_ai_left(self) -> bool:
        """Every seat still holding cards is played by an AI for good (no idle human who may
        come back): nobody watches, so the AIs finish the game without pauses."""
        if self.state is None:
            return False
        out = set(self.state.out)
        return all(
            self.seats[i].is_ai or i in self.left for i in range(len(self.seats)) if i not in out
        )

    def legal_actions(self, seat: int) -> tuple[Action, ...]:
        """What ``seat`` may do now (nothing outside a running game)."""
        if self.state is None:
            return ()
        return self.state.legal_actions(seat)

    def ai_seats_to_act(self) -> list[int]:
        """AI-controlled seats that have a legal action now."""
        if self.status != TableStatus.RUNNING or self.state is None or self.state.finished:
            return []
        return [
            i for i in range(len(self.seats)) if self.ai_controlled(i) and self.legal_actions(i)
        ]
