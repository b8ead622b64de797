"""``/durak status`` (docs/deploy.md, "Health"): only for the bot's owner and members with Manage
Server; it counts the tables open, the interactions answered in the last 5 minutes (timed from
discord.py's HTTP requests), Discord's 429s, the SQLite file's size, and shows the id of the
last unexpected error, the same id the player saw."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from bot.storage import StorageBusy
from bot.text import t
from tests.bot.helpers import running_bot, world

MANAGE_GUILD = 1 << 5
LATENCY = re.compile(r"p50 (\d+) ms, p99 (\d+) ms \((\d+) interactions\)")


async def _busy(*_: Any, **__: Any) -> Any:
    raise StorageBusy("the database is locked")


async def test_status_for_admins_counts_what_happened(tmp_path: Path) -> None:
    async with world(tmp_path) as w, running_bot(w) as bot:
        fake = w.fake
        denied = await fake.slash(w.alice, w.channel, "durak", "status")
        assert denied.ephemeral and denied.content == t("err.status_denied", "en-US")

        await fake.slash(w.alice, w.channel, "durak", "new")
        bot.service.storage.leaderboard = _busy  # type: ignore[method-assign]
        failed = await fake.slash(w.alice, w.channel, "durak", "leaderboard")
        assert failed.message is not None
        error_id = re.search(r"`([0-9a-f]{6})`", failed.message.content)
        assert error_id, failed.message.content

        fake.grant(w.bob, MANAGE_GUILD)
        status = await fake.slash(w.bob, w.channel, "durak", "status")
        assert status.ephemeral
        lines = status.content.splitlines()
        assert lines[0] == t("status.title", "en-US")
        assert t("status.tables", "en-US", lobby=1, running=0) in lines
        assert t("status.rate_limited", "en-US", count=0) in lines
        assert t("status.last_error", "en-US", id=error_id[1]) in lines
        timed = LATENCY.search(status.content)
        assert timed, status.content
        p50, p99, count = (int(x) for x in timed.groups())
        assert count == 3  # the three answered before: denied, new, the failed leaderboard
        assert 0 <= p50 <= p99 < 3000
        size = re.search(r"SQLite, ([0-9.]+) MB", status.content)
        assert size and float(size[1]) > 0, status.content
        assert fake.violations == []
