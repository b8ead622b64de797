"""The one retry policy of the storage layer (tenacity): run again while the database is
contended or out of reach, with jittered exponential backoff, up to a time budget, then
``StorageBusy``."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TypeVar

from tenacity import (
    AsyncRetrying,
    RetryError,
    retry_if_exception,
    stop_after_delay,
    wait_random_exponential,
)

from .errors import StorageBusy

T = TypeVar("T")


async def retry_transient(
    op: Callable[[], Awaitable[T]],
    *,
    transient: Callable[[BaseException], bool],
    budget_seconds: float,
    first_wait: float,
    max_wait: float,
    busy: Callable[[BaseException], str],
) -> T:
    """Re-run ``op`` while it raises what ``transient`` accepts, waiting a random time up to
    ``first_wait``, doubling, at most ``max_wait``; ``budget_seconds`` after the first failure
    raise ``StorageBusy(busy(last error))``. Anything else ``op`` raises is raised at once."""
    try:  # the common case, without tenacity's bookkeeping (every storage call comes here)
        return await op()
    except Exception as exc:
        if not transient(exc):
            raise
    retrying = AsyncRetrying(
        retry=retry_if_exception(transient),
        stop=stop_after_delay(budget_seconds),
        wait=wait_random_exponential(multiplier=first_wait, max=max_wait),
    )
    try:
        async for attempt in retrying:
            with attempt:
                return await op()
    except RetryError as exc:
        last = exc.last_attempt.exception()
        assert last is not None
        raise StorageBusy(busy(last)) from last
    raise AssertionError("unreachable: tenacity either returns, raises or gives up")
