"""Figures the load benchmark reports about itself (benchmarks/bot_load.py,
benchmarks/harness_loop.py): accepted table edits per channel, and its own loop's lag."""

from __future__ import annotations

import asyncio
import time

from benchmarks.bot_load import ms_percentiles, table_edits
from benchmarks.harness_loop import LoopLag, run_fast
from tests.fake_discord import RecordedRequest


def test_table_edits_counts_accepted_channel_message_edits_by_channel() -> None:
    requests = [
        RecordedRequest("PATCH", "/channels/11/messages/5", 200, None),
        RecordedRequest("PATCH", "/channels/11/messages/6", 200, None),
        RecordedRequest("PATCH", "/channels/11/messages/5", 429, None),  # refused
        RecordedRequest("PATCH", "/channels/12/messages/7", 200, None),
        RecordedRequest("PATCH", "/channels/12", 200, None),  # the channel, not a message
        RecordedRequest("POST", "/channels/12/messages", 200, None),
        RecordedRequest("PATCH", "/webhooks/1/tok/messages/@original", 200, None),
    ]
    assert table_edits(requests) == {11: 2, 12: 1}


def test_loop_lag_shows_a_blocked_loop() -> None:
    async def main() -> dict[str, float]:
        lag = LoopLag(interval=0.005)
        lag.start()
        await asyncio.sleep(0.05)
        time.sleep(0.08)  # the loop busy elsewhere: the sleeper wakes late
        await asyncio.sleep(0.05)
        return lag.stop(ms_percentiles)

    figures = run_fast(main())
    assert figures["harness_loop_lag_ms_max"] >= 60
    assert figures["harness_loop_lag_ms_p50"] < 60
    assert set(figures) == {
        "harness_loop_lag_ms_p50",
        "harness_loop_lag_ms_p99",
        "harness_loop_lag_ms_max",
    }
