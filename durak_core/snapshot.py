"""A state as a snapshot: the pydantic model of its JSON, and the fast writer the bot saves with
(which lives in :mod:`durak_core.snapshot_writer`, compiled; re-exported here).

The snapshot holds the whole state, secrets included: it is for storage and restarts, never for
players. Loading it (which replays its log) is :mod:`durak_core.serialize`'s part.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from .board import Board
from .snapshot_writer import SCHEMA_VERSION as SCHEMA_VERSION
from .snapshot_writer import SnapshotWriter as SnapshotWriter
from .snapshot_writer import card_text, card_texts, move_text, seats_of
from .snapshot_writer import state_to_json as state_to_json


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class StateModel(_Model):
    """Schema of a serialized :class:`Board`."""

    schema_version: Literal[1] = 1
    rules: dict[str, Any]
    seats: int = Field(ge=2, le=6)
    dealer: int
    starter: int
    first_game: bool
    seed: str | None  # hex, so 256-bit seeds survive every JSON reader
    order: list[str]
    trump_card: str
    hidden_trump: str | None = None  # V14's face-down card under the trump
    hands: list[list[str]]
    known: list[list[str]]
    talon: list[str]  # top first
    discard: list[str]
    table: list[tuple[str, str | None]]
    attacker: int
    defender: int
    limit: int = Field(ge=0)
    taken: bool
    passed: list[int]
    active: list[int]
    out: list[int]
    emptied: list[int]
    discarded_once: bool
    bout: int = Field(ge=0)
    version: int = Field(ge=0)
    finished: bool
    log: list[str]  # "SEAT ACTION"


def state_to_model(s: Board) -> StateModel:
    return StateModel(
        rules=s.rules.options(),
        seats=s.n,
        dealer=s.dealer,
        starter=s.starter,
        first_game=s.first_game,
        seed=None if s.seed is None else format(s.seed, "x"),
        order=[card_text(i) for i in s.order],
        trump_card=card_text(s.trump_card),
        hidden_trump=None if s.hidden_trump < 0 else card_text(s.hidden_trump),
        hands=[card_texts(h) for h in s.hands],
        known=[card_texts(k) for k in s.known],
        talon=[card_text(i) for i in reversed(s.talon)],
        discard=card_texts(s.discard),
        table=[
            (card_text(a), card_text(d) if d >= 0 else None)
            for a, d in zip(s.att, s.dfn, strict=True)
        ],
        attacker=s.attacker,
        defender=s.defender,
        limit=s.limit,
        taken=s.taken,
        passed=seats_of(s.passed, s.n),
        active=seats_of(s.active, s.n),
        out=list(s.out),
        emptied=list(s.emptied),
        discarded_once=s.discarded_once,
        bout=s.bout,
        version=s.version,
        finished=s.finished,
        log=[move_text(seat, action) for seat, action in s.log],
    )
