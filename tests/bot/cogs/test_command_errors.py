"""One answer for every failing slash command (the cog's app-command error handler): a storage
failure in /durak history, stats or leaderboard — or in a leaderboard page button — gets the
localised "something went wrong" line with an error id, ephemeral, and is logged with that id
and the traceback; nothing is left unanswered."""

from __future__ import annotations

import re
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
        ids = []
        for answer in answers:
            assert answer.message is not None and answer.message.ephemeral
            found = re.search(r"`([0-9a-f]{6})`", answer.message.content)
            assert found, answer.message.content
            ids.append(found[1])
            assert answer.message.content == t("err.internal_id", "en-US", id=found[1])
        assert len(set(ids)) == 4  # one id per failure
        failed = [r for r in caplog.records if "failed" in r.getMessage()]
        assert len(failed) == 4 and all(r.exc_info for r in failed)
        # the admin finds the player's id in the log line that holds the traceback
        assert [i for i, r in zip(ids, failed, strict=True) if i in r.getMessage()] == ids
        assert bot.health.last_error_id == ids[-1]
        assert fake.violations == []
