"""Storage speed: record_game / save_table medians and query times on a large database.

Builds 100,000 finished games by 10,000 users in one guild with bulk inserts
(one transaction, executemany), then measures the real storage methods on top.
Prints readable lines, then one JSON object on the last line.

    python benchmarks/storage_speed.py [--games N] [--users N] [--keep PATH]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sqlite3
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.storage import GameRecord, LeaderboardSort, SavedTable, SeatRecord, SqliteStorage

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


def bulk_load(path: Path, games: int, users: int, seed: int = 1) -> None:
    """Insert ``games`` games and consistent aggregates straight into the schema."""
    rnd = random.Random(seed)
    # Real-sized logs, drawn from a pool: generating 6 million random actions dominated.
    logs = [json.dumps(_actions(rnd, 6, 60)) for _ in range(500)]
    decks = [json.dumps(rnd.sample(CARDS, 36)) for _ in range(500)]
    game_rows: list[tuple[object, ...]] = []
    seat_rows: list[tuple[object, ...]] = []
    stats = {u: [0, 0, 0, 0, 0, 0] for u in range(1, users + 1)}  # g w l d cur best
    for g in range(games):
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
             rnd.choice(decks), rnd.choice(logs), ended)
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
    with sqlite3.connect(path, isolation_level=None) as conn:
        # Bulk-load settings only for this throwaway file; storage reopens it in WAL.
        conn.execute("PRAGMA journal_mode = MEMORY")
        conn.execute("PRAGMA synchronous = OFF")
        conn.execute("PRAGMA cache_size = -262144")
        conn.execute("BEGIN")
        conn.executemany(f"INSERT INTO games VALUES ({', '.join('?' * 17)})", game_rows)
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


async def measure(path: Path, games: int, users: int, runs: int) -> dict[str, object]:
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
            state_json=state, meta=meta, status="running", version=i,
        )
        for i in range(runs)
    ]  # fmt: skip
    async with await SqliteStorage.open(path) as s:
        out: dict[str, object] = {
            "record_game_ms": await median_ms(lambda i: s.record_game(records[i]), runs),
            "save_table_ms": await median_ms(lambda i: s.save_table(tables[i]), runs),
        }
        sorts: tuple[LeaderboardSort, ...] = ("wins", "win_rate", "rating")
        for sort in sorts:

            def board(i: int, sort: LeaderboardSort = sort) -> Awaitable[object]:
                return s.leaderboard(GUILD, sort, page=1 + i % 20)  # pages 1..20

            out[f"leaderboard_{sort}_ms"] = await median_ms(board, runs // 4)
        probe = [rnd.randrange(1, users + 1) for _ in range(runs)]
        out["user_stats_guild_ms"] = await median_ms(lambda i: s.user_stats(probe[i], GUILD), runs)
        out["user_stats_global_ms"] = await median_ms(lambda i: s.user_stats(probe[i], None), runs)
        out["recent_games_ms"] = await median_ms(lambda i: s.recent_games(probe[i], GUILD), runs)
        out["head_to_head_ms"] = await median_ms(
            lambda i: s.head_to_head(GUILD, probe[i], probe[-i - 1]), runs // 4
        )
    return out


async def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--games", type=int, default=100_000)
    ap.add_argument("--users", type=int, default=10_000)
    ap.add_argument("--runs", type=int, default=200)
    ap.add_argument("--keep", type=Path, help="build the database here and keep it")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        path = args.keep or Path(tmp) / "bench.sqlite3"
        path.unlink(missing_ok=True)
        async with await SqliteStorage.open(path):  # creates the schema via migrations
            pass
        t = time.perf_counter()
        bulk_load(path, args.games, args.users)
        build_s = round(time.perf_counter() - t, 2)
        print(f"built {args.games} games / {args.users} users in {build_s} s", flush=True)
        result = await measure(path, args.games, args.users, args.runs)
        result = {"games": args.games, "users": args.users, "build_s": build_s, **result}
        for k, v in result.items():
            print(f"{k:>24}: {v}")
        print(json.dumps(result))


if __name__ == "__main__":
    asyncio.run(main())
