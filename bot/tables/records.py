"""A finished game as a storage GameRecord (R21 scoring is the storage layer's job)."""

from __future__ import annotations

from datetime import UTC, datetime

from bot.storage import GameRecord, SeatRecord, TournamentLink
from durak_core import GameState, seed_commitment
from durak_core.verify import GameLog

from .table import STAND_IN_LEVEL, Table


def seat_record(table: Table, i: int, team: int | None) -> SeatRecord:
    """Seat ``i`` as recorded: its owner, or an AI (the AI seat's, or the stand-in's level)
    when the result counts for nobody (``Table.counts_for``)."""
    s = table.seats[i]
    user = table.counts_for(i)
    if user is None:
        level = s.ai_level or STAND_IN_LEVEL
        return SeatRecord(seat=i, kind="ai", ai_level=level, display_name=s.name, team=team)
    return SeatRecord(seat=i, kind="human", user_id=user, display_name=s.name, team=team)


def game_record(table: Table, state: GameState, ended_at: datetime | None = None) -> GameRecord:
    result = state.result
    assert result is not None and table.seed is not None and table.series is not None
    teams = state.teams if table.rules.team_size else None
    durak = result.durak
    if durak is None and result.losers:
        # V7: several members of the losing team still hold cards; storage wants one Durak
        # seat that never went out.
        durak = next(t for t in result.losers if t not in result.finishing_order)
    seats = [
        seat_record(table, i, None if teams is None else teams[i]) for i in range(len(table.seats))
    ]
    ended = ended_at or datetime.now(UTC)
    match = table.match
    link = (
        None
        if match is None
        else TournamentLink(tournament_id=match.tournament_id, round=match.round, table=match.table)
    )
    return GameRecord(
        game_id=f"{table.series_id}.{table.series.games}",
        guild_id=table.guild_id,
        channel_id=table.channel_id,
        table_id=table.table_id,
        series_id=table.series_id,
        game_number=table.series.games,
        rules=table.rules.options(),
        seats=seats,
        finishing_order=list(result.finishing_order),
        durak_seat=durak,
        losing_seats=list(result.losers),
        started_at=table.started_at or ended,
        ended_at=ended,
        seed_commitment=seed_commitment(table.seed),
        seed=format(table.seed, "064x"),
        card_order=[str(c) for c in state.order_cards()],
        actions=[f"{seat} {action}" for seat, action in state.log],
        tournament=link,
        assisted=table.practice,
    )


def game_log(record: GameRecord) -> GameLog:
    """A stored game as the engine replays it (verification, reviews)."""
    return GameLog(
        rules=record.rules,
        seats=len(record.seats),
        seed=record.seed,
        commitment=record.seed_commitment,
        card_order=record.card_order,
        actions=record.actions,
        finishing_order=record.finishing_order,
        losers=record.losing_seats,
        durak=record.durak_seat,
    )
