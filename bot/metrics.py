"""The optional Prometheus endpoint (``METRICS_PORT``; docs/deploy.md, "Health"): a small HTTP
server in a thread of the bot's process, serving ``/metrics`` from its own registry.

What it exports, all prefixed ``durak_``: interactions by kind with their answer times
(``interaction_seconds``), Discord's HTTP requests by method, route and status with their times
(``discord_request_seconds``; status 429 are the rate limits), AI decisions and table saves with
their times, games recorded, and, read when scraped, the tables by status and the Activity's open
sockets. The numbers come from :class:`bot.health.Health`'s observers; nothing here changes what
the bot does."""

from __future__ import annotations

import asyncio
import threading
from collections import Counter as Tally
from collections.abc import Callable, Iterable
from wsgiref.simple_server import WSGIServer

from prometheus_client import CollectorRegistry, Counter, Histogram, start_http_server
from prometheus_client.core import GaugeMetricFamily, Metric
from prometheus_client.registry import Collector

from bot.health import Health

#: Answer times from 5 ms to 10 s (Discord's limit for a first answer is 3 s).
TIME_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
#: What the bot holds when scraped: the statuses of its tables and its Activity sockets.
State = Callable[[], tuple[list[str], int]]


class _StateCollector(Collector):
    """Tables by status and Activity sockets, read on the bot's event loop when scraped."""

    def __init__(self, loop: asyncio.AbstractEventLoop, state: State) -> None:
        self._loop = loop
        self._state = state

    def collect(self) -> Iterable[Metric]:
        async def read() -> tuple[list[str], int]:
            return self._state()

        statuses, sockets = asyncio.run_coroutine_threadsafe(read(), self._loop).result(10)
        tables = GaugeMetricFamily(
            "durak_tables", "Tables the bot holds, by status", labels=["status"]
        )
        for status, count in sorted(Tally(statuses).items()):
            tables.add_metric([status], count)
        yield tables
        yield GaugeMetricFamily(
            "durak_activity_sockets", "Browsers connected to the Activity", value=sockets
        )


class Metrics:
    """The exported metrics, fed by ``health``'s observers, and their HTTP server."""

    def __init__(self, health: Health, loop: asyncio.AbstractEventLoop, state: State) -> None:
        self.registry = CollectorRegistry()
        r = self.registry
        self.interactions = Histogram(
            "durak_interaction_seconds",
            "From an interaction's arrival to the bot's first answer, by kind",
            ["kind"],
            buckets=TIME_BUCKETS,
            registry=r,
        )
        self.requests = Histogram(
            "durak_discord_request_seconds",
            "Requests to Discord's API by method, route and status (429: rate limited)",
            ["method", "route", "status"],
            buckets=TIME_BUCKETS,
            registry=r,
        )
        self.ai = Histogram(
            "durak_ai_decision_seconds", "AI decisions", buckets=TIME_BUCKETS, registry=r
        )
        self.saves = Histogram(
            "durak_table_save_seconds", "Table saves", buckets=TIME_BUCKETS, registry=r
        )
        self.games = Counter("durak_games_recorded", "Games recorded", registry=r)
        r.register(_StateCollector(loop, state))
        health.observers.append(self.observe)
        self._server: WSGIServer | None = None
        self._thread: threading.Thread | None = None

    def observe(self, what: str, labels: tuple[str, ...], seconds: float) -> None:
        if what == "interaction":
            self.interactions.labels(*labels).observe(seconds)
        elif what == "http":
            self.requests.labels(*labels).observe(seconds)
        elif what == "ai":
            self.ai.observe(seconds)
        elif what == "save":
            self.saves.observe(seconds)
        elif what == "game":
            self.games.inc()

    def serve(self, host: str, port: int) -> None:
        self._server, self._thread = start_http_server(port, host, registry=self.registry)

    def close(self) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._server = None
        if self._thread is not None:
            self._thread.join(5)
            self._thread = None
