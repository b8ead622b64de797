"""Storage speed: record_game / save_table medians and query times on a large database.

Builds 100,000 finished games by 10,000 users in one guild with bulk inserts
(one transaction, executemany), then measures the real storage methods on top.
Prints readable lines, then one JSON object on the last line.

    python benchmarks/storage_speed.py [--games N] [--users N] [--keep PATH]
        [--database-url sqlite:///PATH | postgresql://...]
    python benchmarks/storage_speed.py --database-url URL --processes 4 --seconds 60

The same figures for either backend. With ``--processes``, that many processes record
distinct games (and re-record some of their own, which must be no-ops) into one fresh
database for ``--seconds``; it reports games recorded per second, the p99 record time and
lost or duplicated games (both must be 0).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import random
import sqlite3
import statistics
import tempfile
import time
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import TypedDict

from bot.cli.progress import add_progress_flag, progress_bar, show_progress
from bot.storage import (
    GameRecord,
    LeaderboardQuery,
    LeaderboardSort,
    PostgresStorage,
    SavedTable,
    SeatRecord,
    SqliteStorage,
    TableStatus,
    backend_of,
    open_storage,
    sqlite_url,
)

GUILD = 1
T0 = datetime(2026, 1, 1, tzinfo=UTC)
RANKS = ["6", "7", "8", "9", "10", "J", "Q", "K", "A"]
CARDS = [r + s for s in "CDHS" for r in RANKS]


def _actions(rnd: random.Random, n_seats: int, n: int) -> list[str]:
    verbs = ["attack", "defend", "take", "pass", "transfer"]
    return [f"{rnd.randrange(n_seats)} {rnd.choice(verbs)} {rnd.choice(CARDS)}" for _ in range(n)]


def make_record(rnd: random.Random, game_id: str, users: int, at: datetime) -> GameRecord:
    n = rnd.randint(2, 6)
    ids = rnd.sample(range(1, users + 1), n)
    seats = [
        SeatRecord(seat=i, kind="human", user_id=u, display_name=f"user{u}")
        for i, u in enumerate(ids)
    ]
    order = rnd.sample(range(n), n)
    draw = rnd.random() < 0.03
    durak = None if draw else order[-1]
    return GameRecord(
        game_id=game_id, guild_id=GUILD, channel_id=rnd.randrange(20), table_id=game_id,
        series_id=f"s-{game_id}", game_number=1, rules={"preset": "classic", "options": {}},
        seats=seats, finishing_order=order[:-1], durak_seat=durak,
        losing_seats=[] if durak is None else [durak], started_at=at,
        ended_at=at + timedelta(minutes=8), seed_commitment="ab" * 32, seed="cd" * 32,
        card_order=rnd.sample(CARDS, 36), actions=_actions(rnd, n, 60),
    )  # fmt: skip


def bulk_load(path: Path, games: int, users: int, seed: int = 1, *, progress: bool = False) -> None:
    """Insert ``games`` games and consistent aggregates straight into the schema."""
    rnd = random.Random(seed)
    # Real-sized logs, drawn from a pool: generating 6 million random actions dominated.
    logs = [json.dumps(_actions(rnd, 6, 60)) for _ in range(500)]
    decks = [json.dumps(rnd.sample(CARDS, 36)) for _ in range(500)]
    game_rows: list[tuple[object, ...]] = []
    seat_rows: list[tuple[object, ...]] = []
    stats = {u: [0, 0, 0, 0, 0, 0] for u in range(1, users + 1)}  # g w l d cur best
    bar = progress_bar(games, desc="building", unit="game", enabled=progress)
    for g in range(games):
        if g % 1000 == 0:
            bar.update(min(1000, games - g))
        at = T0 + timedelta(minutes=10 * g)
        ended = (at + timedelta(minutes=8)).isoformat(timespec="microseconds")
        n = rnd.randint(2, 6)
        ids = rnd.sample(range(1, users + 1), n)
        order = rnd.sample(range(n), n)
        draw = rnd.random() < 0.03
        durak = None if draw else order[-1]
        gid = f"bulk-{g}"
        game_rows.append(
            (gid, GUILD, rnd.randrange(20), gid, f"s-{g}", 1, '{"preset":"classic"}',
             json.dumps(order[:-1]), durak, json.dumps([] if durak is None else [durak]),
             at.isoformat(timespec="microseconds"), ended, "ab" * 32, "cd" * 32,
             rnd.choice(decks), rnd.choice(logs), ended, 0)  # the last: assisted (migration 10)
        )  # fmt: skip
        for seat, u in enumerate(ids):
            place = 1 if draw else (n + 1 if seat == durak else order.index(seat) + 1)
            result = (
                "draw" if draw else "loss" if seat == durak else "win" if place == 1 else "played"
            )
            s = stats[u]
            s[0] += 1
            s[1] += result == "win"
            s[2] += result == "loss"
            s[3] += result == "draw"
            s[4] = s[4] + 1 if result == "win" else 0
            s[5] = max(s[5], s[4])
            seat_rows.append(
                (gid, seat, GUILD, ended, "human", u, None, f"user:{u}", f"user{u}", None,
                 place, result, 25.0, 8.0)
            )  # fmt: skip
    guild_rows = []
    global_rows = []
    for u, (g, w, lo, d, cur, best) in stats.items():
        mu = 25.0 + 10.0 * (w - lo) / max(g, 1)
        sigma = max(1.0, 8.33 / (1 + g**0.5))
        key = f"user:{u}"
        guild_rows.append(
            (GUILD, key, "human", u, None, f"user{u}", g, w, lo, d, cur, best, mu, sigma,
             mu - 3 * sigma)
        )  # fmt: skip
        global_rows.append((key, "human", u, None, f"user{u}", g, w, lo, d, cur, best))
    bar.set_description("writing")
    with bar, sqlite3.connect(path, isolation_level=None) as conn:
        # Bulk-load settings only for this throwaway file; storage reopens it in WAL.
        conn.execute("PRAGMA journal_mode = MEMORY")
        conn.execute("PRAGMA synchronous = OFF")
        conn.execute("PRAGMA cache_size = -262144")
        conn.execute("BEGIN")
        conn.executemany(f"INSERT INTO games VALUES ({', '.join('?' * 18)})", game_rows)
        conn.executemany(
            "INSERT INTO game_seats (game_id, seat, guild_id, ended_at, kind, user_id,"
            " ai_level, player_key, display_name, team, place, result, mu_after, sigma_after)"
            f" VALUES ({', '.join('?' * 14)})",
            seat_rows,
        )
        conn.executemany(
            "INSERT INTO guild_stats (guild_id, player_key, kind, user_id, ai_level,"
            " display_name, games, wins, losses, draws, current_streak, best_streak, mu,"
            f" sigma, rating) VALUES ({', '.join('?' * 15)})",
            guild_rows,
        )
        conn.executemany(
            "INSERT INTO global_stats (player_key, kind, user_id, ai_level, display_name,"
            " games, wins, losses, draws, current_streak, best_streak)"
            f" VALUES ({', '.join('?' * 11)})",
            global_rows,
        )
        conn.execute("COMMIT")
        conn.execute("PRAGMA journal_mode = WAL")


async def median_ms(op: Callable[[int], Awaitable[object]], runs: int) -> float:
    times = []
    for i in range(runs):
        t = time.perf_counter()
        await op(i)
        times.append((time.perf_counter() - t) * 1000)
    return round(statistics.median(times), 3)


async def measure(url: str, games: int, users: int, runs: int) -> dict[str, object]:
    rnd = random.Random(2)
    start = T0 + timedelta(minutes=10 * games + 10)
    records = [
        make_record(rnd, f"new-{i}", users, start + timedelta(minutes=i)) for i in range(runs)
    ]
    state = json.dumps({"hands": [rnd.sample(CARDS, 6) for _ in range(4)], "log": CARDS * 10})
    meta: dict[str, object] = {"seats": {str(i): 10**17 + i for i in range(4)}, "score": [2, 1]}
    tables = [
        SavedTable(
            table_id=f"table-{i % 20}", guild_id=GUILD, channel_id=i % 20, table_message_id=i,
            state_json=state, meta=meta, status=TableStatus.RUNNING, version=i,
        )
        for i in range(runs)
    ]  # fmt: skip
    s = await open_storage(url)
    try:
        out: dict[str, object] = {
            "record_game_ms": await median_ms(lambda i: s.record_game(records[i]), runs),
            "save_table_ms": await median_ms(lambda i: s.save_table(tables[i]), runs),
        }
        sorts: tuple[LeaderboardSort, ...] = ("wins", "win_rate", "rating")
        for sort in sorts:

            def board(i: int, sort: LeaderboardSort = sort) -> Awaitable[object]:
                return s.leaderboard(LeaderboardQuery(GUILD, sort, page=1 + i % 20))  # pages 1..20

            out[f"leaderboard_{sort}_ms"] = await median_ms(board, runs // 4)
        probe = [rnd.randrange(1, users + 1) for _ in range(runs)]
        out["user_stats_guild_ms"] = await median_ms(lambda i: s.user_stats(probe[i], GUILD), runs)
        out["user_stats_global_ms"] = await median_ms(lambda i: s.user_stats(probe[i], None), runs)
        out["channel_history_ms"] = await median_ms(
            lambda i: s.channel_history(GUILD, i % 20), runs
        )
    finally:
        await s.close()
    return out


async def pg_bulk_load(
    url: str, path: Path, games: int, users: int, *, progress: bool = False
) -> None:
    """The SQLite bulk load, copied row for row into PostgreSQL (COPY)."""
    import asyncpg

    async with await SqliteStorage.open(path):  # the SQLite schema to stage the rows in
        pass
    bulk_load(path, games, users, progress=progress)
    src = sqlite3.connect(path)
    conn = await asyncpg.connect(url)
    try:
        for table in ("games", "game_seats", "guild_stats", "global_stats"):
            cur = src.execute(f"SELECT * FROM {table}")
            cols = [d[0] for d in cur.description]
            times = {i for i, c in enumerate(cols) if c.endswith("_at")}
            rows = [
                tuple(datetime.fromisoformat(v) if i in times else v for i, v in enumerate(r))
                for r in cur
            ]
            await conn.copy_records_to_table(table, records=rows, columns=cols)
        await conn.execute("ANALYZE")
    finally:
        await conn.close()
        src.close()


class WorkerReport(TypedDict):
    """What one recording process sends back."""

    ids: int
    seats: int
    times: list[float]
    repeats: int


def _record_worker(
    url: str, k: int, seconds: float, users: int, out: multiprocessing.Queue[WorkerReport]
) -> None:
    asyncio.run(_record_for(url, k, seconds, users, out))


async def _record_for(
    url: str, k: int, seconds: float, users: int, out: multiprocessing.Queue[WorkerReport]
) -> None:
    rnd = random.Random(k)
    s = await open_storage(url)
    times: list[float] = []
    ids: list[str] = []
    repeats = 0
    try:
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            if ids and rnd.random() < 0.05:  # a retried record (e.g. after a lost reply)
                await s.record_game(await s.get_game(rnd.choice(ids)))
                repeats += 1
                continue
            gid = f"p{k}-{len(ids)}"
            rec = make_record(rnd, gid, users, T0 + timedelta(seconds=len(ids)))
            t = time.perf_counter()
            await s.record_game(rec)
            times.append(time.perf_counter() - t)
            ids.append(gid)
    finally:
        await s.close()
    out.put({"ids": len(ids), "seats": 0, "times": times, "repeats": repeats})


async def multi_process(url: str, processes: int, seconds: float, users: int) -> dict[str, object]:
    s = await open_storage(url)  # migrate once before the workers race
    await s.close()
    ctx = multiprocessing.get_context("spawn")
    q: multiprocessing.Queue[WorkerReport] = ctx.Queue()
    workers = [
        ctx.Process(target=_record_worker, args=(url, k, seconds, users, q))
        for k in range(processes)
    ]
    t = time.perf_counter()
    for w in workers:
        w.start()
    results = [q.get() for _ in workers]
    for w in workers:
        w.join()
    wall = time.perf_counter() - t
    sent = sum(r["ids"] for r in results)
    times = sorted(x for r in results for x in r["times"])
    s = await open_storage(url)
    try:
        stored, seat_rows, seat_games = await _totals(s)
    finally:
        await s.close()
    return {
        "backend": backend_of(url),
        "processes": processes,
        "seconds": seconds,
        "games_recorded": sent,
        "re_records": sum(r["repeats"] for r in results),
        "games_per_s": round(sent / wall, 1),
        "record_p50_ms": round(times[len(times) // 2] * 1000, 2),
        "record_p99_ms": round(times[int(len(times) * 0.99)] * 1000, 2),
        "lost_games": max(0, sent - stored),
        "duplicated_games": max(0, stored - sent),
        "aggregates_match_seats": seat_rows == seat_games,
    }


async def _totals(s: object) -> tuple[int, int, int]:
    """(games stored, seat rows, sum of per-player game counts) read straight from the tables."""
    sql = (
        "SELECT (SELECT COUNT(*) FROM games), (SELECT COUNT(*) FROM game_seats),"
        " (SELECT COALESCE(SUM(games), 0) FROM guild_stats)"
    )
    if isinstance(s, SqliteStorage):
        with sqlite3.connect(s.path) as conn:
            a, b, c = conn.execute(sql).fetchone()
            return int(a), int(b), int(c)
    import asyncpg

    assert isinstance(s, PostgresStorage)
    conn = await asyncpg.connect(s.url)
    try:
        row = await conn.fetchrow(sql)
        return int(row[0]), int(row[1]), int(row[2])
    finally:
        await conn.close()


async def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--games", type=int, default=100_000)
    ap.add_argument("--users", type=int, default=10_000)
    ap.add_argument("--runs", type=int, default=200)
    ap.add_argument("--keep", type=Path, help="build the SQLite database here and keep it")
    ap.add_argument("--database-url", help="an EMPTY database to fill (default: a temp SQLite)")
    ap.add_argument("--processes", type=int, help="multi-process recording mode")
    ap.add_argument("--seconds", type=float, default=60.0)
    add_progress_flag(ap)
    args = ap.parse_args()
    progress = show_progress(args.progress)
    with tempfile.TemporaryDirectory() as tmp:
        path = args.keep or Path(tmp) / "bench.sqlite3"
        path.unlink(missing_ok=True)
        url = args.database_url or sqlite_url(path)
        if args.processes:
            result = await multi_process(url, args.processes, args.seconds, args.users)
        else:
            t = time.perf_counter()
            if backend_of(url) == "sqlite":
                path = Path(url.removeprefix("sqlite:///"))
                async with await SqliteStorage.open(path):  # creates the schema
                    pass
                bulk_load(path, args.games, args.users, progress=progress)
            else:
                await (await open_storage(url)).close()
                await pg_bulk_load(url, path, args.games, args.users, progress=progress)
            build_s = round(time.perf_counter() - t, 2)
            print(f"built {args.games} games / {args.users} users in {build_s} s", flush=True)
            result = await measure(url, args.games, args.users, args.runs)
            result = {
                "backend": backend_of(url), "games": args.games, "users": args.users,
                "build_s": build_s, **result,
            }  # fmt: skip
        for k, v in result.items():
            print(f"{k:>24}: {v}")
        print(json.dumps(result))


if __name__ == "__main__":
    asyncio.run(main())
