"""Pacing: the process's budget of table pictures (at most ``rate`` a second, bursts of one
second's worth, waits spread so waiting tables do not return together), and the per-channel
write windows that count a write from its completion."""

from __future__ import annotations

import asyncio

import pytest

from bot.ui.channel_limits import ChannelLimiter, DrawBudget


def test_at_most_rate_pictures_a_second() -> None:
    now = [100.0]
    budget = DrawBudget(10, clock=lambda: now[0])
    drawn = 0
    waits: list[float] = []
    for _ in range(300):  # 300 requests over 3 s
        wait = budget.take()
        if wait == 0:
            drawn += 1
        else:
            waits.append(wait)
        now[0] += 0.01
    assert 10 + 30 - 1 <= drawn <= 10 + 30 + 1  # the first second's burst, then 10 a second
    assert all(0 < w <= 0.1 + 1.0 for w in waits)
    assert len({round(w, 3) for w in waits}) > len(waits) // 2  # spread, not one instant


def test_no_bound_when_the_rate_is_zero() -> None:
    budget = DrawBudget(0, clock=lambda: 0.0)
    assert all(budget.take() == 0 for _ in range(1000))


@pytest.mark.slow
async def test_a_write_counts_from_its_completion() -> None:
    """Five writes in flight fill the window; the sixth waits until the window has passed
    since the first one *completed* (a late request is never bunched with the next ones)."""
    limits = ChannelLimiter(interval=0.5)  # 5 writes per 3 s
    loop = asyncio.get_running_loop()
    release = asyncio.Event()
    finished: list[float] = []

    async def slow_write() -> None:
        async with limits.write(1):
            await release.wait()
        finished.append(loop.time())

    writers = [asyncio.create_task(slow_write()) for _ in range(5)]
    await asyncio.sleep(0.2)
    release.set()  # all five complete 0.2 s after they were allowed
    await asyncio.gather(*writers)
    start = loop.time()
    async with limits.write(1):
        allowed = loop.time()
    assert allowed - min(finished) >= 3.0 - 0.05 and allowed - start >= 2.7
    async with limits.write(2):  # another channel is not held up
        assert loop.time() - allowed < 0.1
