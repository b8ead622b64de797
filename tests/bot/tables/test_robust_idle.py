"""Idle players (with an injected clock, no real waiting): the turn timer does the least harmful
legal thing, shows its deadline as a Discord relative timestamp, hands a seat to a Normal AI
after 2 consecutive expiries until "I'm back"; leaving mid-game hands the seat to an AI and the
result stays the leaver's; an all-AI game is finished quickly; idle tables are abandoned."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import pytest

from bot.app import DurakBot
from bot.domain import TableStatus
from bot.tables.table import Table
from bot.tables.timeout_moves import default_action
from durak_core import RuleSet, new_game
from durak_core.actions import ATTACK, PASS, TAKE, Attack
from tests.bot.helpers import World, open_table, public_message, settings, world


class Clock:
    def __init__(self) -> None:
        self.now = 1_800_000_000.0

    def __call__(self) -> float:
        return self.now


@asynccontextmanager
async def bot_with_clock(w: World, clock: Clock, **overrides: object) -> AsyncIterator[DurakBot]:
    bot = DurakBot(
        settings(w.db, **overrides),
        sync=True,
        sync_guild=w.guild,
        guild_ready_timeout=0.05,
        clock=clock,
    )
    async with w.fake.run_client(bot):
        yield bot


async def two_player_game(w: World, bot: DurakBot) -> Table:
    return await open_table(w, bot, [w.alice, w.bob], w.channel)


def test_default_action_is_least_harmful() -> None:
    """On random states of several rule sets: the defender takes, an attacker passes, a forced
    lead is the lowest non-trump card (the lowest trump only without a non-trump), and nobody
    is made to throw in."""
    rng = random.Random(3)
    checked = {TAKE: 0, PASS: 0, ATTACK: 0}
    for rules in (RuleSet(), RuleSet(transfer=True), RuleSet(deck_size=24)):
        for _ in range(40):
            s = new_game(rules, rng.choice([2, 3, 4]), seed=rng.getrandbits(64))
            while not s.finished:
                v = s.public_view()
                for seat in v.awaiting:
                    action = default_action(s, seat)
                    if action is None:
                        continue
                    checked[action.kind] += 1
                    if action.kind == TAKE:
                        assert seat == v.defender
                    elif action.kind == PASS:
                        assert seat != v.defender
                    else:
                        assert isinstance(action, Attack) and not v.table and seat == v.attacker
                        hand = s.view(seat).hand
                        plain = [c for c in hand if c.suit != s.trump_suit]
                        lowest = min(plain or hand, key=lambda c: c.rank)
                        assert action.card.rank == lowest.rank
                        assert (action.card.suit == s.trump_suit) == (not plain)
                    assert action in s.legal_actions(seat)
                seat, action = rng.choice(s.legal_moves())
                s, _ = s.apply(seat, action)
    assert all(n > 20 for n in checked.values()), checked


@pytest.mark.slow
async def test_timer_expiry_ai_takeover_and_back(tmp_path: Path) -> None:
    clock = Clock()
    async with world(tmp_path) as w, bot_with_clock(w, clock, turn_timer_seconds=60) as bot:
        fake, svc = w.fake, bot.service
        table = await two_player_game(w, bot)
        assert table.deadline == clock.now + 60
        stamp = f"<t:{int(table.deadline)}:R>"
        await fake.wait_for(
            lambda: stamp in str(public_message(w, table).embeds), what="the countdown"
        )
        state = table.state
        clock.now += 59
        await svc.tick()
        assert table.state is state  # not yet due
        away_seat = None
        for _ in range(8):
            before = table.state
            assert before is not None
            n = len(before.log)
            clock.now += 60
            await svc.tick()
            assert table.state is not None and len(table.state.log) > n
            s = before
            for seat, action in table.state.log[n:]:  # each one the least harmful action
                assert action == default_action(s, seat)
                s, _ = s.apply(seat, action)
            if table.away:
                away_seat = next(iter(table.away))
                break
        assert away_seat is not None, "no seat went idle after repeated expiries"
        owner = table.seats[away_seat].user_id
        assert owner is not None
        other = w.bob if owner == w.alice else w.alice
        # The AI plays the idle seat and the table shows "I'm back" (unless both seats went
        # idle together: then two AIs play on and may finish the game first; handled below).
        back_id = f"dkt:{table.table_id}:back"
        await fake.wait_for(
            lambda: (
                table.status != "running"
                or any(b.custom_id == back_id for b in public_message(w, table).buttons)
            ),
            what="the I'm back button",
        )
        for _ in range(6):
            if away_seat in table.ai_players or table.status != "running":
                break
            clock.now += 60
            await svc.tick()
            await fake.wait_for(lambda: not table.ai_seats_to_act(), what="the AI to move")
        assert away_seat in table.ai_players or table.status != "running"
        if table.status == "running":
            other_seat = table.seat_of(other)
            if other_seat not in table.away:
                refused = await fake.click(other, public_message(w, table), back_id)
                assert refused.ephemeral and "not playing it" in refused.content
            back = await fake.click(owner, public_message(w, table), back_id)
            assert back.ephemeral and "Your hand" in back.content
            assert away_seat not in table.away and table.expiries.get(away_seat) is None


@pytest.mark.slow
async def test_leave_mid_game_ai_finishes_result_recorded(tmp_path: Path) -> None:
    async with world(tmp_path) as w:
        from tests.bot.helpers import running_bot

        async with running_bot(w) as bot:
            fake = w.fake
            table = await two_player_game(w, bot)
            bob_seat = table.seat_of(w.bob)
            res = await fake.slash(w.bob, w.channel, "durak", "leave")
            assert res.ephemeral and table.left == {bob_seat}
            again = await fake.slash(w.bob, w.channel, "durak", "leave")
            assert again.ephemeral and "You left this game" in again.content
            assert table.status == "running" and not table.only_ai_left
            await fake.slash(w.alice, w.channel, "durak", "leave")
            # Only AIs are left: they finish at once instead of leaving the game running.
            await fake.wait_for(lambda: table.status == "finished", 20, what="the AIs to finish")
            await fake.wait_for(lambda: bot.service.pending_writes == 0)
            [game] = await bot.service.storage.channel_history(w.guild, w.channel)
            for user in (w.alice, w.bob):
                assert user in [s.user_id for s in game.seats]
                stats = await bot.service.storage.user_stats(user, w.guild)
                assert stats.games == 1


async def test_idle_table_is_abandoned(tmp_path: Path) -> None:
    clock = Clock()
    async with world(tmp_path) as w, bot_with_clock(w, clock, abandon_after_minutes=30) as bot:
        table = await two_player_game(w, bot)
        clock.now += 29 * 60
        await bot.service.tick()
        still = table.status  # a name of its own: mypy keeps an assert's narrowing past awaits
        assert still == "running"
        clock.now += 60
        await bot.service.tick()
        assert table.status == "abandoned"
        assert bot.service.registry.in_channel(w.channel) is None
        saved = await bot.service.storage.load_tables((TableStatus.ABANDONED,))
        assert [s.table_id for s in saved] == [table.table_id]
        await w.fake.wait_for(
            lambda: "cancelled" in str(public_message(w, table).embeds), what="the closed table"
        )
