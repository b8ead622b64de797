"""Tournaments as the storage layer returns them (records, rounds, games), played with the core's
own pairing and bracket functions and random results from a seeded ``random.Random``: the
inputs of the standings message (tests/bot/tournaments/test_tournament_look.py,
docs/make_tournament_looks.py).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from datetime import UTC, datetime

from bot.tournaments.logic import (
    Bracket,
    Format,
    MatchLength,
    PlayedGame,
    RoundRecord,
    SeatedTable,
    TableResult,
    TournamentSettings,
    new_bracket,
    pair_round,
    pending,
    record_result,
)
from bot.tournaments.storage import (
    EntrantRecord,
    PairedTable,
    RoundStatus,
    StoredRound,
    TournamentRecord,
    TournamentStatus,
)
from tests.bot.tournaments.logic.simulate import random_game

WHEN = datetime(2026, 1, 2, 19, 0, tzinfo=UTC)
NAMES = (
    "Alice",
    "Борис",
    "Chloé",
    "Dmitri Ivanovich Karamazov",
    "Eve",
    "Фёдор",
    "Gustav",
    "Hanna",
    "Ірина",
    "Jonas",
    "Kasia",
    "Лёша",
    "Marta",
    "Nikolai",
    "Olga",
    "Pablo",
)


@dataclass
class Stored:
    t: TournamentRecord
    entrants: list[EntrantRecord]
    rounds: list[StoredRound] = field(default_factory=list)
    games: list[PlayedGame] = field(default_factory=list)
    #: The core's values as the play built them, step by step (not from the stored games).
    history: list[RoundRecord] = field(default_factory=list)
    bracket: Bracket | None = None

    @property
    def names(self) -> dict[int, str]:
        return {e.user_id: name_of(e.user_id) for e in self.entrants}


def name_of(player: int) -> str:
    i = player - 1000
    return NAMES[i % len(NAMES)] + (f" {i // len(NAMES) + 1}" if i >= len(NAMES) else "")


def record(
    settings: TournamentSettings, status: TournamentStatus, current: int
) -> TournamentRecord:
    return TournamentRecord(
        tournament_id="t-1",
        guild_id=1,
        channel_id=2,
        organiser_id=1000,
        settings=settings,
        status=status,
        current_round=current,
        created_at=WHEN,
    )


def entrants(count: int, rng: random.Random) -> list[EntrantRecord]:
    return [
        EntrantRecord(user_id=1000 + i, rating=float(rng.randint(0, 40)), signup_order=i)
        for i in range(count)
    ]


def play(
    rnd: int, table: SeatedTable, length: MatchLength, rng: random.Random, decisive: bool = False
) -> list[PlayedGame]:
    games = [random_game(rnd, table, rng)]
    while not TableResult.of(games).is_over(length, decisive):
        games.append(random_game(rnd, table, rng))
    return games


def stored_round(
    number: int, tables: list[SeatedTable], byes: tuple[int, ...], done: bool
) -> StoredRound:
    return StoredRound(
        number=number,
        status=RoundStatus.FINISHED if done else RoundStatus.RUNNING,
        tables=tuple(PairedTable(number=t.number, seats=t.seats) for t in tables),
        byes=byes,
        started_at=WHEN,
    )


def swiss(
    count: int,
    table_size: int = 2,
    *,
    played: int | None = None,
    open_tables: int = 0,
    seed: int = 1,
    ai_fill: bool = False,
    length: MatchLength | None = None,
    withdrawn: frozenset[int] = frozenset(),
    rounds: int | None = None,
    late: int = 0,
) -> Stored:
    """A Swiss of ``count`` entrants: ``played`` rounds (default: all, and finished); with
    ``open_tables``, the last round's last tables are still playing; ``late`` of them joined
    during round 1 (issue #47: they play from round 2, with one half bye)."""
    rng = random.Random(seed)
    settings = TournamentSettings(
        "Friday Durak Cup",
        Format.SWISS,
        table_size=table_size,
        match=length or MatchLength.games(1),
        rounds=rounds,
        ai_fill=ai_fill,
    )
    ents = entrants(count, rng)
    ents = [
        e.model_copy(update={"joined_round": 2}) if i >= count - late else e
        for i, e in enumerate(ents)
    ]
    total = settings.rounds_for(count - late) if played is None else played
    finished = played is None and not open_tables
    status = TournamentStatus.FINISHED if finished else TournamentStatus.RUNNING
    if total == 0:
        status = TournamentStatus.SIGNUP
    out = Stored(record(settings, status, total), ents)
    history = out.history
    for r in range(1, total + 1):
        pairing = pair_round(settings, [e.entrant for e in ents], history, withdrawn)
        last = r == total
        results = []
        for i, table in enumerate(pairing.tables):
            if last and i >= len(pairing.tables) - open_tables:
                continue
            games = play(r, table, settings.match, rng)
            out.games.extend(games)
            results.append(TableResult.of(games))
        history.append(RoundRecord(pairing, tuple(results)))
        done = not last or not open_tables
        out.rounds.append(stored_round(r, list(pairing.tables), pairing.byes, done))
    if withdrawn:
        out.entrants = [e.model_copy(update={"withdrawn": e.user_id in withdrawn}) for e in ents]
    return out


def elimination(
    count: int, *, played: int | None = None, open_matches: int = 0, seed: int = 1
) -> Stored:
    """A single elimination of ``count`` entrants: ``played`` rounds (default: all); with
    ``open_matches``, the round after them is running with that many matches unplayed."""
    rng = random.Random(seed)
    settings = TournamentSettings("Sunday Knockout", Format.SINGLE_ELIMINATION)
    ents = entrants(count, rng)
    b = new_bracket([e.entrant for e in ents])
    rounds = b.rounds if played is None else played
    running = open_matches > 0 and rounds < b.rounds
    status = TournamentStatus.RUNNING if running or rounds < b.rounds else TournamentStatus.FINISHED
    out = Stored(record(settings, status, rounds + running), ents)
    for r in range(1, rounds + running + 1):
        ready = [m for m in pending(b) if m.round == r]
        tables = [SeatedTable(m.number, m.players) for m in ready]
        unplayed = open_matches if r > rounds else 0
        for table in tables[: len(tables) - unplayed]:
            games = play(r, table, settings.match, rng, decisive=True)
            out.games.extend(games)
            b = record_result(b, TableResult.of(games), settings.match)
        out.rounds.append(stored_round(r, tables, (), done=r <= rounds))
    out.bracket = b
    return out
