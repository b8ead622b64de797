"""The cyclic garbage collector, paced by the clock instead of by allocations.

A collection stops the event loop for as long as it takes, and a young pass takes as long as
its young list is long. CPython starts one when allocations less deallocations pass a
threshold, and under load the bot frees old objects (a table's previous state, answered
requests) about as fast as it makes new ones: the count rose slowly while the young list grew
to 10–20 times the threshold, and the passes that came every ~1.4 s at 400 tables held the
loop for up to 75 ms each (docs/performance.md, "What keeps it cheap"). Here a
young pass runs every ``YOUNG_EVERY`` seconds between two callbacks of the loop, so it holds
only what survived since the last one; the allocation threshold stays as a safety net for a
loop that stops turning. Older generations are collected as CPython would, by their own
counts, only at these passes.
"""

from __future__ import annotations

import asyncio
import gc

#: Seconds between two young passes.
YOUNG_EVERY = 0.1
#: Thresholds while paced: the young one only for a loop held for long (a burst or a restore),
#: the middle one in young passes (3,000: one middle pass every ~5 minutes), the old one in
#: middle passes, as CPython's own.
PACED_THRESHOLDS = (50_000, 3_000, 10)


class GcPacer:
    """Runs the collector's passes on the event loop's clock (see the module's docstring)."""

    def __init__(
        self, every: float = YOUNG_EVERY, thresholds: tuple[int, int, int] = PACED_THRESHOLDS
    ) -> None:
        self.every = every
        self.thresholds = thresholds
        self._handle: asyncio.TimerHandle | None = None
        self._before: tuple[int, int, int] | None = None

    def start(self) -> None:
        """Start pacing on the running loop (the thresholds are set until :meth:`stop`)."""
        if self._handle is not None:
            return
        self._before = gc.get_threshold()
        gc.set_threshold(*self.thresholds)
        self._handle = asyncio.get_running_loop().call_later(self.every, self._pass)

    def stop(self) -> None:
        if self._handle is not None:
            self._handle.cancel()
            self._handle = None
        if self._before is not None:
            gc.set_threshold(*self._before)
            self._before = None

    def _pass(self) -> None:
        # The oldest generation whose count passed its threshold, as CPython chooses (its
        # extra rule for the oldest, a quarter of the long-lived objects, is not reachable
        # from Python; the old generation's pass is rare either way).
        _, middle, old = gc.get_count()
        generation = 2 if old >= self.thresholds[2] else 1 if middle >= self.thresholds[1] else 0
        if gc.isenabled():
            gc.collect(generation)
        self._handle = asyncio.get_running_loop().call_later(self.every, self._pass)
