"""The bot under load: 200 concurrent tables of 4 seats (mostly AI, some humans clicking through
fake interactions) against the fake Discord, with its per-channel edit limit on (5 edits per
5 s, then 429).

The bot runs as its own process (``tests/bot/robust_runner.py`` → ``python -m bot``), so its
peak RSS is its own (``VmHWM`` read just before it stops). The fake Discord and the simulated
humans run in this process. Interaction time is measured at the fake: from dispatching
INTERACTION_CREATE to the bot's first response (gateway + discord.py + handler + save + the
callback request) — an upper bound — and inside the bot process (``DURAK_TIMING_FILE``, see
``tests/bot/robust_runner.py``): from discord.py building the Interaction to the first response
being accepted by the (fake) Discord (``bot_interaction_ms_*``, the headline), and to the bot
handing that response to HTTP (``bot_until_answer_sent_ms_*``: the bot's own work, without the
round trip to the fake). ``*_play_*``: only the interactions answered after the tables were
opened (the clicks of the timed phase; setup is 200 × /durak new + start, joins, "My hand").

    python -m benchmarks.bot_load [--tables 200] [--seconds 60] [--think 0.5 2.0] [--reviews N]
    python -m benchmarks.bot_load --ladder [100 200 400 800] [--seconds 40] [--repeat 3]

``--ladder``: one run per table count (``--repeat N``: N runs), each with a fresh bot; the last
line holds every run and ``capacity_tables``, the largest count whose every run kept the bot's
p99 within 100 ms with no 429.
The fake Discord and the simulated humans share the machine with the bot, so on 2 cores the
largest steps measure the machine as much as the bot (``bot_cpu_share`` says how busy the bot
itself was; ``ai_workers_cpu_share`` adds its AI worker processes, ``harness_cpu_share`` the fake
and the players, ``machine_busy_cores`` everything on the machine). The harness runs on uvloop,
as the bot does; ``harness_loop_lag_ms_*`` says how late its loop woke a 10 ms sleeper in the
timed phase (p50, p99, max): a harness too busy to answer the bot promptly shows there. The
bot's own loop is watched the same way (``bot_loop_lag_ms_*``, a 20 ms sleeper), beside its
cyclic GC passes (``bot_gc_pause_ms_max``, ``bot_gc_pause_ms_total``,
``bot_gc_collections_by_generation``, ``bot_gc_freed_objects``: what was in cycles) and its saves
a second (``bot_saves_per_s``: one per action): a click waits for whatever holds the loop.

``BOT_LOAD_KEEP=DIR`` keeps the bot's log and its timing files there (the run's directory is
removed).

``--think MIN MAX``: each human's thinking time between two clicks, uniform in seconds (default
0.5–2 s: 240 humans ask for about 190 clicks a second). A human also presses "My hand" for the
first time after such a thinking time (people react to their own table, not in step with 239
others); ``--burst`` makes all 240 press it at the same moment instead (a stress case).

``--reviews N``: N players ask for a game review as the timed phase begins (their finished
games are stored before the bot starts, ``benchmarks/review_load.py``); ``review_seconds``
says how long each took, the usual figures whether the tables were slowed.

Prints JSON on its last line.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import os
import random
import re
import resource
import shutil
import statistics
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Iterable
from pathlib import Path

from benchmarks.activity_load import ActivityLoad, activity_env, free_port
from benchmarks.chat_load import ChatPlayers, Tbl
from benchmarks.harness_loop import LoopLag, lag_figures, run_fast
from benchmarks.review_load import Reviewers, store_games
from bot.settings import Settings
from bot.tables.save_queue import SLOW_SAVE
from tests.bot.robust_harness import BotProcess
from tests.fake_discord import RecordedRequest
from tests.fake_discord.pytest_plugin import started_fake

#: ``bot_steady_*``: interactions answered this long after the timed phase began, i.e. after
#: the opening burst (every human presses "My hand" at the same moment).
STEADY_AFTER = 5.0
#: The load target: the bot's p99 interaction time (the ladder's capacity is judged by it).
P99_TARGET_MS = 100.0
HAND_IDLE_DEFAULT = Settings.model_fields["hand_idle_refresh_seconds"].default


def pct(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def ms_percentiles(name: str, seconds: list[float]) -> dict[str, float]:
    """``{name}_p50`` and ``{name}_p99`` of durations in seconds, in milliseconds."""
    return {f"{name}_p{q}": round(pct(seconds, q / 100) * 1000, 1) for q in (50, 99)}


def by_kind(rows: list[list[str]]) -> dict[str, list[tuple[float, float]]]:
    """The timing file's interactions by what was asked (its 4th column): (until answered,
    until handed to HTTP), in seconds."""
    kinds: dict[str, list[tuple[float, float]]] = {}
    for r in rows:
        if len(r) > 3:
            kinds.setdefault(r[3], []).append((float(r[0]), float(r[1])))
    return kinds


def busiest_second(times: Iterable[float]) -> tuple[int, float]:
    """The most of ``times`` that fall in any one-second window, and where that window starts."""
    ordered = sorted(times)
    peak, at, first = 0, 0.0, 0
    for last, now in enumerate(ordered):
        while now - ordered[first] >= 1.0:
            first += 1
        if last - first + 1 > peak:
            peak, at = last - first + 1, ordered[first]
    return peak, at


def route_of(request: RecordedRequest) -> str:
    """``PATCH /channels/*/messages/*``: the request's route with its ids and tokens starred."""
    return f"{request.method} {re.sub(r'[0-9]{5,}|aW50[^/]*', '*', request.path)}"


def table_edits(requests: Iterable[RecordedRequest]) -> Counter[int]:
    """Accepted edits of channel messages (status < 300), by channel id, in one pass."""
    return Counter(
        int(r.path.split("/")[2])
        for r in requests
        if r.method == "PATCH"
        and r.status < 300
        and r.path.startswith("/channels/")
        and "/messages/" in r.path
    )


def earlier_writes(requests: list[RecordedRequest], refused: RecordedRequest) -> list[str]:
    """The requests to ``refused``'s channel in the 5 s before it (Discord's per-channel window)."""
    channel = refused.path.split("/")[2] if refused.path.startswith("/channels/") else None
    return [
        f"{round(r.at - refused.at, 2)} {r.method} {r.status}"
        for r in requests
        if channel is not None
        and r.path.startswith(f"/channels/{channel}/")
        and refused.at - 5 <= r.at < refused.at
    ]


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a running process (Linux ``/proc``), in seconds."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def peak_rss_kb(pid: int) -> int | None:
    """A running process's peak resident set (Linux ``VmHWM``), in KiB; None elsewhere. The
    bot's own: ``RUSAGE_CHILDREN`` holds the largest of every child so far, and a ladder's
    ``--sync`` child, forked from this growing process, outgrew the bots."""
    with contextlib.suppress(OSError):
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    return None


def machine_busy_seconds() -> float:
    """CPU time all processes of the machine spent busy (not idle or waiting for I/O), summed
    over its cores (Linux ``/proc/stat``), in seconds."""
    ticks = [int(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    return (sum(ticks) - ticks[3] - ticks[4]) / os.sysconf("SC_CLK_TCK")


def own_cpu_seconds() -> float:
    """This process's CPU time: the fake Discord and the simulated players."""
    t = os.times()
    return t.user + t.system


def children_cpu_seconds(pid: int) -> float:
    """CPU time of the running child processes of ``pid`` (the bot's AI workers)."""
    total = 0.0
    for task in Path(f"/proc/{pid}/task").iterdir():
        for child in (task / "children").read_text().split():
            with contextlib.suppress(OSError):
                total += cpu_seconds(int(child))
    return total


async def run(
    n_tables: int,
    seconds: float,
    seed: int,
    images: bool,
    think: tuple[float, float],
    burst: bool = False,
    global_limit: int = 50,
    browsers: bool = False,
    reviews: int = 0,
) -> dict[str, object]:
    rng = random.Random(seed)
    # The bot's traffic is checked against Discord's schemas by every test; here the fake
    # shares the bot's two cores, so its schema checks would be measured as the bot's latency.
    async with started_fake(check_schemas=False) as fake:
        fake.set_edit_rate_limit(True, limit=5, per=5.0)
        fake.set_global_rate_limit(global_limit > 0, limit=max(global_limit, 1))
        guild = fake.add_guild("Load")
        tables: list[Tbl] = []
        for i in range(n_tables):
            humans = 2 if i % 5 == 0 else 1  # mostly AI: 1 human + 3 AI, every 5th 2 + 2
            tb = Tbl(
                fake.add_channel(guild, f"t{i}"),
                [fake.add_user(f"u{i}-{h}") for h in range(humans)],
            )
            if browsers:  # half the humans play from the Activity, a spectator at every 5th
                if humans == 2:
                    tb.browsers = [tb.humans[1], fake.add_user(f"s{i}")]
                elif i % 2:
                    tb.browsers = [tb.humans[0]]
            tables.append(tb)
        with tempfile.TemporaryDirectory() as tmp:
            bot = BotProcess(fake, Path(tmp))
            overrides = {
                "TURN_TIMER_SECONDS": "60",
                "AI_DELAY_SECONDS": "1.5",
                "AI_BUDGET_SECONDS": "1.0",
                "AI_BUDGET_ITERATIONS": "",
                "TABLE_EDIT_INTERVAL_SECONDS": "1.0",
                # production's pace (the test harness shortens it)
                "HAND_IDLE_REFRESH_SECONDS": os.environ.get(
                    "HAND_IDLE_REFRESH_SECONDS", str(HAND_IDLE_DEFAULT)
                ),
                "LOG_LEVEL": "WARNING",
                "DURAK_TIMING_FILE": str(Path(tmp) / "timing.txt"),
            }
            port = free_port()
            if browsers:
                overrides |= activity_env(fake, port)
            base_env = bot.env
            bot.env = lambda: {**base_env(), **overrides}  # type: ignore[method-assign]
            await bot.sync(guild)
            reviewers = None
            if reviews:  # their finished games are in the database before the bot starts
                users = [fake.add_user(f"r{i}") for i in range(reviews)]
                place = fake.add_channel(guild, "reviews")
                ids = await store_games(Path(tmp) / "durak.sqlite3", guild, place, users)
                reviewers = Reviewers(fake, place, users, ids)
            await bot.start()
            if not images:  # text-only tables: /durak settings images:false (Manage Server)
                await fake.slash(
                    tables[0].humans[0],
                    tables[0].channel,
                    "durak",
                    "settings",
                    options={"images": False},
                )

            load = await ActivityLoad(fake, port).__aenter__()
            players = ChatPlayers(fake, rng, think, load if browsers else None)
            latencies = players.latencies
            await players.open_tables(tables)
            if browsers:
                await players.open_viewers(tables)
            setup_latencies = len(latencies)
            assert bot.proc is not None
            cpu_before = cpu_seconds(bot.proc.pid)
            requests_before = len(fake.requests)
            workers_before = children_cpu_seconds(bot.proc.pid)
            harness_before, machine_before = own_cpu_seconds(), machine_busy_seconds()
            lag = LoopLag()
            lag.start()
            start = time.monotonic()
            play_wall = time.time()
            end = start + seconds
            # The harness's own collector waits for the end of the timed phase: its full passes
            # over the recorded requests reached 1.3 s in a ladder's later runs, and the fake's
            # answers waited for them, counted against the bot. (Its cycles are few; the bot
            # keeps its own collector, which is what is measured.)
            gc.disable()
            asked = None if reviewers is None else asyncio.create_task(reviewers.run())
            try:
                await asyncio.gather(
                    *(players.human(tb, u, end, burst) for tb in tables for u in tb.humans)
                )
            finally:
                gc.enable()
            elapsed = time.monotonic() - start
            if asked is not None:  # the figures count the reviews done in the timed phase
                asked.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await asked
            loop_lag = lag.stop(ms_percentiles)
            limited = [
                r
                for r in fake.requests[requests_before:]
                if not r.path.startswith(("/interactions/", "/webhooks/"))
            ]
            peak, peak_at = busiest_second(r.at for r in limited)
            bot_cpu = cpu_seconds(bot.proc.pid) - cpu_before
            workers_cpu = children_cpu_seconds(bot.proc.pid) - workers_before
            harness_cpu = own_cpu_seconds() - harness_before
            machine_busy = machine_busy_seconds() - machine_before
            play_interactions = len(latencies) - setup_latencies
            edits = table_edits(fake.requests[requests_before:])
            rates = [edits[tb.channel] / elapsed for tb in tables]
            activity = load.figures(ms_percentiles) if browsers else {}
            await load.__aexit__()
            bot_peak_kb = peak_rss_kb(bot.proc.pid)
            await bot.stop()
            log_text = (Path(tmp) / "bot.log").read_text(errors="replace")
            if keep := os.environ.get("BOT_LOAD_KEEP"):
                Path(keep).mkdir(parents=True, exist_ok=True)
                for name in ("bot.log", "timing.txt", "timing.txt.phases"):
                    with contextlib.suppress(FileNotFoundError):
                        shutil.copy(Path(tmp) / name, Path(keep) / name)
            rss_kb = bot_peak_kb or resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
            timing = Path(tmp) / "timing.txt"
            rows = (
                [line.split() for line in timing.read_text().splitlines()]
                if timing.exists()
                else []
            )
            inside = [float(r[0]) for r in rows if r]
            handed = [float(r[1]) for r in rows if len(r) > 1]
            in_play = [r for r in rows if len(r) > 2 and float(r[2]) >= play_wall]
            play_inside = [float(r[0]) for r in in_play]
            play_handed = [float(r[1]) for r in in_play]
            steady = [float(r[0]) for r in in_play if float(r[2]) >= play_wall + STEADY_AFTER]
            phases = Path(str(timing) + ".phases")
            phase_rows = (
                [ln.split() for ln in phases.read_text().splitlines()] if phases.exists() else []
            )
            acts = [float(r[1]) for r in phase_rows if r[0] == "act"]
            saves = [float(r[1]) for r in phase_rows if r[0] == "save"]
            play_saves = sum(
                1 for r in phase_rows if r[0] == "save" and len(r) > 2 and float(r[2]) >= play_wall
            )
            batches = [r for r in phase_rows if r[0] == "batch"]
            # the timed phase only: not the bot's shutdown (its last collections)
            play_end = play_wall + elapsed

            def timed(row: list[str], at: int) -> bool:
                return play_wall <= float(row[at]) <= play_end

            lags = [float(r[1]) for r in phase_rows if r[0] == "lag" and timed(r, 2)]
            gc_rows = [r for r in phase_rows if r[0] == "gc" and timed(r, 3)]
            collections = [(float(r[1]), r[2]) for r in gc_rows]
            gc_freed = sum(int(r[4]) for r in gc_rows if len(r) > 4)
        play = latencies[setup_latencies:]
        return {
            "think_seconds": list(think),
            "first_hand": "burst" if burst else "after thinking",
            "tables": n_tables,
            "seats_per_table": 4,
            "humans": sum(len(tb.humans) for tb in tables),
            "seconds": round(elapsed, 1),
            "interactions": len(latencies),
            "action_clicks": players.clicks,
            **ms_percentiles("bot_interaction_ms", inside),
            "bot_interactions_timed": len(inside),
            **ms_percentiles("bot_until_answer_sent_ms", handed),
            **ms_percentiles("bot_play_interaction_ms", play_inside),
            **ms_percentiles("bot_play_until_answer_sent_ms", play_handed),
            **ms_percentiles("bot_steady_interaction_ms", steady),
            # Which asks make the tail, per kind (setup commands are their own): count, p50
            # and p99 (ms), and the p99 until the answer was handed to HTTP.
            "bot_interaction_ms_by_kind": {
                kind: [
                    len(times),
                    *ms_percentiles("", [t for t, _ in times]).values(),
                    ms_percentiles("", [h for _, h in times])["_p99"],
                ]
                for kind, times in sorted(by_kind(rows).items())
            },
            **ms_percentiles("bot_human_act_ms", acts),
            **ms_percentiles("bot_save_wait_ms", saves),
            # Tables saved a second in the timed phase: one per action (a human's or an AI's).
            "bot_saves_per_s": round(play_saves / elapsed, 1),
            # saves that outlasted SAVE_WAIT_SECONDS: the game went on in memory meanwhile
            "bot_saves_over_wait": log_text.count(SLOW_SAVE),
            **ms_percentiles("bot_save_batch_ms", [float(r[1]) for r in batches]),
            "bot_save_batch_tables_mean": round(
                statistics.fmean(int(r[2]) for r in batches) if batches else 0.0, 1
            ),
            # How late the bot's event loop woke a 20 ms sleep (what any click waits for on
            # top of its own work), and the cyclic GC's pauses (they stop the loop), in the
            # timed phase.
            **lag_figures("bot_loop_lag_ms", lags, ms_percentiles),
            "bot_gc_pause_ms_max": round(max((p for p, _ in collections), default=0.0) * 1000, 1),
            "bot_gc_pause_ms_total": round(sum(p for p, _ in collections) * 1000, 1),
            "bot_gc_freed_objects": gc_freed,
            "bot_gc_collections_by_generation": dict(
                sorted(Counter(g for _, g in collections).items())
            ),
            **ms_percentiles("interaction_ms", latencies),
            **ms_percentiles("play_interaction_ms", play),
            "table_edits_per_table_per_s_mean": round(statistics.fmean(rates), 3),
            "table_edits_per_table_per_s_max": round(max(rates), 3),
            "peak_rss_mb": round(rss_kb / 1024, 1),
            "bot_cpu_share": round(bot_cpu / elapsed, 2),
            # The bot process's CPU per interaction of the timed phase (AI moves, refreshes and
            # saves included): a slower machine shows here, not only in the latencies.
            "bot_cpu_ms_per_interaction": round(1000 * bot_cpu / max(play_interactions, 1), 2),
            "ai_workers_cpu_share": round(workers_cpu / elapsed, 2),
            # The fake Discord and the simulated players share the machine with the bot: with
            # the machine's busy cores beside them, a bot starved by its harness shows as such.
            "harness_cpu_share": round(harness_cpu / elapsed, 2),
            "harness_cpu_ms_per_interaction": round(
                1000 * harness_cpu / max(play_interactions, 1), 2
            ),
            # How late the harness's loop woke a 10 ms sleeper: every request and gateway
            # event of the fake waits through the same queue.
            **loop_lag,
            "machine_busy_cores": round(machine_busy / elapsed, 2),
            "machine_cores": os.cpu_count(),
            "responses_429": fake.rate_limit_count,
            # What the bot asked of Discord in the timed phase, per second (route shapes):
            # table edits, hand refreshes (webhook edits), click answers (callbacks), posts.
            "requests_per_s_by_route": {
                route: round(n / elapsed, 1)
                for route, n in Counter(
                    route_of(r) for r in fake.requests[requests_before:]
                ).most_common(8)
            },
            # Discord's global limit counts these per second (interaction routes are exempt):
            # the busiest second of the timed phase, which must stay within the limit.
            "global_requests_peak_per_s": peak,
            "global_requests_peak_routes": dict(
                Counter(route_of(r) for r in limited if peak_at <= r.at < peak_at + 1.0)
            ),
            "table_pictures_per_s": round(
                sum(
                    1
                    for r in fake.requests[requests_before:]
                    if r.method == "PATCH"
                    and "/channels/" in r.path
                    and isinstance(r.body, dict)
                    and r.body.get("attachments")
                )
                / elapsed,
                1,
            ),
            "responses_429_by_route": dict(
                Counter(route_of(r) for r in fake.requests if r.status == 429)
            ),
            # When each 429 came, in seconds from the timed phase's start (< 0: the setup), and
            # the requests to its channel in the five seconds before it.
            "responses_429_at": [
                [round(r.at - start, 2), route_of(r), earlier_writes(fake.requests, r)]
                for r in [r for r in fake.requests if r.status == 429][:10]
            ],
            "games_finished_seen": players.games_finished,
            **activity,
            **({} if reviewers is None else reviewers.figures()),
        }


def capacity(steps: list[dict[str, object]]) -> int:
    """The largest table count whose every run kept the bot's p99 within the target with no
    429 (0 if none did)."""
    held: dict[int, bool] = {}
    for s in steps:
        ok = float(str(s["bot_interaction_ms_p99"])) <= P99_TARGET_MS and s["responses_429"] == 0
        tables = int(str(s["tables"]))
        held[tables] = held.get(tables, True) and ok
    return max((n for n, ok in held.items() if ok), default=0)


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--tables", type=int, default=200)
    p.add_argument("--seconds", type=float, default=60.0)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--images", choices=["on", "off"], default="on", help="card pictures")
    p.add_argument(
        "--think",
        nargs=2,
        type=float,
        default=(0.5, 2.0),
        metavar=("MIN", "MAX"),
        help="a human's thinking time between clicks, seconds (uniform)",
    )
    p.add_argument(
        "--burst",
        action="store_true",
        help="every human presses My hand at the same moment when the timed phase begins",
    )
    p.add_argument(
        "--global-limit",
        type=int,
        default=50,
        metavar="N",
        help="the fake Discord's global rate limit, requests a second outside interaction "
        "endpoints (Discord: 50 per bot token; 0 = none, as for a bot granted more: run the bot "
        "with DISCORD_REQUESTS_PER_SECOND=0 then)",
    )
    p.add_argument(
        "--browsers",
        action="store_true",
        help="half the humans play from the Activity over its WebSocket (no browser), with a "
        "spectator at every fifth table; reports action → every viewer updated (activity_*)",
    )
    p.add_argument(
        "--reviews",
        type=int,
        default=0,
        metavar="N",
        help="N players ask for a game review (/durak review) as the timed phase begins; "
        "reports how long each took (review_seconds) beside the usual figures",
    )
    p.add_argument(
        "--ladder",
        nargs="*",
        type=int,
        metavar="TABLES",
        help="run at each table count in turn (default 100 200 400 800) and report the "
        "largest whose bot p99 stays within 100 ms: the capacity of one process",
    )
    p.add_argument(
        "--repeat",
        type=int,
        default=1,
        metavar="N",
        help="with --ladder: N runs at each table count, each with a fresh bot; a count holds "
        "only if every one of its runs does (one run at a load near the limit is not a margin)",
    )
    args = p.parse_args()
    think = (args.think[0], args.think[1])
    if args.ladder is None:
        figures = run_fast(
            run(
                args.tables,
                args.seconds,
                args.seed,
                args.images == "on",
                think,
                args.burst,
                args.global_limit,
                args.browsers,
                args.reviews,
            )
        )
        print(
            json.dumps(
                {
                    "images": args.images,
                    "global_limit": args.global_limit,
                    "browsers": args.browsers,
                    "reviews": args.reviews,
                    **figures,
                }
            )
        )
        return
    steps = []
    counts = args.ladder or [100, 200, 400, 800]
    for n in [count for count in counts for _ in range(max(args.repeat, 1))]:
        step = run_fast(
            run(n, args.seconds, args.seed, args.images == "on", think, False, args.global_limit)
        )
        steps.append(step)
        print(
            f"{n} tables: bot p99 {step['bot_interaction_ms_p99']} ms, CPU share "
            f"{step['bot_cpu_share']}, harness {step['harness_cpu_share']} (loop lag p99 "
            f"{step['harness_loop_lag_ms_p99']} ms), machine "
            f"{step['machine_busy_cores']} of {step['machine_cores']} cores, "
            f"429s {step['responses_429']}",
            file=sys.stderr,
        )
    print(
        json.dumps(
            {
                "images": args.images,
                "global_limit": args.global_limit,
                "ladder": steps,
                "p99_target_ms": P99_TARGET_MS,
                "repeat": max(args.repeat, 1),
                "capacity_tables": capacity(steps),
            }
        )
    )


if __name__ == "__main__":
    main()
