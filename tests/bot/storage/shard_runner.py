"""Test-only runner: the real bot (``make_bot`` from the usual settings environment) in its own
process, pointed at a fake Discord that runs in the test process.

    DURAK_FAKE_DISCORD_URL=http://127.0.0.1:PORT DURAK_SCALE_GUILD=ID \
        python tests/bot/storage/shard_runner.py

It syncs the commands to ``DURAK_SCALE_GUILD``, prints ``ready`` once every shard is ready, then
answers lines on stdin: ``query GUILD... USER`` prints one JSON line with each guild's leaderboard
and the user's stats across guilds, read through this process's storage; ``quit`` stops it.
The fake's URL is read here and nowhere else: production code never looks at it.
"""

from __future__ import annotations

import asyncio
import json
import os
import sys

import yarl
from discord.gateway import DiscordWebSocket
from discord.http import Route


async def serve() -> int:
    from bot.__main__ import load_settings
    from bot.app import make_bot
    from bot.storage import LeaderboardQuery

    settings = load_settings()
    if isinstance(settings, str):
        print(settings, file=sys.stderr)
        return 2
    bot = make_bot(
        settings, sync=True, sync_guild=int(os.environ["DURAK_SCALE_GUILD"]),
        guild_ready_timeout=0.05,
    )  # fmt: skip

    async def on_ready() -> None:
        print("ready", flush=True)

    bot.add_listener(on_ready)
    loop = asyncio.get_running_loop()
    async with bot:
        runner = asyncio.create_task(bot.start(settings.discord_token.get_secret_value()))
        while True:
            line = (await loop.run_in_executor(None, sys.stdin.readline)).split()
            if not line or line[0] == "quit":
                break
            if line[0] == "query":
                *guilds, user = (int(x) for x in line[1:])
                storage = bot.service.storage
                out = {
                    str(g): (
                        await storage.leaderboard(
                            LeaderboardQuery(g, "rating", min_games=0, include_ai=True)
                        )
                    ).model_dump(mode="json")
                    for g in guilds
                }
                out["user"] = (await storage.user_stats(user, None)).model_dump(mode="json")
                print(json.dumps(out, sort_keys=True), flush=True)
        await bot.close()
        await runner
    return 0


def main() -> int:
    url = os.environ["DURAK_FAKE_DISCORD_URL"].rstrip("/")
    Route.BASE = url + "/api/v10"
    DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL("ws" + url[len("http") :] + "/")
    return asyncio.run(serve())


if __name__ == "__main__":
    raise SystemExit(main())
