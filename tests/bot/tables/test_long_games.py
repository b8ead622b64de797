"""Issue #30, bug 14: a game between AI seats that never ended. Seen in the SIGKILL test: four
no-shows' seats, played by Normal stand-ins, passed the same cards round a 4-seat table for
1,904 bouts (nobody ever went out), so the round never closed and the tournament never
finished. The position below is that table's at its last save: Normal plays it in a loop for
ever; past ``LONG_GAME_BOUTS`` the AI seats play to finish and the game ends."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.domain import TableStatus
from bot.tables.long_games import LONG_GAME_BOUTS
from durak_core import Event, GameState, RuleSet, apply, position, seat_view, visible_to
from durak_core.ai import Level, make_player
from tests.bot.helpers import open_table, running_bot, world

#: Hands of the seats (seat 2 is out), trumps hearts, seat 3 to lead against seat 0.
HANDS = ["7C 6D JD", "6S 7S 9S 6C 8C 9C 9D 8H 9H", "", "8S 7D"]


def looping_position() -> GameState:
    return position(RuleSet(), HANDS, trump="AH", attacker=3, out=[2])


@pytest.mark.slow
def test_normal_alone_plays_that_position_for_ever() -> None:
    """What the bot must not rely on: Normal's own choices never end this game."""
    g = looping_position()
    players = [make_player(Level.NORMAL, seed=1, seats=["human"] * 4) for _ in range(4)]
    events: list[Event] = []
    for _ in range(3 * LONG_GAME_BOUTS * 4):
        seat = next(s for s in range(4) if g.legal_actions(s))
        action = players[seat].choose(seat_view(g, seat), visible_to(events, seat))
        g, happened = apply(g, seat, action)
        events.extend(happened)
    assert not g.finished and g.bout > 2 * LONG_GAME_BOUTS


@pytest.mark.slow
async def test_ai_seats_finish_a_game_that_loops(tmp_path: Path) -> None:
    async with world(tmp_path) as w, running_bot(w) as bot:
        dave = w.fake.add_user("dave")
        users = [w.alice, w.bob, w.carol, dave]
        table = await open_table(w, bot, users, w.channel, seats=4)
        async with table.lock:  # every owner idle: Normal stand-ins play all four seats
            table.state = looping_position()
            table.events = []
            table.away = {0, 1, 2, 3}
            await bot.service.core.changed(table, actor=None)
        await w.fake.wait_for(
            lambda: table.status == TableStatus.FINISHED, 60, what="the looping game to end"
        )
        state = table.state
        assert state is not None and state.finished
        assert LONG_GAME_BOUTS <= state.bout < 2 * LONG_GAME_BOUTS
