"""The Activity server's resource limits (docs/activity.md, "Limits"): token buckets for
request rates, per key (an IP, a user) with a bounded number of keys, and log lines that a
hostile client cannot multiply.

Every limit is a setting (``ACTIVITY_*`` in bot/settings.py); these classes only count.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Hashable


class TokenBucket:
    """``rate`` tokens a second, at most ``burst`` saved up (a full bucket to begin with).
    ``rate`` 0: no bound."""

    __slots__ = ("_at", "_clock", "_tokens", "burst", "rate")

    def __init__(
        self, rate: float, burst: float, *, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.rate = rate
        self.burst = max(1.0, burst)
        self._clock = clock
        self._tokens = self.burst
        self._at = clock()

    def _refill(self) -> float:
        now = self._clock()
        self._tokens = min(self.burst, self._tokens + (now - self._at) * self.rate)
        self._at = now
        return self._tokens

    def take(self) -> bool:
        """Whether one more event fits now (and count it if it does)."""
        if self.rate <= 0:
            return True
        if self._refill() >= 1.0:
            self._tokens -= 1.0
            return True
        return False

    def wait(self) -> float:
        """Seconds until the next event would fit (0: now)."""
        if self.rate <= 0:
            return 0.0
        return max(0.0, (1.0 - self._refill()) / self.rate)

    @property
    def full(self) -> bool:
        return self.rate <= 0 or self._refill() >= self.burst


class KeyedBuckets:
    """One :class:`TokenBucket` per key (an IP address, a user id). At most ``max_keys`` are
    kept: idle ones (full again) are forgotten first; when that is not enough, a new key is
    refused, so the memory they take stays bounded whatever number of keys a client makes up."""

    def __init__(
        self,
        rate: float,
        burst: float,
        *,
        max_keys: int = 10_000,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.rate = rate
        self.burst = burst
        self.max_keys = max_keys
        self._clock = clock
        self._buckets: dict[Hashable, TokenBucket] = {}

    def bucket(self, key: Hashable) -> TokenBucket | None:
        """The key's bucket, or None when there is no room for another key."""
        bucket = self._buckets.get(key)
        if bucket is None:
            if len(self._buckets) >= self.max_keys:
                for old in [k for k, b in self._buckets.items() if b.full]:
                    del self._buckets[old]
                if len(self._buckets) >= self.max_keys:
                    return None
            bucket = self._buckets[key] = TokenBucket(self.rate, self.burst, clock=self._clock)
        return bucket

    def take(self, key: Hashable) -> bool:
        if self.rate <= 0:
            return True
        bucket = self.bucket(key)
        return bucket is not None and bucket.take()

    def wait(self, key: Hashable) -> float:
        bucket = self._buckets.get(key)
        return 0.0 if bucket is None else bucket.wait()

    def __len__(self) -> int:
        return len(self._buckets)


class LogLimiter:
    """At most ``per_minute`` lines a minute through :meth:`info` (0: no bound); past that,
    lines are counted, and the next line that may be written says how many were left out.
    For what a client can cause at will (a refused frame, a refused sign-in)."""

    def __init__(
        self,
        logger: logging.Logger,
        per_minute: int,
        *,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.logger = logger
        self._bucket = TokenBucket(per_minute / 60.0, per_minute, clock=clock)
        self.suppressed = 0

    def info(self, msg: str, *args: object) -> None:
        if not self.logger.isEnabledFor(logging.INFO):
            return
        if not self._bucket.take():
            self.suppressed += 1
            return
        if self.suppressed:
            self.logger.info("(%d similar activity lines left out)", self.suppressed)
            self.suppressed = 0
        self.logger.info(msg, *args)
