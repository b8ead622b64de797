"""The one retry policy of the storage layer (tenacity): run again while the database is
contended or out of reach, with jittered exponential backoff, up to a time budget, then
``StorageBusy``. Each backend says which errors are worth it and how long to wait."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
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


@dataclass(frozen=True, slots=True)
class Retry:
    #: Whether running the operation again may succeed (a lock, a lost connection).
    transient: Callable[[BaseException], bool]
    #: The first wait is random up to this; each next one up to twice as long, ...
    first_wait: float
    #: ... but never longer than this.
    max_wait: float
    #: ``StorageBusy``'s message, formatted with ``budget`` (seconds) and ``error``.
    busy: str

    async def run(self, op: Callable[[], Awaitable[T]], budget_seconds: float) -> T:
        """``op()``, re-run while it fails transiently; ``budget_seconds`` after the first
        failure, ``StorageBusy``. Anything else ``op`` raises is raised at once."""
        try:  # the common case, without tenacity's bookkeeping (every storage call comes here)
            return await op()
        except Exception as exc:
            if not self.transient(exc):
                raise
        retrying = AsyncRetrying(
            retry=retry_if_exception(self.transient),
            stop=stop_after_delay(budget_seconds),
            wait=wait_random_exponential(multiplier=self.first_wait, max=self.max_wait),
        )
        try:
            async for attempt in retrying:
                with attempt:
                    return await op()
        except RetryError as exc:
            last = exc.last_attempt.exception()
            raise StorageBusy(self.busy.format(budget=budget_seconds, error=last)) from last
        raise AssertionError("unreachable: tenacity either returns, raises or gives up")
