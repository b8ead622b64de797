# Compiled with mypyc at install (.build/backend.py): after an edit its group runs as Python
# until the next install (durak_core/compiled_sources.py).
"""SavedTable (storage) ⇄ Table (runtime): what a restarted bot needs to resume a table."""

from __future__ import annotations

import logging
from dataclasses import asdict
from datetime import datetime
from functools import lru_cache
from typing import Any, cast

from bot.storage import SavedTable
from durak_core import Card, Event, GameState, RuleSet, Series, new_game, replay_json
from durak_core.ai import LEVELS, Level

from .table import MatchOf, Note, Seat, Table

log = logging.getLogger(__name__)

#: What a saved table keeps in columns of its own, named as the table names them (the rest is
#: ``meta``, and the game's ``state_json``): both directions copy these.
_COLUMNS = (
    "table_id",
    "guild_id",
    "channel_id",
    "thread_id",
    "lobby_message_id",
    "table_message_id",
    "status",
    "version",
)


@lru_cache(maxsize=256)
def _options(rules: RuleSet) -> dict[str, object]:
    return rules.options()  # read only: dumped to JSON with the rest of the metadata


@lru_cache(maxsize=4096)
def _iso(at: datetime) -> str:
    return at.isoformat()


def to_saved(table: Table) -> SavedTable:
    series = table.series
    meta: dict[str, object] = {
        "host_id": table.host_id,
        "rules": _options(table.rules),
        "max_seats": table.max_seats,
        "turn_timer": table.turn_timer,
        "seats": [
            {
                "name": s.name,
                "user_id": s.user_id,
                "ai_level": s.ai_level,
                "replaced": s.replaced,
                "avatar": s.avatar,
            }
            for s in table.seats
        ],
        "series_number": table.series_number,
        "series": None
        if series is None
        else {
            "wins": series.wins,
            "losses": series.losses,
            "games": series.games,
            "draws": series.draws,
            "last_dealer": series.last_dealer,
            "last_durak": series.last_durak,
        },
        # The seed stays server-side (only its commitment is public) until the game is recorded.
        "seed": None if table.seed is None else format(table.seed, "x"),
        "started_at": None if table.started_at is None else _iso(table.started_at),
        "deadline": table.deadline,
        "away": sorted(table.away),
        "left": sorted(table.left),
        "present": sorted(table.present),
        "forfeit": sorted(table.forfeit),
        "expiries": {str(k): v for k, v in table.expiries.items()},
        "last_human_action": table.last_human_action,
        "timed_out": table.timed_out,
        "language": table.language,
        "auto_pass": {str(k): v for k, v in table.auto_pass.items()},
        "notes": [
            [n.at, n.key, n.seat, None if n.card is None else str(n.card)] for n in table.notes
        ],
        "anyone_adds_ai": table.anyone_adds_ai,
        "practice": table.practice,
        "match": None if table.match is None else asdict(table.match),
    }
    # Built from the table's typed fields, so not validated again (a table is saved after
    # every action); ``tests/bot/tables/test_persistence.py`` checks it against a validated one.
    return SavedTable.model_construct(
        **{c: getattr(table, c) for c in _COLUMNS},
        state_json="" if table.state is None else table.snapshot(table.state),
        meta=meta,
    )


def _seat(raw: dict[str, Any]) -> Seat:
    level = raw.get("ai_level")
    if level is not None and level not in LEVELS:
        raise ValueError(f"unknown AI level {level!r}")
    return Seat(
        name=str(raw["name"]),
        user_id=None if raw.get("user_id") is None else int(raw["user_id"]),
        ai_level=None if level is None else Level(level),
        replaced=bool(raw.get("replaced", False)),
        # tables saved before avatars were kept have none
        avatar=None if raw.get("avatar") is None else str(raw["avatar"]),
    )


def from_saved(saved: SavedTable) -> Table:
    meta = cast(dict[str, Any], saved.meta)
    rules = RuleSet.from_options(meta["rules"])
    seats = [_seat(s) for s in meta["seats"]]
    table = Table(
        **{c: getattr(saved, c) for c in _COLUMNS},
        host_id=int(meta["host_id"]),
        rules=rules,
        max_seats=int(meta["max_seats"]),
        turn_timer=int(meta["turn_timer"]),
        seats=seats,
        series_number=int(meta.get("series_number", 1)),
    )
    raw_series = meta.get("series")
    if raw_series is not None:
        table.series = Series(rules, len(seats), **raw_series)
    if meta.get("seed"):
        table.seed = int(str(meta["seed"]), 16)
    if meta.get("started_at"):
        table.started_at = datetime.fromisoformat(str(meta["started_at"]))
    table.deadline = meta.get("deadline")
    table.away = {int(x) for x in meta.get("away", [])}
    table.language = None if meta.get("language") is None else str(meta["language"])
    table.left = {int(x) for x in meta.get("left", [])}
    table.present = {int(x) for x in meta.get("present", [])}
    table.forfeit = {int(x) for x in meta.get("forfeit", [])}
    table.expiries = {int(k): int(v) for k, v in meta.get("expiries", {}).items()}
    table.last_human_action = float(meta.get("last_human_action", 0.0))
    table.timed_out = [int(x) for x in meta.get("timed_out", [])]
    table.auto_pass = {int(k): int(v) for k, v in meta.get("auto_pass", {}).items()}
    table.notes = [
        Note(int(at), str(key), int(seat), None if card is None else Card.parse(str(card)))
        for at, key, seat, card in meta.get("notes", [])
    ]
    table.anyone_adds_ai = bool(meta.get("anyone_adds_ai", False))
    table.practice = bool(meta.get("practice", False))
    if meta.get("match"):
        table.match = MatchOf(**meta["match"])
    if saved.state_json:
        table.state = restore_state(saved.table_id, saved.state_json)
        table.events = replay_events(table.state)
    return table


def restore_state(table_id: str, state_json: str) -> GameState:
    """The saved game as its action log makes it. The log is the truth: a snapshot that
    disagrees with it (a bug, or a hand-edited row) is replaced by the log's replay, so no
    action is lost, and the difference is logged (its field, never a hidden card). A log that
    does not replay raises :class:`~durak_core.StateFormatError`."""
    state, problem = replay_json(state_json)
    if problem is not None:
        log.warning(
            "table %s: the saved state disagrees with its action log (%s); restored from the log",
            table_id,
            problem,
        )
    return state


def replay_events(state: GameState) -> list[Event]:
    """The events of ``state``'s game, recomputed from its deal and action log."""
    game = new_game(
        state.rules,
        state.n,
        order=state.order_cards(),
        dealer=state.dealer,
        first_game=state.first_game,
    )
    events: list[Event] = []
    for seat, action in state.log:
        game, new = game.apply(seat, action)
        events.extend(new)
    return events
