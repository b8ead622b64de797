"""Playing a Swiss tournament with random results from a seeded ``random.Random``."""

from __future__ import annotations

import random

from bot.tournaments.results import PlayedGame, TableResult
from bot.tournaments.rounds import Pairing, RoundRecord, SeatedTable
from bot.tournaments.settings import TournamentSettings
from bot.tournaments.signup import Entrant
from bot.tournaments.swiss import pair_round


def entrants(count: int, rng: random.Random) -> list[Entrant]:
    # Ratings from a small range, so that ties (broken by sign-up order) happen.
    return [Entrant(1000 + i, float(rng.randint(0, 5)), i) for i in range(count)]


def random_game(rnd: int, table: SeatedTable, rng: random.Random) -> PlayedGame:
    n = len(table.seats)
    order = list(range(n))
    rng.shuffle(order)
    if rng.random() < 0.1:  # R20: a draw, nobody left holding cards
        return PlayedGame(rnd, table.number, table.seats, tuple(order), None)
    return PlayedGame(rnd, table.number, table.seats, tuple(order[:-1]), order[-1])


def play_round(pairing: Pairing, rng: random.Random, games: int = 1) -> RoundRecord:
    results = tuple(
        TableResult.of([random_game(pairing.round, t, rng) for _ in range(games)])
        for t in pairing.tables
    )
    return RoundRecord(pairing, results)


def play(settings: TournamentSettings, field: list[Entrant], rounds: int,
         rng: random.Random) -> list[RoundRecord]:
    history: list[RoundRecord] = []
    for _ in range(rounds):
        history.append(play_round(pair_round(settings, field, history), rng))
    return history
