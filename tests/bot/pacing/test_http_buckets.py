"""discord.py's rate-limit buckets are swept for idle ones at most once a minute, not on every
new bucket (bot/pacing/http_buckets.py), and idle ones still go."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from discord.http import HTTPClient, Ratelimit

from bot.pacing.http_buckets import sweep_buckets_rarely
from tests.bot.helpers import running_bot, world


async def test_new_buckets_sweep_once_a_minute_and_idle_ones_still_go(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    looked = [0]
    is_inactive = Ratelimit.is_inactive

    def counted(self: Ratelimit) -> bool:
        looked[0] += 1
        return is_inactive(self)

    monkeypatch.setattr(Ratelimit, "is_inactive", counted)
    http = HTTPClient(asyncio.get_running_loop())
    for i in range(300):  # discord.py sweeps from 256 buckets on
        http.get_ratelimit(f"old:{i}")
    assert looked[0] > 0  # discord.py's own sweep runs on every new bucket
    now = [1000.0]
    sweep_buckets_rarely(http, every=60.0, clock=lambda: now[0])
    looked[0] = 0
    for i in range(100):
        http.get_ratelimit(f"new:{i}")
    assert looked[0] == 301  # one sweep (after the first new bucket), not one per new bucket
    for bucket in http._buckets.values():  # all idle for five minutes
        bucket._last_request -= 301
    now[0] += 30
    http.get_ratelimit("later")
    assert len(http._buckets) == 401  # within the minute: no sweep
    now[0] += 30
    http.get_ratelimit("a minute later")
    assert set(http._buckets) == {"later", "a minute later"}  # the idle ones went, as before


async def test_the_running_bot_sweeps_rarely(tmp_path: Path) -> None:
    async with world(tmp_path) as w, running_bot(w) as bot:
        sweep = bot.http._try_clear_expired_ratelimits
        assert getattr(sweep, "__func__", None) is not HTTPClient._try_clear_expired_ratelimits
        assert sweep.__qualname__.startswith("sweep_buckets_rarely")
