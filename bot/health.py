"""How the bot is doing, for its admin (docs/deploy.md, "Health"): what ``/durak status`` shows
and what the optional Prometheus endpoint (``bot/metrics.py``) exports.

Everything here watches from outside: discord.py's HTTP requests through an aiohttp trace
(each request's route, status and time; an interaction is answered when its callback
request ends), and a few of the bot's own calls (AI decisions, table saves, game records)
wrapped on their objects when the bot starts (:meth:`Health.watch`). Unexpected errors get a
short id (:meth:`Health.new_error_id`) that the player sees and the log shows beside the
traceback. Nothing here logs or keeps a token: routes keep only their shape."""

from __future__ import annotations

import functools
import re
import secrets
import statistics
import subprocess
import time
from collections import deque
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import aiohttp

#: The window of ``/durak status``'s interaction times.
WINDOW_SECONDS = 300.0
#: A path segment that is an id, and one that is a token (interaction and webhook tokens).
_ID = re.compile(r"^\d+$")
_TOKEN_AFTER = frozenset({"interactions", "webhooks"})

#: Observers of what happened: ``(what, labels, seconds)``; ``what`` is "interaction" (labels:
#: its kind), "http" (method, route, status), "ai", "save" or "game" (labels: none).
Observer = Callable[[str, tuple[str, ...], float], None]


def route_of(path: str) -> tuple[str, int | None]:
    """The shape of a Discord API path (ids as ``{id}``, tokens as ``{token}``) and, for an
    interaction's callback, the interaction's id."""
    parts = [p for p in path.split("/") if p]
    if "api" in parts:
        parts = parts[parts.index("api") + 2 :]  # after api/v10
    shaped: list[str] = []
    answered: int | None = None
    for i, part in enumerate(parts):
        if _ID.match(part):
            shaped.append("{id}")
        elif i >= 2 and parts[i - 2] in _TOKEN_AFTER and _ID.match(parts[i - 1]):
            shaped.append("{token}")
        else:
            shaped.append(part)
    if len(parts) == 4 and parts[0] == "interactions" and parts[3] == "callback":
        answered = int(parts[1])
    return "/" + "/".join(shaped), answered


@functools.cache
def version() -> str:
    """``git describe`` of the checkout the bot runs from, else the package's version."""
    root = Path(__file__).resolve().parents[1]
    try:
        out = subprocess.run(
            ["git", "describe", "--always", "--dirty", "--tags"],
            cwd=root,
            capture_output=True,
            text=True,
            timeout=5,
            check=True,
        ).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        out = ""
    if out:
        return out
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import version as package_version

    try:
        return package_version("durak-discord")
    except PackageNotFoundError:
        return "unknown"


class Health:
    """The bot's running record: uptime, interaction times, 429s, games, the last error."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self.started = clock()
        self.last_error_id: str | None = None
        self.rate_limited = 0  # Discord's 429 answers since start
        self._games = 0
        self._day = datetime.now(UTC).date()
        self._pending: dict[int, tuple[float, str]] = {}  # interaction id -> (start, kind)
        self._times: deque[tuple[float, float]] = deque()  # (when, seconds), last WINDOW
        self.observers: list[Observer] = []

    # -- errors ----------------------------------------------------------------------------

    def new_error_id(self) -> str:
        """A short id for an unexpected error: shown to the user, logged with the traceback."""
        self.last_error_id = secrets.token_hex(3)
        return self.last_error_id

    # -- interactions ----------------------------------------------------------------------

    def interaction_started(self, interaction_id: int, kind: str) -> None:
        self._pending[interaction_id] = (self._clock(), kind)
        if len(self._pending) > 10_000:  # answered elsewhere (a webhook): drop the oldest
            del self._pending[next(iter(self._pending))]

    def _answered(self, interaction_id: int) -> None:
        started = self._pending.pop(interaction_id, None)
        if started is None:
            return
        now = self._clock()
        seconds = now - started[0]
        self._times.append((now, seconds))
        self._notify("interaction", (started[1],), seconds)

    def interaction_percentiles(self) -> tuple[float, float, int] | None:
        """p50 and p99 of the interaction times of the last 5 minutes, in ms, and their count."""
        cutoff = self._clock() - WINDOW_SECONDS
        while self._times and self._times[0][0] < cutoff:
            self._times.popleft()
        times = sorted(s * 1000 for _, s in self._times)
        if not times:
            return None
        if len(times) == 1:
            return times[0], times[0], 1
        cuts = statistics.quantiles(times, n=100, method="inclusive")
        return statistics.median(times), cuts[98], len(times)

    # -- HTTP ------------------------------------------------------------------------------

    def trace_config(self) -> aiohttp.TraceConfig:
        """An aiohttp trace for discord.py's HTTP client (``http_trace=``)."""
        trace = aiohttp.TraceConfig()

        async def start(
            _session: aiohttp.ClientSession, ctx: SimpleNamespace, _params: Any
        ) -> None:
            ctx.durak_start = self._clock()

        async def end(
            _session: aiohttp.ClientSession,
            ctx: SimpleNamespace,
            params: aiohttp.TraceRequestEndParams,
        ) -> None:
            self._request_ended(
                params.method, params.url.path, params.response.status, ctx.durak_start
            )

        trace.on_request_start.append(start)
        trace.on_request_end.append(end)
        return trace

    def _request_ended(self, method: str, path: str, status: int, started: float) -> None:
        route, answered = route_of(path)
        if status == 429:
            self.rate_limited += 1
        self._notify("http", (method, route, str(status)), self._clock() - started)
        if answered is not None and status < 400:
            self._answered(answered)

    # -- the bot's own calls -----------------------------------------------------------------

    def watch(self, *, ai: object, saves: object, storage: object) -> None:
        """Time AI decisions (``ai._decide``) and table saves (``saves.save``), and count game
        records (``storage.record_game``), by wrapping those methods on these objects."""
        self._wrap(ai, "_decide", "ai")
        self._wrap(saves, "save", "save")
        self._wrap(storage, "record_game", "game", self._game_recorded)

    def _wrap(
        self, owner: object, name: str, kind: str, after: Callable[[], None] | None = None
    ) -> None:
        call: Callable[..., Awaitable[Any]] = getattr(owner, name)

        @functools.wraps(call)
        async def timed(*args: Any, **kwargs: Any) -> Any:
            t0 = self._clock()
            result = await call(*args, **kwargs)
            self._notify(kind, (), self._clock() - t0)
            if after is not None:
                after()
            return result

        setattr(owner, name, timed)

    def _game_recorded(self) -> None:
        self._roll_day()
        self._games += 1

    def _roll_day(self) -> None:
        today = datetime.now(UTC).date()
        if today != self._day:
            self._day, self._games = today, 0

    @property
    def games_today(self) -> int:
        """Games recorded since midnight UTC (and since the bot started)."""
        self._roll_day()
        return self._games

    def _notify(self, what: str, labels: tuple[str, ...], seconds: float) -> None:
        for observer in self.observers:
            observer(what, labels, seconds)

    @property
    def uptime_seconds(self) -> float:
        return self._clock() - self.started
