"""The collector paced by the clock (bot/gc_pacing.py): young passes come every ``every``
seconds whatever the allocation count, older generations by their counts, and stopping puts
CPython's thresholds back."""

from __future__ import annotations

import asyncio
import gc
import weakref
from collections.abc import Callable, Iterator

import pytest

from bot.gc_pacing import GcPacer


class Node:
    def __init__(self) -> None:
        self.other: Node | None = None


async def until(condition: Callable[[], bool], seconds: float = 10.0) -> None:
    """Wait for ``condition``: the pacer's timers come late on a busy machine, never not at all
    (a fixed sleep made these tests measure the machine's load)."""
    deadline = asyncio.get_running_loop().time() + seconds
    while not condition():
        assert asyncio.get_running_loop().time() < deadline, "the paced passes did not come"
        await asyncio.sleep(0.01)


@pytest.fixture
def passes() -> Iterator[list[int]]:
    """The generation of every collection that starts while the test runs."""
    seen: list[int] = []

    def record(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            seen.append(info["generation"])

    gc.callbacks.append(record)
    try:
        yield seen
    finally:
        gc.callbacks.remove(record)


async def test_young_passes_come_by_the_clock_and_collect_cycles(passes: list[int]) -> None:
    pacer = GcPacer(every=0.02, thresholds=(1_000_000, 1_000, 10))
    pacer.start()
    try:
        # A cycle, and too few allocations for the (huge) threshold to start a pass.
        a, b = Node(), Node()
        a.other, b.other = b, a
        probe = weakref.ref(a)
        del a, b
        await until(lambda: passes.count(0) >= 5)
        assert probe() is None  # collected by a paced pass, not by the allocation count
    finally:
        pacer.stop()


async def test_the_middle_generation_by_its_count(passes: list[int]) -> None:
    pacer = GcPacer(every=0.01, thresholds=(1_000_000, 3, 1_000_000))
    pacer.start()
    try:
        await until(lambda: passes.count(1) >= 4)
    finally:
        pacer.stop()
    # every middle pass comes after 3 young ones (the first may find the count higher)
    runs = "".join(str(g) for g in passes).split("1")[1:-1]
    assert runs and all(run == "000" for run in runs)


async def test_stop_restores_the_thresholds_and_ends_the_passes(passes: list[int]) -> None:
    before = gc.get_threshold()
    pacer = GcPacer(every=0.01, thresholds=(123_456, 7, 8))
    pacer.start()
    assert gc.get_threshold() == (123_456, 7, 8)
    await until(lambda: bool(passes))  # it is running
    pacer.stop()
    assert gc.get_threshold() == before
    gc.set_threshold(1_000_000, 10, 10)  # no pass by allocations meanwhile: only a timer's
    try:
        passes.clear()
        await asyncio.sleep(0.1)
        assert passes == []
    finally:
        gc.set_threshold(*before)
