"""A 16-entrant Swiss at 4-seat tables, 3 rounds of 2-game matches, played through storage on
both backends: the standings recomputed from the STORED games equal the live ones."""

from __future__ import annotations

import random
from collections.abc import Callable

from bot.storage import GameRecord, Storage
from bot.tournaments.logic import (
    MatchLength,
    Pairing,
    PlayedGame,
    RoundRecord,
    TournamentSettings,
    pair_round,
    rounds_from_games,
    standings,
)
from bot.tournaments.storage import TournamentStatus, TournamentStore
from tests.bot.tournaments.storage.tournament_helpers import GUILD, linked, new_tournament

MakeGame = Callable[..., GameRecord]
PLAYERS = [1000 + i for i in range(16)]
LENGTH = MatchLength.games(2)


def play(rng: random.Random, rnd: int, table: int, seats: tuple[int | None, ...]) -> PlayedGame:
    """One game: a random finishing order, the last seat the Durak; one game in eight a draw
    (R20: nobody left holding cards)."""
    order = list(range(len(seats)))
    rng.shuffle(order)
    if rng.random() < 0.125:
        return PlayedGame(rnd, table, seats, tuple(order), None)
    return PlayedGame(rnd, table, seats, tuple(order[:-1]), order[-1])


async def test_stored_games_give_the_live_standings(storage: Storage, make_game: MakeGame) -> None:
    store = TournamentStore(storage)
    rng = random.Random(18)
    new = new_tournament("swiss-16", table_size=4, rounds=3, match=LENGTH)
    settings: TournamentSettings = new.settings
    await store.create_tournament(new)
    for i, p in enumerate(PLAYERS):
        await store.add_entrant("swiss-16", p, float(i % 5))
    await store.set_tournament_status("swiss-16", TournamentStatus.RUNNING)
    entrants = [e.entrant for e in await store.tournament_entrants("swiss-16")]

    pairings: list[Pairing] = []
    live: list[PlayedGame] = []
    history: tuple[RoundRecord, ...] = ()
    for rnd in (1, 2, 3):
        pairing = pair_round(settings, entrants, history)
        assert len(pairing.tables) == 4 and not pairing.byes
        assert await store.save_round("swiss-16", pairing)
        pairings.append(pairing)
        for table in pairing.tables:
            bot_table = f"t{rnd}.{table.number}"
            await store.open_tournament_table("swiss-16", rnd, table.number, bot_table)
            for _ in range(LENGTH.count):
                game = play(rng, rnd, table.number, table.seats)
                live.append(game)
                # The engine lists the Durak last in some records; storage takes both forms.
                order = [*game.finishing_order, *([game.durak] if rng.random() < 0.5 else [])]
                rec = make_game(list(table.seats), [s for s in order if s is not None], game.durak)
                await storage.record_game(linked(rec, "swiss-16", rnd, table.number))
        history = rounds_from_games(pairings, live, LENGTH)
        assert history[-1].complete
        assert await store.finish_round("swiss-16", rnd)
    await store.set_tournament_status("swiss-16", TournamentStatus.FINISHED)
    shown = standings(entrants, settings.table_size, history)

    # Recomputed from nothing but what storage holds.
    t = await store.get_tournament("swiss-16")
    stored_entrants = [e.entrant for e in await store.tournament_entrants(t.tournament_id)]
    stored_pairings = [r.pairing for r in await store.tournament_rounds(t.tournament_id)]
    stored_games = await store.tournament_games(t.tournament_id)
    assert stored_pairings == pairings
    assert sorted(stored_games, key=repr) == sorted(live, key=repr)
    recomputed = standings(
        stored_entrants,
        t.settings.table_size,
        rounds_from_games(stored_pairings, stored_games, t.settings.match),
    )
    assert recomputed == shown
    assert len(shown.rows) == 16 and [len(r.entries) for r in shown.rows] == [3] * 16
    assert len({r.points for r in shown.rows}) > 1  # the results made a difference
    # Every game counted like any other: 3 rounds of 2 games for everyone.
    for p in PLAYERS:
        assert (await storage.user_stats(p, GUILD)).games == 6
