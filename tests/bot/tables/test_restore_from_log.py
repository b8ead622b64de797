"""A restarted bot restores a table from its action log when the saved snapshot disagrees with
it (docs/engine.md, "Playing to the end, results, replay, JSON"): nothing played is lost, the
discrepancy is logged without any hidden card, and the game goes on."""

from __future__ import annotations

import json
import logging
import random
import sqlite3
from pathlib import Path

import pytest

from bot.app import DurakBot
from bot.tables import persistence
from bot.tables.persistence import restore_state
from bot.tables.table import Table
from durak_core import StateFormatError, new_game
from durak_core.rules import RuleSet
from durak_core.serialize import state_from_json
from tests.bot.delivery.test_turn_alerts import act, movers
from tests.bot.helpers import World, open_table, public_message, running_bot, table_of, world
from tests.bot.tables.test_bot_game import settled


def saved_row(db: Path, table_id: str) -> str:
    with sqlite3.connect(db) as conn:
        (text,) = conn.execute(
            "SELECT state_json FROM saved_tables WHERE table_id = ?", (table_id,)
        ).fetchone()
    return str(text)


def overwrite_row(db: Path, table_id: str, state_json: str) -> None:
    with sqlite3.connect(db) as conn:
        conn.execute(
            "UPDATE saved_tables SET state_json = ? WHERE table_id = ?", (state_json, table_id)
        )


async def open_hands(w: World, table: Table, users: list[int]) -> None:
    for u in users:
        await w.fake.click(u, public_message(w, table), f"dkt:{table.table_id}:hand")


async def calm(w: World, bot: DurakBot, table: Table, users: list[int]) -> None:
    await w.fake.wait_for(lambda: settled(bot, table, users), 10, what="a settled table")


@pytest.mark.slow
async def test_a_snapshot_that_disagrees_with_its_log_is_restored_from_the_log(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    rng = random.Random(3)
    async with world(tmp_path) as w:
        users = [w.alice, w.bob]
        async with running_bot(w) as bot:
            table = await open_table(w, bot, users, w.channel)
            await open_hands(w, table, users)
            for _ in range(4):
                await calm(w, bot, table, users)
                await act(w, table, rng.choice(movers(table, users)), rng)
            await calm(w, bot, table, users)
            table_id = table.table_id
        truth = saved_row(w.db, table_id)
        played = state_from_json(truth)
        assert played.version >= 4
        tampered = json.loads(truth)
        secret = tampered["hands"][0][0]
        tampered["hands"][0].append(secret)  # a card twice: the old loader dropped one
        tampered["defender"] = tampered["attacker"]
        overwrite_row(w.db, table_id, json.dumps(tampered))

        caplog.set_level(logging.WARNING, logger="bot.tables.persistence")
        async with running_bot(w) as bot:
            table = table_of(bot, w.channel)
            assert table.table_id == table_id and table.state is not None
            assert table.state == played  # every action kept
            assert table.state.to_json() == truth
            warnings = [r.getMessage() for r in caplog.records if r.name == persistence.__name__]
            assert len(warnings) == 1, warnings
            assert table_id in warnings[0] and "hands[0] (seat 0)" in warnings[0]
            assert secret not in warnings[0]
            await open_hands(w, table, users)
            await calm(w, bot, table, users)
            await act(w, table, rng.choice(movers(table, users)), rng)  # and the game goes on
            assert table.state.version == played.version + 1


def test_restore_state_keeps_a_consistent_snapshot_and_refuses_a_broken_log(
    caplog: pytest.LogCaptureFixture,
) -> None:
    g = new_game(RuleSet(), 2, seed=8)
    g, _ = g.apply(g.attacker, g.legal_actions(g.attacker)[0])
    caplog.set_level(logging.WARNING, logger="bot.tables.persistence")
    assert restore_state("t1", g.to_json()) == g
    assert caplog.records == []
    broken = json.loads(g.to_json())
    broken["log"] = ["5 take"]
    with pytest.raises(StateFormatError, match="log entry 0"):
        restore_state("t1", json.dumps(broken))
