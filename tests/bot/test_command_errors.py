"""One answer for every failing slash command (the cog's app-command error handler): a storage
failure in /durak history, stats or leaderboard — or in a leaderboard page button — gets the
localised "something went wrong" line, ephemeral, and is logged; nothing is left unanswered."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bot.storage import StorageBusy
from bot.text import t
from tests.bot.helpers import running_bot, world


async def _busy(*_: Any, **__: Any) -> Any:
    raise StorageBusy("the database is locked")


async def test_storage_failures_in_commands_get_one_clear_answer(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    async with world(tmp_path) as w, running_bot(w) as bot:
        fake = w.fake
        board = await fake.slash(w.alice, w.channel, "durak", "leaderboard")
        assert board.message is not None  # works while storage does
        storage = bot.service.storage
        for name in ("channel_history", "user_stats", "leaderboard"):
            setattr(storage, name, _busy)
        answers = [
            await fake.slash(w.alice, w.channel, "durak", command)
            for command in ("history", "stats", "leaderboard")
        ]
        answers.append(await fake.click(w.alice, board.message, "dkb:rating:1"))
        for answer in answers:
            assert answer.message is not None and answer.message.ephemeral
            assert answer.message.content == t("err.internal", "en-US")
        failed = [r for r in caplog.records if "failed" in r.getMessage()]
        assert len(failed) == 4 and all(r.exc_info for r in failed)
        assert fake.violations == []
