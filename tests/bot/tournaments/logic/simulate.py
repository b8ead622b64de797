"""Playing a Swiss tournament with random results from a seeded ``random.Random``."""

from __future__ import annotations

import random

from bot.tournaments.logic.configuration import MatchLength
from bot.tournaments.logic.results import PlayedGame, TableResult
from bot.tournaments.logic.rounds import Pairing, RoundRecord, SeatedTable
from bot.tournaments.logic.signup import Entrant


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


def play_match(
    rnd: int, table: SeatedTable, length: MatchLength, rng: random.Random
) -> TableResult:
    games = [random_game(rnd, table, rng)]
    while not TableResult.of(games).is_over(length):
        games.append(random_game(rnd, table, rng))
    return TableResult.of(games)


ONE_GAME = MatchLength.games(1)


def play_round(pairing: Pairing, rng: random.Random, length: MatchLength = ONE_GAME) -> RoundRecord:
    results = tuple(play_match(pairing.round, t, length, rng) for t in pairing.tables)
    return RoundRecord(pairing, results)
