"""The kill harness: the bot runs as a separate process against the fake Discord (which runs
here), is killed with SIGKILL at random moments of games in progress, restarted, and the games
are continued through clicks. Checked after every kill, from the SQLite file the bot wrote:

- no action a player saw acknowledged is missing from the saved game (acknowledged clicks are a
  subsequence of the saved action log);
- the restarted bot resumes exactly the saved game (the game that goes on has the saved log as
  its prefix and the same deal), and play continues to the end.

``run_harness`` is used by ``test_robust_restart.py`` (a few kills) and, for the statistics in
docs/robustness.md, from the repository root:
``python -m tests.bot.robust_harness --kills 30 --games 6``.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import re
import signal
import sqlite3
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from durak_core import GameState
from durak_core.serialize import state_from_json
from tests.bot.quick_settings import bot_env
from tests.fake_discord import FakeDiscord, FakeMessage, InteractionResult
from tests.fake_discord.pytest_plugin import started_fake

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
ACTION_ID = re.compile(r"^dk:(?P<table>[0-9a-f]{8}):(?P<seat>\d):(?P<version>\d+):(?P<code>\d+)$")


def table_message(fake: FakeDiscord, channel: int) -> FakeMessage | None:
    """The newest table message (the one with the table's ``dkt:`` buttons) in ``channel``."""
    found = [
        m
        for m in fake.channel_messages(channel)
        if any((b.custom_id or "").startswith("dkt:") for b in m.buttons)
    ]
    return found[-1] if found else None


@dataclass
class ChannelTable:
    """A table that ``humans`` play in ``channel`` (AI seats fill the others): its id and its
    table message's, once the table message is posted (:meth:`posted`)."""

    channel: int
    humans: list[int]
    table_id: str = ""
    message_id: int = 0

    async def posted(self, fake: FakeDiscord, timeout: float) -> None:
        """Wait for the table message; note its id and the table's (from its buttons)."""
        msg = await fake.wait_for(
            lambda: table_message(fake, self.channel), timeout, what="the table message"
        )
        self.message_id = msg.id
        self.table_id = next(
            b.custom_id.split(":")[1]
            for b in msg.buttons
            if b.custom_id and b.custom_id.startswith("dkt:")
        )


@dataclass
class Game(ChannelTable):
    acked: list[tuple[int, int]] = field(default_factory=list)  # (seat, action code)
    finished: bool = False


@dataclass
class Stats:
    kills: int = 0
    kills_mid_click: int = 0
    games: int = 0
    running_at_kill: int = 0  # (kill, game in progress) pairs checked
    resumed: int = 0
    finished: int = 0
    acked_actions: int = 0
    lost_actions: int = 0
    seconds: float = 0.0


def saved(db: Path) -> dict[str, tuple[str, str, int]]:
    """table id -> (status, state_json, version), read as another process would."""
    con = sqlite3.connect(db)
    try:
        rows = con.execute("SELECT table_id, status, state_json, version FROM saved_tables")
        return {r[0]: (r[1], r[2], r[3]) for r in rows}
    finally:
        con.close()


def is_subsequence(small: list[tuple[int, int]], big: list[tuple[int, int]]) -> bool:
    it = iter(big)
    return all(any(x == y for y in it) for x in small)


class BotProcess:
    #: The bot's entry point (a subclass may run another test runner around it).
    runner = HERE / "robust_runner.py"

    def __init__(self, fake: FakeDiscord, workdir: Path) -> None:
        self.fake = fake
        self.workdir = workdir
        self.proc: subprocess.Popen[bytes] | None = None
        self.log = open(workdir / "bot.log", "ab")  # noqa: SIM115 - closed in stop()

    def env(self) -> dict[str, str]:
        return bot_env(
            self.fake,
            PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]),
            database_path=self.workdir / "durak.sqlite3",
            ai_delay_seconds=0.02,
            hand_idle_refresh_seconds=0.05,
        )

    async def sync(self, guild: int) -> None:
        # In a thread: the fake Discord answering it runs on this event loop.
        await asyncio.to_thread(
            subprocess.run,
            [sys.executable, str(self.runner), "--sync", "--guild", str(guild)],
            env=self.env(),
            cwd=self.workdir,
            stdout=self.log,
            stderr=self.log,
            check=True,
            timeout=60,
        )

    def spawn(self) -> None:
        """Start the bot process, its output to the log; ``start`` waits for what it needs."""
        self.proc = subprocess.Popen(
            [sys.executable, str(self.runner)],
            env=self.env(),
            cwd=self.workdir,
            stdout=self.log,
            stderr=self.log,
        )

    async def start(self) -> None:
        identifies = self.fake.gateway.identify_count
        self.spawn()
        await self.fake.wait_for(
            lambda: self.fake.gateway.identify_count > identifies and self.fake.gateway.connected,
            30,
            what="the bot process to connect",
        )
        await asyncio.sleep(0.2)  # READY and GUILD_CREATE processed

    def kill(self) -> None:
        assert self.proc is not None
        os.kill(self.proc.pid, signal.SIGKILL)
        self.proc.wait()
        self.proc = None

    async def stop(self) -> None:
        if self.proc is not None:
            self.proc.send_signal(signal.SIGINT)
            try:
                await asyncio.to_thread(self.proc.wait, 10)
            except subprocess.TimeoutExpired:
                self.kill()
            self.proc = None
        self.log.close()


def latest_hand(fake: FakeDiscord, user: int) -> FakeMessage | None:
    hands = [m for m in fake.ephemeral_messages(user) if "**" in m.content and m.buttons]
    return hands[-1] if hands else None


async def open_hands(fake: FakeDiscord, game: Game) -> None:
    for user in game.humans:
        await fake.click(user, game.message_id, f"dkt:{game.table_id}:hand", timeout=10)


def pick_click(fake: FakeDiscord, game: Game, rng: random.Random) -> tuple[int, str] | None:
    options = []
    for user in game.humans:
        hand = latest_hand(fake, user)
        if hand is None:
            continue
        ids = [
            b.custom_id
            for b in hand.buttons
            if b.custom_id and not b.disabled and ACTION_ID.match(b.custom_id)
        ]
        options += [(user, i) for i in ids]
    return rng.choice(options) if options else None


async def click(fake: FakeDiscord, game: Game, user: int, custom_id: str) -> InteractionResult:
    hand = latest_hand(fake, user)
    assert hand is not None
    return await fake.click(user, hand, custom_id, timeout=10)


def acknowledged(result: InteractionResult, custom_id: str) -> tuple[int, int] | None:
    """(seat, code) if the bot answered the click as an applied action."""
    # The answer as sent (the message itself may have been refreshed since).
    body = result.interaction.response_body or {}
    sent = str((body.get("data") or {}).get("content", ""))
    if result.response_type != 7 or not sent or "⚠️" in sent:
        return None
    m = ACTION_ID.match(custom_id)
    assert m is not None
    return int(m["seat"]), int(m["code"])


async def run_harness(workdir: Path, *, kills: int, games: int, seed: int = 1) -> Stats:
    rng = random.Random(seed)
    stats = Stats(games=games)
    t0 = time.monotonic()
    async with started_fake() as fake:
        guild = fake.add_guild("Kill Club")
        pool = [fake.add_user(f"p{i}") for i in range(2 * games)]
        all_games = [
            Game(fake.add_channel(guild, f"t{i}"), pool[2 * i : 2 * i + 2]) for i in range(games)
        ]
        bot = BotProcess(fake, workdir)
        await bot.sync(guild)
        await bot.start()
        db = workdir / "durak.sqlite3"
        for g in all_games:
            host, other = g.humans
            await fake.slash(
                host, g.channel, "durak", "new", options={"ai_seats": 1, "ai_level": "easy"}
            )
            await fake.slash(other, g.channel, "durak", "join")
            await fake.slash(host, g.channel, "durak", "start")
            await g.posted(fake, 10)
            await open_hands(fake, g)

        # Kill after a random number of acknowledged clicks, sometimes with a click in flight.
        kill_points = sorted(rng.sample(range(5, 40 * games), kills))
        clicks = 0
        pending_kills = list(kill_points)
        idle_since = time.monotonic()
        while any(not g.finished for g in all_games):
            if time.monotonic() - t0 > 600:
                raise TimeoutError("the harness did not finish the games")
            running = [g for g in all_games if not g.finished]
            g = rng.choice(running)
            status = saved(db).get(g.table_id, ("running", "", 0))[0]
            if status == "finished":
                g.finished = True
                stats.finished += 1
                continue
            choice = pick_click(fake, g, rng)
            if choice is None or time.monotonic() - idle_since > 2:
                await asyncio.sleep(0.05)
                if time.monotonic() - idle_since > 2:  # hands not refreshed: open them again
                    await open_hands(fake, g)
                    idle_since = time.monotonic()
                continue
            user, custom_id = choice
            if pending_kills and clicks >= pending_kills[0]:
                pending_kills.pop(0)
                if rng.random() < 0.5:  # kill while a click is being handled
                    hand = latest_hand(fake, user)
                    assert hand is not None
                    await fake.click(user, hand, custom_id, wait=False)
                    await asyncio.sleep(rng.uniform(0, 0.02))
                    stats.kills_mid_click += 1
                bot.kill()
                stats.kills += 1
                await check_after_kill(fake, bot, db, all_games, stats)
                idle_since = time.monotonic()
                continue
            result = await click(fake, g, user, custom_id)
            ack = acknowledged(result, custom_id)
            if ack is not None:
                g.acked.append(ack)
                clicks += 1
                stats.acked_actions += 1
                idle_since = time.monotonic()
        final = saved(db)
        for g in all_games:
            status, state_json, _ = final[g.table_id]
            log = [(s, a.code) for s, a in state_from_json(state_json).log]
            assert status == "finished"
            if not is_subsequence(g.acked, log):
                stats.lost_actions += 1
        await bot.stop()
    stats.seconds = round(time.monotonic() - t0, 1)
    return stats


async def check_after_kill(
    fake: FakeDiscord, bot: BotProcess, db: Path, games: list[Game], stats: Stats
) -> None:
    at_kill = saved(db)
    snapshots: dict[str, GameState] = {}
    for g in games:
        status, state_json, _ = at_kill[g.table_id]
        state = state_from_json(state_json)
        log = [(s, a.code) for s, a in state.log]
        if not is_subsequence(g.acked, log):
            stats.lost_actions += 1
        if status == "running":
            snapshots[g.table_id] = state
            stats.running_at_kill += 1
    await bot.start()
    for g in games:
        if g.table_id in snapshots:
            await open_hands(fake, g)
    # Every game that was running resumes from exactly the saved state and moves on.
    for g in games:
        before = snapshots.get(g.table_id)
        if before is None:
            continue

        def moved_on(g: Game = g, before: GameState = before) -> GameState | None:
            status, state_json, _ = saved(db)[g.table_id]
            now = state_from_json(state_json)
            if len(now.log) > len(before.log) or status == "finished":
                return now
            return None

        deadline = time.monotonic() + 20
        now: GameState | None = None
        while now is None and time.monotonic() < deadline:
            now = moved_on()
            if now is None:
                choice = pick_click(fake, g, random.Random())
                if choice is not None:
                    user, custom_id = choice
                    result = await click(fake, g, user, custom_id)
                    ack = acknowledged(result, custom_id)
                    if ack is not None:
                        g.acked.append(ack)
                        stats.acked_actions += 1
                else:
                    await asyncio.sleep(0.05)
        assert now is not None, f"table {g.table_id} did not resume"
        if (
            list(now.log[: len(before.log)]) == list(before.log)
            and now.order_cards() == before.order_cards()
        ):
            stats.resumed += 1


def main() -> None:
    import argparse
    import tempfile

    p = argparse.ArgumentParser()
    p.add_argument("--kills", type=int, default=30)
    p.add_argument("--games", type=int, default=6)
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        stats = asyncio.run(
            run_harness(Path(tmp), kills=args.kills, games=args.games, seed=args.seed)
        )
    print(json.dumps(stats.__dict__))


if __name__ == "__main__":
    main()
