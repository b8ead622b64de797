"""The lobby and the seats: creating a table, joining and leaving, AI seats, starting, the
rematch, cancelling; a player leaving a running game and coming back ("I'm back")."""

from __future__ import annotations

import secrets
from datetime import UTC, datetime

from bot.domain import TableStatus
from durak_core import PublicView, RuleSet, Series, new_game
from durak_core.ai import Level

from .core import TableCore
from .refusals import Refusal, Rejected
from .table import MIN_SEATS, STAND_IN_LEVEL, Note, Seat, Table


class Lobby:
    def __init__(self, core: TableCore) -> None:
        self.core = core

    async def create(
        self,
        *,
        guild_id: int,
        channel_id: int,
        host: tuple[int, str, str | None],
        rules: RuleSet,
        max_seats: int,
        turn_timer: int | None,
        thread_id: int | None = None,
    ) -> Table:
        """A new table in the lobby, its first seat the host's (``host``: user id, name,
        Discord avatar hash)."""
        host_id, host_name, host_avatar = host
        core = self.core
        existing = core.registry.in_channel(channel_id)
        # A tournament's table keeps its thread between the games of its match.
        if existing is not None and (existing.active or existing.match is not None):
            raise Rejected(Refusal.TABLE_EXISTS, {"table": existing.table_id})
        if existing is not None:  # a finished table waiting for a rematch gives way
            core.registry.remove(existing)
            await core.storage.delete_table(existing.table_id)
        table = core.add_table(
            Table(
                table_id=core.registry.new_id(),
                guild_id=guild_id,
                channel_id=channel_id,
                host_id=host_id,
                rules=rules,
                max_seats=max_seats,
                turn_timer=core.settings.turn_timer_seconds if turn_timer is None else turn_timer,
                seats=[Seat(name=host_name, user_id=host_id, avatar=host_avatar)],
                thread_id=thread_id,
            )
        )
        await core.saves.save(table)
        return table

    async def join(self, table: Table, user_id: int, name: str, avatar: str | None = None) -> None:
        async with table.lock:
            _need_lobby(table)
            if table.seat_of(user_id) is not None:
                raise Rejected(Refusal.ALREADY_SEATED)
            if table.is_full:
                raise Rejected(Refusal.TABLE_FULL, {"n": table.max_seats})
            table.seats.append(Seat(name=name, user_id=user_id, avatar=avatar))
            self.core.human_acted(table)
            await self.core.changed(table, actor=user_id)

    async def leave(self, table: Table, user_id: int) -> None:
        async with table.lock:
            seat = table.seat_of(user_id)
            if table.status == TableStatus.RUNNING and seat is not None:
                await self._leave_game(table, seat, user_id)
                return
            _need_lobby(table)
            if seat is None:
                raise Rejected(Refusal.NOT_SEATED)
            if user_id == table.host_id:
                raise Rejected(Refusal.HOST_CANNOT_LEAVE)
            del table.seats[seat]
            await self.core.changed(table, actor=user_id)

    async def _leave_game(self, table: Table, seat: int, user_id: int) -> None:
        """Leaving mid-game: an AI of the stand-in level plays the seat (the table and its log
        say so at once) until the owner comes back with "I'm back" / `/durak back`; the result
        stays the owner's (the seat keeps its user id in the game record)."""
        if seat in table.left:
            raise Rejected(Refusal.ALREADY_LEFT)
        table.left.add(seat)
        table.away.discard(seat)
        table.expiries.pop(seat, None)
        table.auto_pass.pop(seat, None)
        table.note("left", seat)
        if table.only_ai_left:  # nobody watches any more: fresh, fast players
            table.ai_players.clear()
        await self.core.changed(table, actor=user_id)

    async def back(self, table: Table, user_id: int) -> None:
        """ "I'm back": the owner of a seat an AI plays (idle, or left mid-game) takes it over
        again."""
        async with table.lock:
            seat = table.seat_of(user_id)
            if seat is None:
                raise Rejected(Refusal.NOT_SEATED)
            if table.status != TableStatus.RUNNING:
                raise Rejected(Refusal.NOT_RUNNING)
            if seat in table.forfeit:  # withdrawn from the tournament: the AI plays on
                raise Rejected(Refusal.WITHDRAWN)
            if not table.stand_in(seat):
                raise Rejected(Refusal.NOT_AWAY)
            if seat in table.left:
                table.left.discard(seat)
                table.note("back", seat)
            table.return_to_owner(seat)
            self.core.human_acted(table)
            await self.core.changed(table, actor=None)

    async def add_ai(self, table: Table, user_id: int, level: Level, name: str) -> None:
        async with table.lock:
            _need_lobby(table)
            _may_seat_ai(table, user_id)
            if table.is_full:
                raise Rejected(Refusal.TABLE_FULL, {"n": table.max_seats})
            table.seats.append(Seat(name=name, ai_level=level))
            await self.core.changed(table, actor=user_id)

    async def set_anyone_adds_ai(self, table: Table, user_id: int, on: bool) -> None:
        """The lobby option: every seated player may add and remove AI seats, or the host only."""
        async with table.lock:
            _need_lobby(table)
            if user_id != table.host_id:
                raise Rejected(Refusal.NOT_HOST)
            table.anyone_adds_ai = on
            await self.core.changed(table, actor=user_id)

    async def remove_ai(self, table: Table, user_id: int) -> None:
        async with table.lock:
            _need_lobby(table)
            _may_seat_ai(table, user_id)
            for i in range(len(table.seats) - 1, -1, -1):
                if table.seats[i].is_ai:
                    del table.seats[i]
                    break
            else:
                raise Rejected(Refusal.NO_AI_SEAT)
            await self.core.changed(table, actor=user_id)

    async def start(self, table: Table, user_id: int) -> None:
        async with table.lock:
            _need_lobby(table)
            if user_id != table.host_id:
                raise Rejected(Refusal.NOT_HOST)
            if len(table.seats) < MIN_SEATS:
                raise Rejected(Refusal.TOO_FEW, {"n": MIN_SEATS})
            try:
                table.rules.check_seats(len(table.seats))
            except Exception as exc:
                raise Rejected(Refusal.RULES_SEATS, {"reason": str(exc)}) from None
            table.series = Series(table.rules, len(table.seats))
            self.deal(table)
            self.core.human_acted(table)
            await self.core.changed(table, actor=None, new_game=True)

    async def rematch(self, table: Table, user_id: int) -> None:
        async with table.lock:
            if table.match is not None:
                raise Rejected(Refusal.TOURNAMENT_TABLE)
            if table.status != TableStatus.FINISHED or table.series is None:
                raise Rejected(Refusal.NO_REMATCH)
            if table.seat_of(user_id) is None:
                raise Rejected(Refusal.NOT_SEATED)
            if table.series.finished:  # V17: a finished series starts over
                table.series_number += 1
                table.series = Series(table.rules, len(table.seats))
            self.deal(table)
            self.core.human_acted(table)
            await self.core.changed(table, actor=None, new_game=True)

    async def cancel(self, table: Table, user_id: int, *, may_manage: bool) -> None:
        async with table.lock:
            if not table.active and table.status != TableStatus.FINISHED:
                raise Rejected(Refusal.NO_TABLE)
            if user_id != table.host_id and not may_manage:
                raise Rejected(Refusal.CANCEL_DENIED)
            if table.match is not None:
                raise Rejected(Refusal.TOURNAMENT_TABLE)
            await self.core.close_table(table)

    def deal(self, table: Table) -> None:
        """R4 (a CSPRNG seed, committed on the table message), R22 (the previous Durak deals)."""
        assert table.series is not None
        table.seed = secrets.randbits(256)
        table.state = new_game(
            table.rules,
            len(table.seats),
            seed=table.seed,
            dealer=table.series.next_dealer(),
            first_game=table.series.first_game,
        )
        table.events = []
        table.timed_out = []
        table.ai_players = {}
        table.auto_pass = {}
        # Seats left in the previous game now belong to an AI for good; idle seats return. At
        # a tournament table the seat stays its player's (the match is theirs): the AI goes on.
        # A tournament's no-show stays played by the AI for the rest of the match.
        match = table.match is not None
        for seat in table.left if not match else ():
            old = table.seats[seat]
            table.seats[seat] = Seat(name=old.name, ai_level=STAND_IN_LEVEL, replaced=True)
        if not match:
            table.left, table.away = set(), set()
        table.expiries = {}
        table.started_at = datetime.now(UTC)
        table.status = TableStatus.RUNNING
        table.notes = opening_notes(table.public_view(), table.series.first_game)


def _need_lobby(table: Table) -> None:
    if table.status != TableStatus.LOBBY:
        raise Rejected(Refusal.NOT_LOBBY)


def _may_seat_ai(table: Table, user_id: int) -> None:
    if table.seat_of(user_id) is None:
        raise Rejected(Refusal.NOT_SEATED)
    if user_id != table.host_id and not table.anyone_adds_ai:
        raise Rejected(Refusal.AI_HOST_ONLY)


def opening_notes(view: PublicView, first_game: bool) -> list[Note]:
    """The public lines that open a game's log: who holds the trump card after a whole-deck
    deal (R6), and who leads and why — the lowest trump, shown to all (R8); nobody holding a
    trump (the seat left of the dealer, R8); a later game under the fool (V10)."""
    notes: list[Note] = []
    trump = view.trump_card
    if view.talon_size == 0 and not view.trump_in_talon:
        holder = next(s for s, known in enumerate(view.known) if trump in known)
        notes.append(Note(0, "r6", holder, trump))
    starter = view.attacker
    shown = [c for c in view.known[starter] if view.trump is not None and c.suit == view.trump]
    if shown:
        notes.append(Note(0, "r8", starter, min(shown, key=lambda c: (c.rank, c.index))))
    elif not first_game and view.rules.under_the_fool:
        notes.append(Note(0, "v10", starter))
    else:  # no trump in this game (V11, V13, a joker turned), or nobody holds one
        notes.append(Note(0, "r8_none" if view.trump is not None else "no_trump", starter))
    return notes
