"""Test-only entry point: the real bot (``bot.__main__.main``) in its own process, pointed at a
fake Discord that runs in the test process.

    DURAK_FAKE_DISCORD_URL=http://127.0.0.1:PORT python tests/bot/robust_runner.py [--sync ...]

The environment variable is read here and nowhere else: production code never looks at it.
Everything else (token, database, timers) comes from the usual settings environment.

With ``DURAK_TIMING_FILE`` set (the load benchmark), the bot's own processing time of every
interaction is written there, one line per interaction, two values in seconds: from discord.py
building the ``Interaction`` (gateway frame parsed) to the bot's first response being accepted
by (the fake) Discord, and to the moment the bot hands that response to HTTP (its work done,
the round trip to Discord not counted); then the Unix time of the answer.
"""

from __future__ import annotations

import atexit
import os
import sys
import time
from typing import Any

import yarl
from discord.gateway import DiscordWebSocket
from discord.http import Route


def time_interactions(path: str) -> None:
    from discord.interactions import Interaction
    from discord.webhook.async_ import AsyncWebhookAdapter

    started: dict[int, float] = {}
    # Line-buffered: the figures survive a bot that is killed instead of stopping cleanly.
    out = open(path, "a", buffering=1)  # noqa: SIM115 - open for the life of the process
    init, respond = Interaction.__init__, AsyncWebhookAdapter.create_interaction_response

    def timed_init(self: Interaction, *args: Any, **kwargs: Any) -> None:
        init(self, *args, **kwargs)
        started[self.id] = time.perf_counter()

    async def timed_respond(self: Any, interaction_id: int, *args: Any, **kwargs: Any) -> Any:
        handed = time.perf_counter()
        result = await respond(self, interaction_id, *args, **kwargs)
        t0 = started.pop(interaction_id, None)
        if t0 is not None:
            out.write(f"{time.perf_counter() - t0:.6f} {handed - t0:.6f} {time.time():.3f}\n")
        return result

    Interaction.__init__ = timed_init  # type: ignore[method-assign]
    AsyncWebhookAdapter.create_interaction_response = timed_respond  # type: ignore[method-assign]
    atexit.register(out.close)


def main() -> int:
    if os.environ.get("DURAK_TIMING_FILE"):
        time_interactions(os.environ["DURAK_TIMING_FILE"])
    url = os.environ["DURAK_FAKE_DISCORD_URL"].rstrip("/")
    Route.BASE = url + "/api/v10"
    DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL("ws" + url[len("http") :] + "/")
    from bot.__main__ import main as bot_main

    return bot_main(sys.argv[1:])


if __name__ == "__main__":
    raise SystemExit(main())
