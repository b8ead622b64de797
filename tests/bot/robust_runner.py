"""Test-only entry point: the real bot (``bot.__main__.main``) in its own process, pointed at a
fake Discord that runs in the test process.

    DURAK_FAKE_DISCORD_URL=http://127.0.0.1:PORT python tests/bot/robust_runner.py [--sync ...]

The environment variable is read here and nowhere else: production code never looks at it.
Everything else (token, database, timers) comes from the usual settings environment.

With ``DURAK_TIMING_FILE`` set (the load benchmark), the bot's own processing time of every
interaction is written there, one line per interaction, two values in seconds: from discord.py
building the ``Interaction`` (gateway frame parsed) to the bot's first response being accepted
by (the fake) Discord, and to the moment the bot hands that response to HTTP (its work done,
the round trip to Discord not counted); then the Unix time of the answer and what was asked
(``interaction_kind``). Beside it,
``<file>.phases`` times parts of that work (see ``time_phases``).
"""

from __future__ import annotations

import asyncio
import atexit
import gc
import os
import sys
import time
from typing import TYPE_CHECKING, Any

import yarl
from discord.gateway import DiscordWebSocket
from discord.http import Route

if TYPE_CHECKING:  # imported when timing: the bot itself never needs it
    from benchmarks.harness_loop import LoopLag


class TimingLines:
    """The timing lines of one file, written once a second (and at exit) rather than one
    write per line: the bot's CPU share counts these hooks too, and a write per save, act and
    answer cost about 2 % of it. A bot killed outright loses at most its last second."""

    def __init__(self, path: str) -> None:
        self._out = open(path, "a")  # noqa: SIM115 - open for the life of the process
        self._lines: list[str] = []
        self._due = False
        atexit.register(self.flush)

    def write(self, line: str) -> None:
        self._lines.append(line)
        if self._due:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # a GC pass in a worker thread (pictures): the loop's flush takes it
            return
        self._due = True
        loop.call_later(1.0, self.flush)

    def flush(self) -> None:
        self._due = False
        if self._lines and not self._out.closed:
            self._out.write("".join(self._lines))
            self._out.flush()
            self._lines.clear()


def interaction_kind(data: Any) -> str:
    """What was asked, without its ids: ``/durak start``, ``dkt:hand`` (a table button),
    ``dk:act`` (a hand's action button), for the benchmark's figures per kind."""
    custom_id = data.get("custom_id")
    if isinstance(custom_id, str):
        parts = custom_id.split(":")
        op = parts[-1] if len(parts) > 1 and parts[-1].isalpha() else "act"
        return f"{parts[0]}:{op}"
    words = [str(data.get("name", "?"))]
    options = data.get("options") or []
    while options and options[0].get("type") in (1, 2):  # subcommand (group)
        words.append(str(options[0].get("name")))
        options = options[0].get("options") or []
    return "/" + " ".join(words).replace(" ", "_")


def time_interactions(path: str) -> None:
    from discord.interactions import Interaction
    from discord.webhook.async_ import AsyncWebhookAdapter

    started: dict[int, tuple[float, str]] = {}
    out = TimingLines(path)
    init, request = Interaction.__init__, AsyncWebhookAdapter.request

    def timed_init(self: Interaction, *args: Any, **kwargs: Any) -> None:
        init(self, *args, **kwargs)
        started[self.id] = (time.perf_counter(), interaction_kind(self.data or {}))
        if not watching:  # the first interaction: the loop runs
            watching.append(watch_loop(phases))

    # Every answer to an interaction goes through the webhook adapter's request on the callback
    # route: discord.py's own (create_interaction_response) and the bot's (a hand click's
    # answer, bot/delivery/message_writes.py) alike.
    async def timed_request(self: Any, route: Route, *args: Any, **kwargs: Any) -> Any:
        handed = time.perf_counter()
        result = await request(self, route, *args, **kwargs)
        if route.path.endswith("/callback"):
            begun = started.pop(int(route.webhook_id or 0), None)
            if begun is not None:
                t0, kind = begun
                out.write(
                    f"{time.perf_counter() - t0:.6f} {handed - t0:.6f} {time.time():.3f} {kind}\n"
                )
        return result

    Interaction.__init__ = timed_init  # type: ignore[method-assign]
    AsyncWebhookAdapter.request = timed_request  # type: ignore[method-assign]
    watching: list[LoopLag] = []  # the loop's probe, once started
    phases = time_phases(path + ".phases")
    time_collections(phases)


#: How often the event loop's lag is sampled (``watch_loop``).
LAG_EVERY = 0.02


def watch_loop(out: TimingLines) -> LoopLag:
    """``lag`` lines: how late the event loop woke a task that sleeps ``LAG_EVERY`` s, i.e.
    how long everything else held it (a click waits as long, whatever its own cost)."""
    from benchmarks.harness_loop import LoopLag

    probe = LoopLag(LAG_EVERY, record=lambda lag: out.write(f"lag {lag:.6f} {time.time():.3f}\n"))
    probe.start()
    return probe


def time_collections(out: TimingLines) -> None:
    """``gc`` lines: each cyclic garbage collection's pause (it stops the loop), generation,
    Unix time and the objects it freed."""
    begun = [0.0]

    def timed(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            begun[0] = time.perf_counter()
        else:
            pause = time.perf_counter() - begun[0]
            collected = info["collected"]
            out.write(f"gc {pause:.6f} {info['generation']} {time.time():.3f} {collected}\n")

    gc.callbacks.append(timed)


def time_phases(path: str) -> TimingLines:
    """Where a click's time goes, one line per call (name, seconds): ``act`` (a human's
    action: table lock, apply, save), ``save`` (the wait for the write holding one change) and
    ``batch`` (a group-commit write of SQLite, with the number of tables it wrote). Returns
    the file's writer (``lag`` and ``gc`` lines join it)."""
    from bot.tables.play import Play
    from bot.tables.save_queue import SaveQueue

    out = TimingLines(path)
    act, save = Play.act, SaveQueue.save

    async def timed_act(self: Any, *args: Any, **kwargs: Any) -> None:
        t0 = time.perf_counter()
        try:
            await act(self, *args, **kwargs)
        finally:
            if kwargs.get("user_id") is not None:
                out.write(f"act {time.perf_counter() - t0:.6f}\n")

    async def timed_save(self: Any, *args: Any, **kwargs: Any) -> None:
        t0 = time.perf_counter()
        await save(self, *args, **kwargs)
        out.write(f"save {time.perf_counter() - t0:.6f} {time.time():.3f}\n")

    from bot.storage.sqlite import SqliteStorage

    upsert = SqliteStorage._upsert

    async def timed_upsert(self: Any, tables: Any) -> Any:
        t0 = time.perf_counter()
        result = await upsert(self, tables)
        out.write(f"batch {time.perf_counter() - t0:.6f} {len(tables)}\n")
        return result

    Play.act = timed_act  # type: ignore[method-assign]
    SaveQueue.save = timed_save  # type: ignore[method-assign]
    SqliteStorage._upsert = timed_upsert  # type: ignore[method-assign]
    return out


def main() -> int:
    if os.environ.get("DURAK_TIMING_FILE"):
        time_interactions(os.environ["DURAK_TIMING_FILE"])
    url = os.environ["DURAK_FAKE_DISCORD_URL"].rstrip("/")
    Route.BASE = url + "/api/v10"
    DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL("ws" + url[len("http") :] + "/")
    from bot.__main__ import main as bot_main

    return bot_main(sys.argv[1:])


if __name__ == "__main__":
    raise SystemExit(main())
