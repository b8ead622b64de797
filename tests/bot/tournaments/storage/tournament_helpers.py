"""Helpers for the tournament storage tests."""

from __future__ import annotations

from bot.storage import GameRecord, Storage, TournamentLink
from bot.tournaments.logic import Format, MatchLength, Pairing, SeatedTable, TournamentSettings
from bot.tournaments.storage import NewTournament, TournamentStatus, TournamentStore

GUILD = 1


def new_tournament(
    tournament_id: str = "cup-1",
    *,
    guild_id: int = GUILD,
    table_size: int = 2,
    player_limit: int = 64,
    rounds: int | None = 3,
    ai_fill: bool = False,
    match: MatchLength | None = None,
) -> NewTournament:
    return NewTournament(
        tournament_id=tournament_id,
        guild_id=guild_id,
        channel_id=100,
        organiser_id=7,
        settings=TournamentSettings(
            f"Cup {tournament_id}", Format.SWISS, table_size=table_size,
            match=match or MatchLength.games(1), rounds=rounds, player_limit=player_limit,
            ai_fill=ai_fill,
        ),
        options={"preset": "classic", "turn_seconds": 60},
    )  # fmt: skip


async def running_with(storage: Storage, t: NewTournament, players: list[int]) -> None:
    """Create ``t``, sign ``players`` up (rated by their id) and start it."""
    store = TournamentStore(storage)
    await store.create_tournament(t)
    for p in players:
        await store.add_entrant(t.tournament_id, p, float(p))
    await store.set_tournament_status(t.tournament_id, TournamentStatus.RUNNING)


def pairing(
    round_number: int, *tables: tuple[int | None, ...], byes: tuple[int, ...] = ()
) -> Pairing:
    return Pairing(
        round_number, tuple(SeatedTable(i + 1, seats) for i, seats in enumerate(tables)), byes
    )


def linked(rec: GameRecord, tournament_id: str, round_number: int, table: int) -> GameRecord:
    """``rec`` as a game of that tournament table."""
    link = TournamentLink(tournament_id=tournament_id, round=round_number, table=table)
    return GameRecord.model_validate({**rec.model_dump(), "tournament": link.model_dump()})
