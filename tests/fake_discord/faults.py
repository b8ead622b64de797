"""Fault injection: Discord-style rate limits and scripted failures."""

from __future__ import annotations

import fnmatch
import math
from collections import deque
from dataclasses import dataclass

from .clock import FakeClock


@dataclass
class ScriptedFailure:
    method: str
    pattern: str  # fnmatch pattern on the path below /api/v10, e.g. "/channels/*/messages/*"
    status: int
    remaining: int
    retry_after: float

    def matches(self, method: str, path: str) -> bool:
        return (
            self.remaining > 0 and method == self.method and fnmatch.fnmatchcase(path, self.pattern)
        )


class EditRateLimiter:
    """Sliding window of one kind of message write per channel (Discord: edits about 5 per
    5 s; creates about 5 per 5 s in their own bucket; deletes of recent messages about 5 per
    second, again their own bucket)."""

    def __init__(self, clock: FakeClock) -> None:
        self._clock = clock
        self.enabled = False
        self.limit = 5
        self.per = 5.0
        self._edits: dict[int, deque[float]] = {}

    def configure(self, *, enabled: bool, limit: int = 5, per: float = 5.0) -> None:
        self.enabled, self.limit, self.per = enabled, limit, per
        self._edits.clear()

    def check(self, channel_id: int) -> float | None:
        """Record an edit; return None if allowed, or how long to wait if over the limit."""
        if not self.enabled:
            return None
        now = self._clock.now()
        window = self._edits.setdefault(channel_id, deque())
        while window and now - window[0] >= self.per:
            window.popleft()
        if len(window) >= self.limit:
            return max(0.001, self.per - (now - window[0]))
        window.append(now)
        return None


class GlobalRateLimiter(EditRateLimiter):
    """Discord's global rate limit: at most ``limit`` requests per ``per`` seconds per bot
    token, over every route but the interaction endpoints (``/interactions/…`` and
    ``/webhooks/…``, answers and their edits through interaction tokens). On by default."""

    def __init__(self, clock: FakeClock) -> None:
        super().__init__(clock)
        self.configure(enabled=True, limit=50, per=1.0)

    def check_request(self) -> float | None:
        """Record a request; None if allowed, or how long to wait if over the limit."""
        return self.check(0)  # one window for the whole token


def rate_limit_headers(retry_after: float, bucket: str, limit: int, now: float) -> dict[str, str]:
    """The headers discord.py reads on a 429 (it insists on `Via`, else it suspects Cloudflare)."""
    return {
        "Retry-After": str(math.ceil(retry_after)),
        "X-RateLimit-Limit": str(limit),
        "X-RateLimit-Remaining": "0",
        "X-RateLimit-Reset": f"{now + retry_after:.3f}",
        "X-RateLimit-Reset-After": f"{retry_after:.3f}",
        "X-RateLimit-Bucket": bucket,
        "X-RateLimit-Scope": "user",
        "Via": "1.1 google",
    }
