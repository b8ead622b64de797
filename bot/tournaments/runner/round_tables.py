"""A round's tables: each opened as an ordinary table in its own thread, seated as paired, its
players pinged once; then each game of the match dealt until the match is over.

Restart-safe: a table is looked up before it is opened (by its stored bot table id, else by
the match a restored table carries), so a round resumed after a kill opens only what is
missing."""

from __future__ import annotations

import logging
from dataclasses import dataclass

from bot.domain import TableStatus
from bot.tables.matches import next_game, open_match
from bot.tables.service import TableService
from bot.tables.table import STAND_IN_LEVEL, MatchOf, Seat, Table
from bot.text import t as text
from bot.tournaments.storage import PairedTable, StoredRound, TournamentRecord, TournamentStore

from .deciding import decider_round
from .host import EventHost
from .options import TableOptions, match_of

log = logging.getLogger(__name__)


def find_table(service: TableService, match: MatchOf) -> Table | None:
    """The bot table playing ``match`` (restored tables included)."""
    for table in service.registry:
        m = table.match
        if m is not None and (m.tournament_id, m.round, m.table) == (
            match.tournament_id,
            match.round,
            match.table,
        ):
            return table
    return None


def live_tables(service: TableService, tournament_id: str) -> list[Table]:
    """The tournament's tables whose match is not over."""
    out = []
    for table in service.registry:
        match = table.match
        if match is None or match.tournament_id != tournament_id:
            continue
        if table.status == TableStatus.FINISHED and match.over(table.series):
            continue
        out.append(table)
    return out


def round_threads(service: TableService, tournament_id: str, round: int) -> list[int]:
    """The threads of the round's tables the bot still holds."""
    return [
        t.thread_id or t.channel_id
        for t in service.registry
        if t.match is not None and (t.match.tournament_id, t.match.round) == (tournament_id, round)
    ]


def closing_notices(tables: list[Table]) -> list[tuple[int, int | None]]:
    """What each table's thread must be told when it closes: its thread, and its table
    message (edited to say closed)."""
    return [(t.thread_id or t.channel_id, t.table_message_id) for t in tables]


async def close_tables(service: TableService, tables: list[Table]) -> None:
    """Close these tables of a cancelled tournament (:func:`live_tables`): the game being
    played is not recorded, so it changes no rating."""
    for table in tables:
        match = table.match
        async with table.lock:
            if service.registry.get(table.table_id) is not table or (
                table.status == TableStatus.FINISHED
                and match is not None
                and match.over(table.series)
            ):
                continue
            await service.core.close_table(table)


async def close_match(
    service: TableService, t: TournamentRecord, round: int, number: int
) -> int | None:
    """Close the table of round ``round``'s table ``number`` if its match is not over (the
    organiser recorded its result): the game being played is not recorded. Returns its
    thread, or None when no live table plays it."""
    match = match_of(t.settings, t.tournament_id, round, number)
    table = find_table(service, match)  # by its place: the match's length does not matter
    if table is None or table.match is None:
        return None
    async with table.lock:
        if service.registry.get(table.table_id) is not table or (
            table.status == TableStatus.FINISHED and table.match.over(table.series)
        ):
            return None
        await service.core.close_table(table)
    return table.thread_id or table.channel_id


@dataclass(frozen=True, slots=True)
class Forfeited:
    """A withdrawn player's live table: its thread, whether it closed, the match it plays."""

    thread: int
    closed: bool
    match: MatchOf


async def forfeit_seat(
    service: TableService, t: TournamentRecord, user_id: int
) -> Forfeited | None:
    """A withdrawn player's live table, if their match there is not over: at two seats (a
    bracket's, a Swiss's, a round robin's) the table closes, the match a walkover (the game
    being played is not recorded); at a larger table the other seats need their result, so an
    AI plays the player's seat to the end of the match, and those games count for nobody
    (``Table.forfeit``). None when the player sits at no live table."""
    for table in list(service.registry):
        match = table.match
        if match is None or match.tournament_id != t.tournament_id:
            continue
        seat = table.seat_of(user_id)
        if seat is None:
            continue
        async with table.lock:
            if service.registry.get(table.table_id) is not table or match.over(table.series):
                continue
            thread = table.thread_id or table.channel_id
            if match.decisive or len(table.seats) == 2:
                await service.core.close_table(table)
                return Forfeited(thread, True, match)
            table.forfeit.add(seat)
            table.left.add(seat)
            table.ai_players.pop(seat, None)
            await service.core.changed(table, actor=None)
        return Forfeited(thread, False, match)
    return None


async def run_round(
    service: TableService,
    host: EventHost,
    t: TournamentRecord,
    rnd: StoredRound,
    *,
    open_missing: bool = True,
) -> None:
    """Open the round's missing tables (one after another: thread creation is paced; not
    when ``open_missing`` is False) and deal the next game wherever a game is over and its
    match is not. Raises :class:`ThreadsRefused` from the host."""
    for paired in rnd.tables:
        if paired.override is not None:  # decided by the organiser: nothing to play
            continue
        deciding = len(paired.seats) if rnd.number == decider_round(t) else None
        match = match_of(t.settings, t.tournament_id, rnd.number, paired.number, deciding)
        table = None
        if paired.bot_table_id is not None:
            table = service.registry.get(paired.bot_table_id)
        if table is None:
            table = find_table(service, match)
        if table is None:
            if paired.bot_table_id is not None:
                log.warning(
                    "tournament %s round %d table %d: its table %s is gone",
                    t.tournament_id, rnd.number, paired.number, paired.bot_table_id,
                )  # fmt: skip
                continue
            if open_missing:
                # named by its place among the round's tables: a bracket's only match of round
                # 1 may be its match 2 (issue #30 bug 13: "table 2" of one table)
                label = rnd.tables.index(paired) + 1
                await _open(service, host, t, paired, match, label)
            continue
        if paired.bot_table_id is None:  # opened, then killed before it was stored
            await TournamentStore(service.storage).open_tournament_table(
                t.tournament_id, rnd.number, paired.number, table.table_id
            )
        await next_game(service.core, service.lobby, table)


async def _open(
    service: TableService,
    host: EventHost,
    t: TournamentRecord,
    paired: PairedTable,
    match: MatchOf,
    label: int,
) -> None:
    thread_id = await host.open_thread(t, match.round, label)
    if thread_id is None:
        log.warning(
            "tournament %s: no thread for round %d table %d; trying again later",
            t.tournament_id, match.round, paired.number,
        )  # fmt: skip
        return
    options = TableOptions.of(t.options)
    humans = [p for p in paired.seats if p is not None]
    names = await host.names(t.guild_id, humans)
    seats: list[Seat] = []
    ai = 0
    for player in paired.seats:
        if player is None:
            ai += 1
            level = t_level(options.language)
            seats.append(
                Seat(text("ai.name", options.language, n=ai, level=level), ai_level=STAND_IN_LEVEL)
            )
        else:
            seats.append(Seat(names.get(player, str(player)), user_id=player))
    table = await open_match(
        service.core,
        service.lobby,
        guild_id=t.guild_id,
        thread_id=thread_id,
        host_id=t.organiser_id,
        rules=options.rules,
        turn_timer=options.turn_timer,
        language=options.language,
        seats=seats,
        match=match,
    )
    await TournamentStore(service.storage).open_tournament_table(
        t.tournament_id, match.round, paired.number, table.table_id
    )
    await host.welcome(t, thread_id, match.round, paired)


def t_level(language: str) -> str:
    return text(f"level.{STAND_IN_LEVEL}", language)
