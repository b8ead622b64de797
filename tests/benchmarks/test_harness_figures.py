"""Figures the load benchmark reports about itself (benchmarks/bot_load.py,
benchmarks/harness_loop.py): accepted table edits per channel, and its own loop's lag."""

from __future__ import annotations

import asyncio
import threading
import time
from pathlib import Path

import pytest

from benchmarks.bot_load import capacity, ms_percentiles, table_edits
from benchmarks.harness_loop import LoopLag, run_fast
from tests.bot.robust_runner import TimingLines
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


def test_capacity_is_the_largest_count_whose_every_run_held() -> None:
    def step(tables: int, p99: float, refused: int = 0) -> dict[str, object]:
        return {"tables": tables, "bot_interaction_ms_p99": p99, "responses_429": refused}

    runs = [step(100, 40.0), step(100, 55.0), step(200, 70.0), step(200, 99.9)]
    assert capacity(runs) == 200
    assert capacity([*runs, step(400, 80.0), step(400, 375.6)]) == 200  # one run of two failed
    assert capacity([*runs, step(400, 80.0), step(400, 90.0)]) == 400
    assert capacity([*runs, step(400, 80.0, refused=1)]) == 200  # a 429 fails the run
    assert capacity([step(100, 120.0)]) == 0


@pytest.mark.slow  # over a second: out of the quick subset
def test_timing_lines_written_from_a_worker_thread_keep_flushing(tmp_path: Path) -> None:
    """The bot's GC timing hook also runs in worker threads (pictures), where no event loop
    runs: such a line waits for the loop's next flush instead of stopping every flush."""
    path = tmp_path / "timing.txt"

    async def main() -> None:
        out = TimingLines(str(path))
        thread = threading.Thread(target=out.write, args=("gc 0.001 0 1.0\n",))
        thread.start()
        thread.join()
        out.write("save 0.000200 2.0\n")
        await asyncio.sleep(1.2)
        out._out.close()

    asyncio.run(main())
    assert path.read_text().splitlines() == ["gc 0.001 0 1.0", "save 0.000200 2.0"]
