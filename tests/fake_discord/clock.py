"""A wall clock that tests can move forward, and snowflakes minted from it."""

from __future__ import annotations

import datetime as dt
import time

DISCORD_EPOCH_MS = 1_420_070_400_000


class FakeClock:
    """Real time plus an offset, so token expiry can be tested without sleeping.

    It never runs slower than real time: discord.py sleeps real seconds on a 429, and the
    fake's rate-limit windows must elapse while it does.
    """

    def __init__(self) -> None:
        self._offset = 0.0

    def now(self) -> float:
        """Seconds since the Unix epoch, as the fake sees it."""
        return time.time() + self._offset

    def advance(self, seconds: float) -> None:
        if seconds < 0:
            raise ValueError("the fake clock only moves forward")
        self._offset += seconds

    def iso(self, at: float | None = None) -> str:
        """ISO-8601 timestamp as Discord formats it."""
        moment = self.now() if at is None else at
        return dt.datetime.fromtimestamp(moment, dt.UTC).isoformat()


class SnowflakeFactory:
    """Realistic, strictly increasing snowflakes (discord.utils.snowflake_time works on them)."""

    def __init__(self, clock: FakeClock, worker: int = 1) -> None:
        self._clock = clock
        self._worker = worker & 0x1F
        self._last = 0
        self._increment = 0

    def next(self) -> int:
        ms = int(self._clock.now() * 1000) - DISCORD_EPOCH_MS
        self._increment = (self._increment + 1) & 0xFFF
        candidate = (ms << 22) | (self._worker << 17) | self._increment
        # Two ids minted in the same millisecond must still be ordered.
        self._last = max(candidate, self._last + 1)
        return self._last
