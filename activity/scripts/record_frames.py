"""Record protocol frames for the harness and the screenshots (docs/activity.md, "Client").

The frames are the bot server's own: a real ``Table`` holding a real game, turned into frames
by ``bot.activity.table_frames.table_frame`` and ``protocol.welcome_frame`` exactly as the
server sends them. The game is played with seeded random legal moves to a position where the
first seat defends against two open attack cards.

    python activity/scripts/record_frames.py   # writes activity/harness/frames/*.json
    python activity/scripts/record_frames.py seats-6 seats-6-attack   # only those

The ``seats-<n>`` scenarios (2 to 6 seats; ``seat-defend`` is the 4) put the most on a phone's
screen: a bout of several pairs, the status line, the action buttons and the hand; in
``seats-6-attack`` seat 0 attacks, with "Done" and "Done for this bout" both offered;
``seats-6-watch`` is that table as a spectator sees it (several seats may throw in).

Each file is ``{"welcome": {...}, "tables": [{...}, ...]}``: the harness server sends the
welcome and the first table frame, then the next table frame after each action it receives.
"""

from __future__ import annotations

import json
import random
import sys
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

from bot.activity.client_texts import client_texts
from bot.activity.protocol import welcome_frame
from bot.activity.table_frames import table_frame
from bot.domain import TableStatus
from bot.storage import RatingChange
from bot.storage.outcome import DEFAULT_RATING, Rating, rate_game, rating_changes
from bot.tables.records import game_record
from bot.tables.table import Seat, Table
from durak_core import Action, GameState, Series, new_game, preset
from durak_core.ai import Level

OUT = Path(__file__).resolve().parents[1] / "harness" / "frames"
NAMES = ("Olga", "Maxim", "Robo", "Dmitri", "Anastasia", "Hardy")
USERS = (101, 102, None, 104, 105, None)
#: Olga and Dmitri have Discord avatars (the harness's CDN draws them); Maxim has none.
AVATARS = (
    "6f1e2d3c4b5a69788796a5b4c3d2e1f0",
    None,
    None,
    "a_9e8d7c6b5a4938271605f4e3d2c1b0a9",
    None,
    None,
)
SPECTATOR = 999
#: The recorded game's shuffle seed (its commitment and, once over, the seed are in the frames).
SEED = 0x9E3779B97F4A7C15F39CC0605CEDC8341082276BF3A27251F86C6A11D0C18E95
#: The ratings (mu, sigma) Olga and Dmitri had before the finished game.
PRIOR = ((101, 27.4, 5.9), (104, 29.0, 5.1))


def two_targets(state: GameState) -> bool:
    beats: dict[str, set[str]] = {}
    for action in state.legal_actions(0):
        words = str(action).split()
        if words[0] == "defend":
            beats.setdefault(words[2], set()).add(words[1])
    return any(len(targets) >= 2 for targets in beats.values())


Move = tuple[int, Action]


def search(
    rules: str,
    found: Callable[[GameState], bool],
    pick: Callable[[GameState, random.Random], Move | None],
    moves: int,
    seats: int = 4,
) -> GameState:
    """Seeded random games of ``seats`` (``pick`` chooses each move; None: choose again) until
    a position is ``found``."""
    for seed in range(1, 5000):
        rng = random.Random(seed)
        state = new_game(preset(rules), seats, seed=seed, dealer=seats - 2)
        for _ in range(moves):
            if state.finished:
                break
            if found(state):
                return state
            move = pick(state, rng)
            if move is not None:
                state, _ = state.apply(*move)
    raise RuntimeError("no position found")


def must_pick_a_target(state: GameState) -> bool:
    """Seat 0 must beat two open attack cards, has a beaten pair already, and holds a card
    that beats either open card (so the client must ask which one)."""
    view = state.public_view()
    open_cards = [a for a, d in view.table if d is None]
    beaten = [a for a, d in view.table if d is not None]
    return (
        view.defender == 0
        and 0 in view.awaiting
        and len(open_cards) >= 2
        and bool(beaten)
        and view.talon_size > 4
        and two_targets(state)
        and state.hand_size(0) >= 6
    )


def keep_bouts_going(state: GameState, rng: random.Random) -> Move | None:
    seat, action = rng.choice(state.legal_moves())
    if str(action) == "take" and rng.random() < 0.8:
        return None  # most takes are skipped: the bouts go on
    return seat, action


def position() -> GameState:
    """A game where seat 0 must pick which open card to beat (``must_pick_a_target``)."""
    return search("transfer", must_pick_a_target, keep_bouts_going, 200)


def holds_13_and_defends(state: GameState) -> bool:
    view = state.public_view()
    return (
        state.hand_size(0) >= 13 and view.defender == 0 and 0 in view.awaiting and bool(view.table)
    )


def seat_0_takes(state: GameState, rng: random.Random) -> Move:
    """Seat 0 takes whenever it may; the others never do when they have anything else."""
    moves = state.legal_moves()
    takes = [m for m in moves if m[0] == 0 and str(m[1]) == "take"]
    seat, action = takes[0] if takes else rng.choice(moves)
    if str(action) == "take" and seat != 0:
        others = [m for m in moves if m != (seat, action)]
        if others:
            seat, action = rng.choice(others)
    return seat, action


def big_hand() -> GameState:
    """A game where seat 0 holds 13 cards and must defend (it took bout after bout): the hand
    a phone must lay out in two rows."""
    return search("classic", holds_13_and_defends, seat_0_takes, 300)


def full_bout_defence(state: GameState) -> bool:
    """Seat 0 defends a bout of at least four cards, one open, with a hand of five or more."""
    view = state.public_view()
    return (
        view.defender == 0
        and 0 in view.awaiting
        and len(view.table) >= 4
        and any(d is None for _, d in view.table)
        and state.hand_size(0) >= 5
    )


def full_bout_attack(state: GameState) -> bool:
    """Seat 0 may throw in to a bout of at least four pairs, all beaten (so "Done" and "Done
    for this bout" are both offered)."""
    view = state.public_view()
    return (
        view.defender != 0
        and 0 in view.attackers
        and 0 in view.awaiting
        and len(view.table) >= 4
        and all(d is not None for _, d in view.table)
        and state.hand_size(0) >= 4
    )


def seats_position(seats: int, found: Callable[[GameState], bool]) -> GameState:
    return search("classic", found, keep_bouts_going, 300, seats)


def table_at(state: GameState | None, seats: int = 4) -> Table:
    table = Table(
        "5f3a9c21",
        1,
        2,
        USERS[0] or 0,
        preset("transfer"),
        seats,
        60,  # a turn timer: the frames carry a deadline (37 s left as recorded)
        seats=[
            Seat(name, user_id=user, ai_level=None if user else Level.NORMAL, avatar=avatar)
            for name, user, avatar in list(zip(NAMES, USERS, AVATARS, strict=True))[:seats]
        ],
        language="en",
    )
    table.state = state
    table.status = TableStatus.RUNNING
    table.version = 17
    table.seed = SEED
    table.deadline = None if state is None else time.time() + 37
    return table


def ratings(table: Table, state: GameState) -> dict[int, RatingChange]:
    """The rating changes storage's ``record_game`` returns for this game: Olga and Dmitri have
    played before (these ratings), Maxim's is his first game."""
    record = game_record(table, state, datetime(2026, 12, 3, tzinfo=UTC))
    prior = {f"user:{u}": Rating(mu, sigma) for u, mu, sigma in PRIOR}
    keys = {s.player_key for s in record.seats}
    new = rate_game(record, {k: prior.get(k, DEFAULT_RATING) for k in keys})
    return rating_changes(record, {k: prior.get(k, DEFAULT_RATING) for k in keys}, new)


def finish(state: GameState, seed: int = 7) -> GameState:
    """Random legal moves to the end of the game."""
    rng = random.Random(seed)
    while not state.finished:
        seat, action = rng.choice(state.legal_moves())
        state, _ = state.apply(seat, action)
    return state


def record(
    name: str,
    user_id: int,
    locale: str,
    states: list[GameState | None],
    status: TableStatus = TableStatus.RUNNING,
) -> None:
    welcome = json.loads(
        welcome_frame(
            user_id=user_id,
            channel_id=2,
            instance_id=name,
            resume=f"{name}-resume",
            resume_expires_in=300,
            texts=client_texts(locale),
            default_timer=60,
        )
    )
    tables = []
    for i, state in enumerate(states):
        if i == 0 and status is TableStatus.ABANDONED:  # no table in the channel
            tables.append(json.loads(table_frame(None, user_id)))
            continue
        if status is TableStatus.ABANDONED:  # then the one the user opens
            table = table_at(None)
            table.status, table.version = TableStatus.LOBBY, 1
            tables.append(json.loads(table_frame(table, user_id)))
            continue
        table = table_at(state, 4 if state is None else state.public_view().seats)
        table.version = 17 + i
        table.status = status
        if status is TableStatus.LOBBY:
            table.max_seats = 6  # two seats still empty
        if status is TableStatus.FINISHED and state is not None and state.result is not None:
            table.deadline = None
            table.series = Series(table.rules, len(table.seats))
            table.series.record(state.result, state.dealer)
            table.ratings = ratings(table, state)
        tables.append(json.loads(table_frame(table, user_id)))
    OUT.mkdir(parents=True, exist_ok=True)
    path = OUT / f"{name}.json"
    path.write_text(
        json.dumps({"welcome": welcome, "tables": tables}, indent=1) + "\n", encoding="utf-8"
    )
    print(f"wrote {path}")


def recorders() -> dict[str, Callable[[], None]]:
    """Each scenario's recording, by name (the seat-defend ones share one search)."""

    def defend_pair() -> tuple[GameState, GameState]:
        state = position()
        defend = next(a for a in state.legal_actions(0) if str(a).startswith("defend"))
        return state, state.apply(0, defend)[0]

    def after() -> GameState:
        return defend_pair()[1]

    found: dict[str, Callable[[], None]] = {
        "seat-defend": lambda: record("seat-defend", 101, "en-US", [*defend_pair()]),
        "seat-defend-ru": lambda: record("seat-defend-ru", 101, "ru", [*defend_pair()]),
        "spectator": lambda: record("spectator", SPECTATOR, "en-US", [*defend_pair()]),
        "lobby": lambda: record("lobby", 101, "en-US", [None], TableStatus.LOBBY),
        "finished": lambda: record(
            "finished", 101, "en-US", [finish(after())], TableStatus.FINISHED
        ),
        "finished-ru": lambda: record(
            "finished-ru", 101, "ru", [finish(after())], TableStatus.FINISHED
        ),
        "open-table": lambda: record(
            "open-table", 101, "en-US", [None, None], TableStatus.ABANDONED
        ),
        "big-hand": lambda: record("big-hand", 101, "en-US", [big_hand()]),
        "teams": lambda: record(
            "teams", 101, "en-US", [new_game(preset("teams"), 4, seed=3, dealer=3)]
        ),
        "seats-6-attack": lambda: record(
            "seats-6-attack", 101, "en-US", [seats_position(6, full_bout_attack)]
        ),
        "seats-6-watch": lambda: record(
            "seats-6-watch", SPECTATOR, "en-US", [seats_position(6, full_bout_attack)]
        ),
    }
    for n in (2, 3, 5, 6):
        found[f"seats-{n}"] = lambda n=n: record(
            f"seats-{n}", 101, "en-US", [seats_position(n, full_bout_defence)]
        )
    return found


def main() -> None:
    wanted = sys.argv[1:]
    for name, make in recorders().items():
        if not wanted or name in wanted:
            make()


if __name__ == "__main__":
    main()
