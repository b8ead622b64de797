"""What keeps the bot cheap under load (docs/performance.md, "What keeps it cheap"): pictures are
uploaded only when they change, saves share transactions, AI decisions run in worker
processes."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bot.domain import TableStatus
from bot.storage import SavedTable, SqliteStorage, StaleTableVersion
from bot.tables.ai_runner import AiRunner
from durak_core import GameState, new_game, preset, visible_to
from durak_core.ai import Budget, Level, make_player
from tests.bot.helpers import public_message, running_bot, world
from tests.bot.tables.test_bot_game import settled
from tests.bot.tables.test_robust_faults import start_game


def _uploads(body: object) -> list[str]:
    """Filenames a request's JSON payload attaches (none when it keeps the attachments)."""
    if not isinstance(body, dict):
        return []
    data = body.get("data", body)  # an interaction callback wraps the message in "data"
    if not isinstance(data, dict) or "attachments" not in data:
        return []
    return [str(a.get("filename")) for a in data["attachments"]]


@pytest.mark.slow
async def test_hand_picture_uploaded_only_when_the_hand_changes(tmp_path: Path) -> None:
    async with world(tmp_path) as w, running_bot(w) as bot:
        fake = w.fake
        users = [w.alice, w.bob]
        table = await start_game(w, bot, users, w.channel)
        await fake.wait_for(lambda: settled(bot, table, users))
        assert table.state is not None
        mover = next(u for u in users if table.state.legal_actions(table.seat_of(u)))
        other = w.bob if mover == w.alice else w.alice
        hands = {u: bot.notifier.links[(table.table_id, u)] for u in users}
        known = hands[other].message_id
        other_message = fake.message(known) if known is not None else None
        before = len(fake.requests)
        hand = next(
            m
            for m in reversed(fake.ephemeral_messages(mover))
            if any(b.custom_id and b.custom_id.startswith("dk:") for b in m.buttons)
        )
        button = next(
            b.custom_id
            for b in hand.buttons
            if b.custom_id
            and b.custom_id.startswith("dk:")
            and b.custom_id.rsplit(":", 1)[1].isdigit()  # an action, not aiming
        )
        res = await fake.click(mover, hand, button)
        await fake.wait_for(lambda: settled(bot, table, users))
        new = fake.requests[before:]
        answer = [r for r in new if r.path.endswith("/callback")]
        assert answer and _uploads(answer[0].body) == ["hand.png"]  # one card fewer: new picture
        refresh = [r for r in new if r.method == "PATCH" and "/webhooks/" in r.path]
        assert refresh, "the other player's hand was refreshed"
        # The other player's cards did not change: the refresh keeps the picture it showed.
        assert all(_uploads(r.body) == [] for r in refresh)
        assert res.message is not None
        assert "hand.png" in fake.attachment_bytes(res.message)
        if other_message is not None:
            assert set(fake.attachment_bytes(other_message)) == {"hand.png"}
        # The public picture is only uploaded when the scene changes.
        message = public_message(w, table)
        assert set(fake.attachment_bytes(message)) == {"table.png"}


def _saved(table_id: str, version: int) -> SavedTable:
    return SavedTable(
        table_id=table_id,
        guild_id=1,
        channel_id=1,
        thread_id=None,
        lobby_message_id=None,
        table_message_id=None,
        state_json="",
        meta={"v": version},
        status=TableStatus.RUNNING,
        version=version,
    )


async def test_concurrent_saves_share_transactions_and_keep_the_guard(tmp_path: Path) -> None:
    storage = await SqliteStorage.open(tmp_path / "s.sqlite3")
    try:
        calls = 0
        upsert = storage._upsert

        async def counted(tables: list[SavedTable]) -> dict[str, int]:
            nonlocal calls
            calls += 1
            return await upsert(tables)

        storage._upsert = counted  # type: ignore[method-assign]
        await asyncio.gather(*(storage.save_table(_saved(f"t{i}", 1)) for i in range(50)))
        assert calls <= 2  # 50 saves, one or two commits (the first may start alone)
        # In one batch, a save older than one queued before it is refused, as one by one.
        results = await asyncio.gather(
            storage.save_table(_saved("t0", 5)),
            storage.save_table(_saved("t0", 3)),
            storage.save_table(_saved("t0", 7)),
            return_exceptions=True,
        )
        assert results[0] is None and results[2] is None
        assert isinstance(results[1], StaleTableVersion) and results[1].stored == 5
        try:
            await storage.save_table(_saved("t0", 6))
            raise AssertionError("an older version than the stored one was saved")
        except StaleTableVersion as exc:
            assert exc.stored == 7
        stored = {t.table_id: t.version for t in await storage.load_tables((TableStatus.RUNNING,))}
        assert len(stored) == 50 and stored["t0"] == 7
    finally:
        await storage.close()


def _runner_and_position(processes: int) -> tuple[AiRunner, GameState, int]:
    """An AI runner with ``processes`` workers (it needs no service for ``_decide``) and a
    fresh two-seat classic game with the seat that may act."""
    runner = AiRunner(object(), delay=0, processes=processes)  # type: ignore[arg-type]
    state = new_game(preset("classic"), 2, seed=4)
    return runner, state, next(s for s in range(2) if state.legal_actions(s))


async def test_ai_decides_in_a_worker_process() -> None:
    class Service:  # the runner only needs settings here
        pass

    runner = AiRunner(Service(), delay=0, processes=1)  # type: ignore[arg-type]
    try:
        state = new_game(preset("classic"), 3, seed=4)
        seat = next(s for s in range(3) if state.legal_actions(s))
        player = make_player(Level.HARD, seed=9, budget=Budget(seconds=0.05, iterations=20))
        view = state.view(seat)
        action = await runner._decide(player, view, visible_to([], seat))
        assert action in view.legal_actions
        assert runner._workers is not None and len(runner._workers.pids) == 1  # not a thread
        assert runner._workers.pids[0] != os.getpid()
        # the same decision as in this process: players keep no state between decisions
        assert action == player.choose(view, visible_to([], seat))
    finally:
        await runner.close()


@pytest.mark.slow
async def test_a_killed_ai_worker_is_replaced(caplog: pytest.LogCaptureFixture) -> None:
    """A worker killed mid-decision: that decision is made in a thread (with a warning), the
    next one in a fresh worker; a player that raises in the worker is reported as an error
    and the worker goes on."""
    runner, state, seat = _runner_and_position(1)
    view, history = state.view(seat), visible_to([], seat)
    slow = make_player(Level.HARD, seed=9, budget=Budget(seconds=2.0, clock=time.perf_counter))
    try:
        quick = make_player(Level.HARD, seed=1, budget=Budget(iterations=20))
        await runner._decide(quick, view, history)  # starts the worker
        assert runner._workers is not None
        (first,) = runner._workers.pids
        deciding = asyncio.create_task(runner._decide(slow, view, history))
        await asyncio.sleep(0.3)
        os.kill(first, signal.SIGKILL)
        assert await deciding in view.legal_actions
        assert any("AI worker process died" in r.getMessage() for r in caplog.records)
        assert await runner._decide(quick, view, history) in view.legal_actions
        (second,) = runner._workers.pids
        assert second != first
        idle = 1 - seat  # a seat with no legal action: the player raises in the worker
        with pytest.raises(RuntimeError, match="needs a seat with legal actions"):
            await runner._workers.decide(
                make_player(Level.EASY, seed=1), state.view(idle), visible_to([], idle)
            )
        assert runner._workers.pids == [second]  # an error answer keeps the worker
    finally:
        await runner.close()
    assert runner._workers is None


async def test_forced_moves_and_rules_of_thumb_are_decided_without_a_worker() -> None:
    """A seat with one legal action, Easy's rule of thumb and Normal's heuristics cost less than
    a trip to a worker: no worker process is started for them, and the decision is the
    player's own. Normal's endgame search (talon empty, two seats) goes to a worker."""
    runner, state, seat = _runner_and_position(1)
    view, history = state.view(seat), visible_to([], seat)
    easy = make_player(Level.EASY, seed=1)
    normal = make_player(Level.NORMAL, seed=1)
    try:
        assert len(view.legal_actions) > 1
        assert await runner._decide(easy, view, history) == easy.choose(view, history)
        assert await runner._decide(normal, view, history) == normal.choose(view, history)
        forced = endgame = None
        while forced is None or endgame is None:  # play on: a forced move, then the endgame
            mover = next(s for s in range(2) if state.legal_actions(s))
            mover_view = state.view(mover)
            if forced is None and len(mover_view.legal_actions) == 1:
                forced = mover_view
            if endgame is None and mover_view.talon_size == 0 and len(mover_view.legal_actions) > 1:
                endgame = mover_view
            state, _ = state.apply(mover, easy.choose(mover_view, ()))
        hard = make_player(Level.HARD, seed=9, budget=Budget(seconds=5.0))
        assert await runner._decide(hard, forced, ()) == forced.legal_actions[0]
        assert runner._workers is None  # none of these needed a worker
        assert await runner._decide(normal, endgame, ()) == normal.choose(endgame, ())
        assert runner._workers is not None and len(runner._workers.pids) == 1
    finally:
        await runner.close()


@pytest.mark.slow
async def test_ai_workers_decide_side_by_side() -> None:
    """``AI_PROCESSES=2``: two decisions at once run in two worker processes; a third waits for
    a free one instead of starting more."""
    runner, state, seat = _runner_and_position(2)
    view, history = state.view(seat), visible_to([], seat)
    player = make_player(Level.HARD, seed=9, budget=Budget(seconds=0.3, clock=time.perf_counter))
    try:
        actions = await asyncio.gather(*(runner._decide(player, view, history) for _ in range(3)))
        assert all(a in view.legal_actions for a in actions)
        assert runner._workers is not None and len(runner._workers.pids) == 2
    finally:
        await runner.close()


_KILLED_BOT = """
import asyncio, os, signal
from bot.tables.ai_runner import AiRunner
from durak_core import new_game, preset, visible_to
from durak_core.ai import Budget, Level, make_player


async def main():
    runner = AiRunner(object(), delay=0, processes=1)
    state = new_game(preset("classic"), 2, seed=4)
    seat = next(s for s in range(2) if state.legal_actions(s))
    hard = make_player(Level.HARD, seed=1, budget=Budget(iterations=20))
    await runner._decide(hard, state.view(seat), visible_to([], seat))
    print(*runner._workers.pids, flush=True)
    os.kill(os.getpid(), signal.SIGKILL)  # no shutdown: like a crash or the OOM killer


asyncio.run(main())
"""


@pytest.mark.slow
def test_ai_worker_ends_when_the_bot_is_killed() -> None:
    """A bot killed outright leaves no AI worker process behind (it watches its parent)."""
    proc = subprocess.run(
        [sys.executable, "-c", _KILLED_BOT], capture_output=True, text=True, timeout=60
    )
    assert proc.returncode == -signal.SIGKILL, proc.stderr
    workers = [int(p) for p in proc.stdout.split()]
    assert len(workers) == 1

    def alive(pid: int) -> bool:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return False
        return True

    deadline = time.monotonic() + 10
    while any(alive(p) for p in workers) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not any(alive(p) for p in workers), "the AI worker outlived the killed bot"
