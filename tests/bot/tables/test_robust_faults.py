"""Faults and bad input: Discord answering 429/500 and dropping the gateway, a locked or full
database, 1,000 random (and forged) clicks, 100 clicks at once on one table."""

from __future__ import annotations

import asyncio
import logging
import random
import sqlite3
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any

import pytest

from bot.app import DurakBot
from bot.domain import TableStatus
from bot.storage import GameRecord, RecordedGame, SavedTable, SqliteStorage
from bot.tables.table import Table
from durak_core import Action
from tests.bot.cogs.test_bot_clicks import _with_button, raw_click
from tests.bot.helpers import (
    World,
    open_table,
    public_message,
    running_bot,
    settings,
    table_of,
    world,
)
from tests.bot.robust_harness import ACTION_ID
from tests.bot.tables.test_bot_game import latest_hand, play_one_game, settled
from tests.fake_discord import UPDATE_MESSAGE, FakeMessage, InteractionResult


async def start_game(w: World, bot: DurakBot, users: list[int], channel: int) -> Table:
    """:func:`open_table`, then every player opens their hand."""
    table = await open_table(w, bot, users, channel)
    for u in users:
        await w.fake.click(u, public_message(w, table), f"dkt:{table.table_id}:hand")
    return table


async def saved_row(db: Path, table_id: str) -> SavedTable:
    async with await SqliteStorage.open(db) as other:
        rows = await other.load_tables(tuple(TableStatus))
    return next(r for r in rows if r.table_id == table_id)


@pytest.mark.slow
async def test_discord_429_500_and_gateway_drops(tmp_path: Path) -> None:
    async with world(tmp_path) as w, running_bot(w) as bot:
        fake = w.fake
        fake.set_edit_rate_limit(True, limit=5, per=0.2)
        await fake.slash(w.alice, w.channel, "durak", "new", options={"ai_seats": 1})
        await fake.slash(w.bob, w.channel, "durak", "join")
        await fake.slash(w.alice, w.channel, "durak", "start")
        table = table_of(bot, w.channel)

        fault_rng = random.Random(5)
        faults_made = 0

        async def next_fault() -> None:
            """One fault in turn, injected while the game runs (every few answered clicks, so
            a short game meets them too): a gateway drop, a 500 or a 429 on an edit, a 500 on
            an interaction answer."""
            nonlocal faults_made
            kind = faults_made % 4
            faults_made += 1
            if kind == 0:
                await fake.drop_gateway(wait_resumed=fault_rng.random() < 0.5)
            elif kind == 1:
                fake.fail_next("PATCH", "/channels/*/messages/*", status=500)
            elif kind == 2:
                fake.fail_next("PATCH", "/channels/*/messages/*", status=429, retry_after=0.1)
            else:
                fake.fail_next("POST", "/interactions/*/*/callback", status=500)

        await fake.wait_for(lambda: table.table_message_id is not None)
        users = [w.alice, w.bob]
        for u in users:
            await fake.click(u, public_message(w, table), f"dkt:{table.table_id}:hand")
        rng = random.Random(2)
        answered = 0
        loop = asyncio.get_running_loop()
        stuck = loop.time()
        while table.status == "running":
            assert loop.time() - stuck < 20, "the game stopped moving"
            choices = [
                (u, h, b.custom_id)
                for u in users
                if (h := latest_hand(fake, u)) is not None
                for b in h.buttons
                if b.custom_id and not b.disabled and b.custom_id.startswith("dk:")
            ]
            if not choices or loop.time() - stuck > 3:  # hands lag behind: open them again
                await asyncio.sleep(0.1)
                for u in users:
                    await fake.click(u, public_message(w, table), f"dkt:{table.table_id}:hand")
                stuck = loop.time()
                continue
            if answered % 3 == 1 and faults_made < 8:
                await next_fault()
            u, h, cid = rng.choice(choices)
            n = len(table.state.log) if table.state is not None else 0
            try:
                res = await fake.click(u, h, cid, timeout=15)
            except LookupError:  # the hand moved on while the fault was injected: look again
                continue
            assert res.ephemeral  # applied, or re-rendered with a reason
            answered += 1
            if table.state is not None and len(table.state.log) > n:
                stuck = loop.time()
        assert answered > 10 and faults_made >= 4
        assert fake.gateway.resume_count >= 1
        failed = [r for r in fake.requests if r.status in (429, 500)]
        assert failed
        # No lost action: what the bot saved is the game everyone saw finish.
        await fake.wait_for(lambda: bot.service.pending_writes == 0)
        row = await saved_row(w.db, table.table_id)
        assert table.state is not None and row.status == "finished"
        assert row.state_json == table.state.to_json()
        assert len(await bot.service.storage.channel_history(w.guild, w.channel)) == 1


@pytest.mark.slow
async def test_database_locked_game_goes_on_then_saved(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING, logger="bot.tables.save_queue")
    async with world(tmp_path) as w, running_bot(w) as bot:
        fake = w.fake
        table = await start_game(w, bot, [w.alice, w.bob], w.channel)
        # Another process holds the write lock for a while.
        locker = sqlite3.connect(w.db, isolation_level=None, timeout=0)
        locker.execute("BEGIN IMMEDIATE")
        locked_at = table.version
        try:
            for _ in range(4):
                await fake.wait_for(lambda: settled(bot, table, [w.alice, w.bob]))
                assert table.state is not None
                mover = next(
                    u for u in (w.alice, w.bob) if table.state.legal_actions(table.seat_of(u))
                )
                hand = latest_hand(fake, mover)
                # an action, not a disabled selector (which button comes first depends on the deal)
                button = next(
                    b.custom_id
                    for b in hand.buttons
                    if b.custom_id and not b.disabled and ACTION_ID.match(b.custom_id)
                )
                res = await fake.click(mover, hand, button)
                assert res.response_type == UPDATE_MESSAGE and "⚠️" not in res.content
            assert table.version == locked_at + 4  # the game went on in memory
            assert any("database locked or slow" in r.getMessage() for r in caplog.records)
        finally:
            locker.rollback()
            locker.close()
        await fake.wait_for(lambda: bot.service.pending_writes == 0, 15, what="the save")
        row = await saved_row(w.db, table.table_id)
        assert row.version == table.version and table.state is not None
        assert row.state_json == table.state.to_json()


class FlakyStorage:
    """A real SqliteStorage whose writes fail like a full disk while ``full`` is set; with
    ``lose_ack`` the next record_game commits but reports a failure (a lost acknowledgement),
    so a retry must not record the game twice."""

    def __init__(self, inner: SqliteStorage) -> None:
        self.inner = inner
        self.full = False
        self.lose_ack = False

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    async def save_table(self, t: SavedTable) -> None:
        if self.full:
            raise sqlite3.OperationalError("database or disk is full")
        await self.inner.save_table(t)

    def save_table_at_once(self, t: SavedTable) -> bool:
        if self.full:
            raise sqlite3.OperationalError("database or disk is full")
        return self.inner.save_table_at_once(t)

    async def record_game(self, rec: GameRecord) -> RecordedGame:
        if self.full:
            raise sqlite3.OperationalError("database or disk is full")
        recorded = await self.inner.record_game(rec)
        if self.lose_ack:
            self.lose_ack = False
            raise sqlite3.OperationalError("disk I/O error")
        return recorded


@pytest.mark.slow
async def test_disk_full_game_finishes_then_recorded_once(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.ERROR, logger="bot.tables.save_queue")
    async with world(tmp_path) as w:
        storage = FlakyStorage(await SqliteStorage.open(w.db))
        bot = DurakBot(
            settings(w.db),
            sync=True,
            sync_guild=w.guild,
            guild_ready_timeout=0.05,
            storage=storage,
        )
        async with w.fake.run_client(bot):
            fake = w.fake
            table = await open_table(w, bot, [w.alice, w.bob], w.channel)
            storage.full = True
            await play_one_game(w, bot, random.Random(4))
            assert table.status == "finished"
            assert any("database unavailable" in r.getMessage() for r in caplog.records)
            assert await storage.inner.channel_history(w.guild, w.channel) == []
            storage.lose_ack = True
            storage.full = False
            await fake.wait_for(lambda: bot.service.pending_writes == 0, 15, what="the retry")
            history = await storage.inner.channel_history(w.guild, w.channel)
            assert len(history) == 1  # recorded, and only once despite the lost ack
            for user in (w.alice, w.bob):
                assert (await storage.inner.user_stats(user, w.guild)).games == 1
            row = await saved_row(w.db, table.table_id)
            assert row.status == "finished" and row.version == table.version


def forged_ids(rng: random.Random, tables: list[Table]) -> str:
    t = rng.choice(tables)
    other = rng.choice(tables)
    return rng.choice(
        [
            f"dk:{other.table_id}:{rng.randrange(6)}:{rng.randrange(other.version + 2)}:"
            f"{rng.randrange(400)}",
            f"dk:{t.table_id}:{rng.randrange(6)}:{t.version}:a{rng.randrange(60)}",
            f"dk:{t.table_id}:9:{t.version}:1",
            f"dk:deadbeef:0:{t.version}:1",
            f"dkt:{t.table_id}:{rng.choice(['hand', 'rules', 'rematch', 'back', 'nope'])}",
            f"dkl:{t.table_id}:{rng.choice(['join', 'start', 'cancel', 'leave'])}",
            "dk:" + "9" * 120,
            "".join(rng.choice("dk:0123456789abcdefx") for _ in range(rng.randrange(1, 99))),
            f"dks:{t.table_id}:0:{t.version}:0",
        ]
    )


@pytest.mark.slow
async def test_1000_random_and_forged_clicks(tmp_path: Path) -> None:
    async with world(tmp_path) as w, running_bot(w) as bot:
        fake = w.fake
        bot.unanswered_grace = 0.05  # ids in no format of ours: answered after this grace
        dave = fake.add_user("dave")
        second = fake.add_channel(w.guild, "second")
        tables = [
            await start_game(w, bot, [w.alice, w.bob], w.channel),
            await start_game(w, bot, [w.carol, dave], second),
        ]
        users = [w.alice, w.bob, w.carol, dave, fake.add_user("eve")]
        rng = random.Random(11)
        applied = refused = 0
        for _ in range(1000):
            user = rng.choice(users)
            own = [
                m
                for m in fake.ephemeral_messages(user)
                if any(b.custom_id and b.custom_id.startswith("dk:") for b in m.buttons)
            ]
            table = rng.choice(tables)
            if own and rng.random() < 0.6:
                message: FakeMessage = own[-1]
                pool = [b.custom_id for b in message.buttons if b.custom_id]
                custom_id = rng.choice(pool)
            else:
                message = own[-1] if own else public_message(w, table)
                custom_id = forged_ids(rng, tables)
            before = {t.table_id: (t.state, t.version) for t in tables}
            try:
                res: InteractionResult = await raw_click(
                    fake, user, _with_button(message, custom_id), custom_id
                )
            except TimeoutError:
                raise AssertionError(f"no answer to {custom_id!r}") from None
            changed = [t for t in tables if (t.state, t.version) != before[t.table_id]]
            assert len(changed) <= 1
            if changed and custom_id.endswith(":rematch"):
                finished = before[changed[0].table_id][0]
                assert finished is not None and finished.finished
                applied += 1  # a new game at a finished table: legal for its players
            elif changed and custom_id.endswith((":p1", ":p0")):  # "done for this bout"
                t = changed[0]
                old_state, old_version = before[t.table_id]
                seat, version = int(custom_id.split(":")[2]), int(custom_id.split(":")[3])
                # judged on the table as it is: the hand may be older (docs/bot.md)
                assert t.seats[seat].user_id == user and version <= old_version
                assert t.version == old_version + 1 and old_state is not None
                assert t.state is not None and old_state.log == t.state.log[: len(old_state.log)]
                # the table passes for the seat at once where passing is legal (R15)
                assert all(str(a) == "pass" for _, a in t.state.log[len(old_state.log) :])
                applied += 1
            elif changed:
                t = changed[0]
                old_state, old_version = before[t.table_id]
                parts = custom_id.split(":")
                seat, version, code = int(parts[2]), int(parts[3]), int(parts[4])
                assert t.seats[seat].user_id == user and version <= old_version
                assert old_state is not None and t.state is not None
                action = Action.from_code(code)
                assert old_state.can(seat, action)
                expected = old_state.apply(seat, action)[0]
                # then the table passes for seats that are "done for this bout" (R15)
                for other, follow in t.state.log[len(expected.log) :]:
                    assert str(follow) == "pass"
                    expected = expected.apply(other, follow)[0]
                assert t.state.to_json() == expected.to_json()
                assert t.version == old_version + 1
                applied += 1
            else:
                assert res.ephemeral, (custom_id, res.content)  # a reason, only for the clicker
                refused += 1
            for t in tables:
                assert t.state is not None and t.state.status() == ()
            if all(t.status != "running" for t in tables):
                break
        assert applied > 20 and refused > 300, (applied, refused)
        assert fake.violations == []


@pytest.mark.slow
async def test_100_simultaneous_clicks_on_one_table(tmp_path: Path) -> None:
    async with world(tmp_path) as w, running_bot(w) as bot:
        fake = w.fake
        users = [w.alice, w.bob, w.carol]
        table = await start_game(w, bot, users, w.channel)
        await fake.wait_for(lambda: settled(bot, table, users))
        assert table.state is not None
        lead = table.seats[table.state.attacker].user_id
        assert lead is not None
        hand = latest_hand(fake, lead)
        await fake.click(lead, hand, next(b.custom_id for b in hand.buttons if b.custom_id))
        await fake.wait_for(lambda: settled(bot, table, users))
        state, version = table.state, table.version
        options: list[tuple[int, FakeMessage, str]] = []
        for u in users:
            h = latest_hand(fake, u)
            options += [
                (u, h, b.custom_id)
                for b in h.buttons
                if b.custom_id and not b.custom_id.split(":")[-1].startswith(("a", "p"))
            ]
        assert options  # the defender's answers (and throw-ins, if any) race
        rng = random.Random(8)
        sends: list[Callable[[], Coroutine[Any, Any, InteractionResult]]] = []
        for _ in range(100):
            u, h, cid = rng.choice(options)
            sends.append(
                lambda u=u, h=h, cid=cid: fake._interact(  # type: ignore[misc]
                    u,
                    h.channel_id,
                    3,
                    {"custom_id": cid, "component_type": 2},
                    h,
                    label="burst",
                    timeout=10,
                    wait=False,
                )
            )
        results = await asyncio.gather(*(s() for s in sends))
        for r in results:
            await fake.wait_for(r.interaction.responded.is_set, 10, what="every click answered")
        assert table.state is not None
        # Each click is judged on the table as it is when it gets the lock: those still legal
        # then are applied (a defence, then a throw-in it allows, ...), one version each, in
        # an order the engine accepts; the others come back with a notice in the hand.
        new = table.state.log[len(state.log) :]
        assert new and table.version == version + len(new)
        assert all(r.ephemeral for r in results)
        clicked = {(table.seat_of(u), int(cid.rsplit(":", 1)[1])) for u, _, cid in options}
        replay = state
        for seat, action in new:
            assert (seat, action.code) in clicked and replay.can(seat, action)
            replay, _ = replay.apply(seat, action)
        assert replay.log == table.state.log
