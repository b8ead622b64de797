"""A tournament beside ordinary tables: a 64-entrant Swiss of 5 rounds at 2-seat tables, every
entrant a no-show whose seat the AI plays (the fast budget), run by the bot as its own process
against the fake Discord with Discord's limits on (5 edits and 5 messages per 5 s per channel,
the global 50 a second), while 50 ordinary tables (1 human + 3 AI, the human clicking after a
thinking time) are played beside it.

    python -m benchmarks.tournament [--entrants 64] [--rounds 5] [--tables 50]

Reported (JSON on the last line): the tournament's wall time from the start command to its
finish, the bot's channel messages and message edits per minute over that time, the threads it
created, 429 responses, and the bot's interaction time (p50 / p99, measured inside the bot as
in ``benchmarks.bot_load``) for the clicks of the ordinary tables. The goal (issue #18): no 429,
and a bot p99 within 100 ms.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import re
import tempfile
import time
from pathlib import Path

from benchmarks.bot_load import P99_TARGET_MS, ms_percentiles, route_of
from benchmarks.chat_load import ChatPlayers, Tbl
from bot.text import t
from tests.bot.robust_harness import BotProcess
from tests.fake_discord import FakeDiscord
from tests.fake_discord.pytest_plugin import started_fake

MANAGE_EVENTS, MANAGE_SERVER = 1 << 33, 1 << 5
CHAMPION = (("tstand.champion", "name"), ("tstand.champions", "names"))
MESSAGES = re.compile(r"^/channels/\d+/messages$")
EDITS = re.compile(r"^/channels/\d+/messages/\d+$")


def standings_final(fake: FakeDiscord, channel: int) -> bool:
    """The standings message names the champion (or the joint champions): the end."""
    marks = [t(key, **{arg: "\0"}).split("\0")[0] for key, arg in CHAMPION]
    return any(any(mark in str(m.embeds) for mark in marks) for m in fake.channel_messages(channel))


async def run(entrants: int, rounds: int, n_tables: int, seed: int) -> dict[str, object]:
    rng = random.Random(seed)
    async with started_fake() as fake:
        fake.set_edit_rate_limit(True, limit=5, per=5.0)
        fake.set_message_rate_limit(True, limit=5, per=5.0)
        guild = fake.add_guild("Cup night")
        hall = fake.add_channel(guild, "tournament")
        organiser = fake.add_user("organiser")
        fake.grant(organiser, MANAGE_EVENTS | MANAGE_SERVER)
        players = [fake.add_user(f"e{i}") for i in range(entrants)]
        tables = [
            Tbl(fake.add_channel(guild, f"t{i}"), [fake.add_user(f"u{i}")]) for i in range(n_tables)
        ]
        with tempfile.TemporaryDirectory() as tmp:
            bot = BotProcess(fake, Path(tmp))
            timing = Path(tmp) / "timing.txt"
            overrides = {
                "AI_DELAY_SECONDS": "0.3",
                "AI_BUDGET_SECONDS": "0.05",
                "AI_BUDGET_ITERATIONS": "",
                "TURN_TIMER_SECONDS": "60",
                "TABLE_EDIT_INTERVAL_SECONDS": "1.0",
                "HAND_IDLE_REFRESH_SECONDS": "1.0",
                "LOG_LEVEL": "WARNING",
                "DURAK_TIMING_FILE": str(timing),
            }
            base_env = bot.env
            bot.env = lambda: {**base_env(), **overrides}  # type: ignore[method-assign]
            await bot.sync(guild)
            await bot.start()
            try:
                await fake.slash(organiser, hall, "durak", "settings", options={"images": False})
                chat = ChatPlayers(fake, rng, (0.5, 2.0))
                await chat.open_tables(tables, at_once=10)
                await fake.slash(
                    organiser, hall, "durak-tournament", "new", timeout=30,
                    # exactly ``rounds`` rounds, as measured before the deciding game existed
                    options={"name": "Bench", "table_size": 2, "rounds": rounds, "timer": 1,
                             "decider": False},
                )  # fmt: skip
                signup = await fake.wait_for(
                    lambda: next((m for m in fake.channel_messages(hall) if m.buttons), None), 30
                )
                join = next(
                    b.custom_id for b in signup.buttons if (b.custom_id or "").endswith("join")
                )
                assert join is not None
                for p in players:
                    await fake.click(p, signup, join, timeout=30)
                until = time.monotonic() + 3600  # stopped when the tournament is over
                humans = [asyncio.create_task(chat.human(tb, tb.humans[0], until)) for tb in tables]
                before = len(fake.requests)
                wall = time.time()
                t0 = time.monotonic()
                await fake.slash(organiser, hall, "durak-tournament", "start", timeout=30)
                await fake.wait_for(lambda: standings_final(fake, hall), 3600)
                seconds = time.monotonic() - t0
                for task in humans:
                    task.cancel()
                await asyncio.gather(*humans, return_exceptions=True)
            finally:
                await bot.stop()
            rows = [ln.split() for ln in timing.read_text().splitlines()] if timing.exists() else []
            during = [float(r[0]) for r in rows if len(r) > 2 and float(r[2]) >= wall]
        made = fake.requests[before:]
        minutes = seconds / 60
        return {
            "entrants": entrants,
            "rounds": rounds,
            "tables_beside": n_tables,
            "tournament_seconds": round(seconds, 1),
            "messages_per_minute": round(
                sum(r.method == "POST" and bool(MESSAGES.match(r.path)) for r in made) / minutes, 1
            ),
            "edits_per_minute": round(
                sum(r.method == "PATCH" and bool(EDITS.match(r.path)) for r in made) / minutes, 1
            ),
            "threads": len(fake.threads(hall)),
            "responses_429": fake.rate_limit_count,
            "responses_429_by_route": sorted({route_of(r) for r in made if r.status == 429}),
            **ms_percentiles("bot_interaction_ms", during),
            "bot_interactions_timed": len(during),
            "p99_target_ms": P99_TARGET_MS,
        }


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--entrants", type=int, default=64)
    p.add_argument("--rounds", type=int, default=5)
    p.add_argument("--tables", type=int, default=50, help="ordinary tables played beside it")
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args()
    print(json.dumps(asyncio.run(run(args.entrants, args.rounds, args.tables, args.seed))))


if __name__ == "__main__":
    main()
