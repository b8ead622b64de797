"""Test-only entry point: the real bot (``bot.__main__.main``) in its own process, pointed at a
fake Discord that runs in the test process.

    DURAK_FAKE_DISCORD_URL=http://127.0.0.1:PORT python tests/bot/robust_runner.py [--sync ...]

The environment variable is read here and nowhere else: production code never looks at it.
Everything else (token, database, timers) comes from the usual settings environment.
"""

from __future__ import annotations

import os
import sys

import yarl
from discord.gateway import DiscordWebSocket
from discord.http import Route


def main() -> int:
    url = os.environ["DURAK_FAKE_DISCORD_URL"].rstrip("/")
    Route.BASE = url + "/api/v10"
    DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL("ws" + url[len("http") :] + "/")
    from bot.__main__ import main as bot_main

    return bot_main(sys.argv[1:])


if __name__ == "__main__":
    raise SystemExit(main())
