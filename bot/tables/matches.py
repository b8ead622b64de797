"""Tournament tables: opened already seated (the round's pairing), each game of the match dealt
by the bot itself, no lobby and no rematch button."""

from __future__ import annotations

from bot.domain import TableStatus
from durak_core import RuleSet, Series

from .core import TableCore
from .lobby import Lobby
from .table import MatchOf, Seat, Table


async def open_match(
    core: TableCore,
    lobby: Lobby,
    *,
    guild_id: int,
    thread_id: int,
    host_id: int,
    rules: RuleSet,
    turn_timer: int,
    language: str | None,
    seats: list[Seat],
    match: MatchOf,
) -> Table:
    """A table in its own thread with every seat taken (AI seats included), its first game
    dealt and announced (the notifier posts the table message)."""
    table = core.add_table(
        Table(
            table_id=core.registry.new_id(),
            guild_id=guild_id,
            channel_id=thread_id,
            host_id=host_id,
            rules=rules,
            max_seats=len(seats),
            turn_timer=turn_timer,
            seats=list(seats),
            thread_id=thread_id,
            language=language,
            match=match,
        )
    )
    async with table.lock:
        table.series = Series(table.rules, len(table.seats))
        lobby.deal(table)
        await core.changed(table, actor=None, new_game=True)
    return table


async def next_game(core: TableCore, lobby: Lobby, table: Table) -> bool:
    """Deal the match's next game if its last one is over and the match is not: True if dealt."""
    async with table.lock:
        match = table.match
        if match is None or table.status != TableStatus.FINISHED or match.over(table.series):
            return False
        lobby.deal(table)
        core.human_acted(table)
        await core.changed(table, actor=None, new_game=True)
        return True
