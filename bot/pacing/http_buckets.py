"""discord.py's rate-limit buckets, swept for idle ones once a minute instead of at every new one.

discord.py's ``HTTPClient`` keeps a ``Ratelimit`` per route bucket and major parameter (for
the bot: per channel, one each for edits, posts and deletes, and another once Discord names
the bucket). Whenever it creates one while it holds 256 or more, it scans them all for
buckets idle for 5 minutes (``_try_clear_expired_ratelimits``). With hundreds of tables that
scan ran for most new buckets: quadratic while the tables open, and 1–2 % of the bot's CPU at
400 tables in play (docs/performance.md, issue #16). A bucket is dropped only after five
idle minutes anyway, so one sweep a minute keeps memory as bounded as before.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable

from discord.http import HTTPClient

#: Seconds between two sweeps of idle buckets.
SWEEP_SECONDS = 60.0


def sweep_buckets_rarely(
    http: HTTPClient,
    every: float = SWEEP_SECONDS,
    clock: Callable[[], float] = time.monotonic,
) -> None:
    """Make ``http`` sweep its idle rate-limit buckets at most once every ``every`` s."""
    sweep = http._try_clear_expired_ratelimits
    last = [-math.inf]

    def rarely() -> None:
        now = clock()
        if now - last[0] >= every:
            last[0] = now
            sweep()

    # discord.py calls it as an attribute of the instance: an instance attribute takes over.
    http._try_clear_expired_ratelimits = rarely  # type: ignore[method-assign]
