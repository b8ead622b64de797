"""Test-only entry point: the bot in its own process (tests/bot/robust_runner.py), with the
harness page (Discord's parent frame, activity/harness) on its Activity server's origin, as the
in-process browser tests have it. The page's ``authorize`` codes come from the fake Discord in
the test process (its ``/_test/activity/code`` route)."""

from __future__ import annotations

import os

import aiohttp
from aiohttp import web

from bot.activity.server import ActivityServer
from tests.activity.browser import harness_routes
from tests.bot import robust_runner
from tests.fake_discord.activity import TEST_CODE_ROUTE


def main() -> int:
    fake = os.environ["DURAK_FAKE_DISCORD_URL"].rstrip("/")

    async def issue_code(user: int) -> str:
        async with (
            aiohttp.ClientSession() as http,
            http.get(fake + TEST_CODE_ROUTE, params={"user": str(user)}) as answer,
        ):
            return await answer.text()

    served = ActivityServer.app

    def with_harness(server: ActivityServer) -> web.Application:
        app = served(server)
        app.add_routes(harness_routes(issue_code))
        return app

    ActivityServer.app = with_harness  # type: ignore[method-assign, assignment]
    return robust_runner.main()


if __name__ == "__main__":
    raise SystemExit(main())
