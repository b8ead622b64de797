"""Restarts lose nothing: the bot process is SIGKILLed at random moments of games in progress
and restarted; every game resumes with identical state and no acknowledged action is lost."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.bot.robust_harness import run_harness

pytestmark = pytest.mark.slow  # the bot killed and restarted as a process, 4 times


async def test_sigkill_restarts_lose_nothing(tmp_path: Path) -> None:
    stats = await run_harness(tmp_path, kills=4, games=2, seed=7)
    print(stats)
    assert stats.kills == 4
    assert stats.lost_actions == 0
    assert stats.finished == 2
    assert stats.running_at_kill >= 4 and stats.resumed == stats.running_at_kill
