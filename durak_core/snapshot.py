"""A state as a snapshot: the pydantic model of its JSON, and the fast writer the bot saves with.

The snapshot holds the whole state, secrets included: it is for storage and restarts, never for
players. Loading it (which replays its log) is :mod:`durak_core.serialize`'s part.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from functools import cache, lru_cache
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from .actions import Action
from .board import Board
from .cards import Card, cards_of
from .rules import RuleSet

SCHEMA_VERSION = 1


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


# A table is saved after every action: card and move texts are built once, not per save.
@cache
def _card(index: int) -> str:
    return str(Card.from_index(index))


@lru_cache(maxsize=8192)
def _move(seat: int, action: Action) -> str:
    return f"{seat} {action}"


def _cards(mask: int) -> list[str]:
    return [_card(c.index) for c in cards_of(mask)]


def _seats(mask: int, n: int) -> list[int]:
    return [t for t in range(n) if mask >> t & 1]


def state_to_model(s: Board) -> StateModel:
    return StateModel(
        rules=s.rules.options(),
        seats=s.n,
        dealer=s.dealer,
        starter=s.starter,
        first_game=s.first_game,
        seed=None if s.seed is None else format(s.seed, "x"),
        order=[_card(i) for i in s.order],
        trump_card=_card(s.trump_card),
        hidden_trump=None if s.hidden_trump < 0 else _card(s.hidden_trump),
        hands=[_cards(h) for h in s.hands],
        known=[_cards(k) for k in s.known],
        talon=[_card(i) for i in reversed(s.talon)],
        discard=_cards(s.discard),
        table=[(_card(a), _card(d) if d >= 0 else None) for a, d in zip(s.att, s.dfn, strict=True)],
        attacker=s.attacker,
        defender=s.defender,
        limit=s.limit,
        taken=s.taken,
        passed=_seats(s.passed, s.n),
        active=_seats(s.active, s.n),
        out=list(s.out),
        emptied=list(s.emptied),
        discarded_once=s.discarded_once,
        bout=s.bout,
        version=s.version,
        finished=s.finished,
        log=[_move(seat, action) for seat, action in s.log],
    )


def state_to_json(s: Board) -> str:
    """``state_to_model(s).model_dump_json()``, written directly: the bot saves a table after
    every action, and building and validating the model cost most of that. Card and move texts
    hold no character JSON escapes, so their arrays are joined as text; the deal's fields come
    from a cache. A test checks the text against the model's at every moment of many games."""
    return _state_json(s, _log_json(s.log))


def _log_json(log: Sequence[tuple[int, Action]]) -> str:
    return ",".join([_move_json(seat, action) for seat, action in log])


class SnapshotWriter:
    """:func:`state_to_json` for the states of one table, one after another: the log's text is
    kept between them, so each move is written once, not once per save (a table is saved after
    every action, and its log was the largest part of each snapshot's cost). A state of another
    game, or one that is not a continuation, is written whole.

    >>> from durak_core import RuleSet, new_game
    >>> g = new_game(RuleSet(), 2, seed=3)
    >>> write = SnapshotWriter()
    >>> write(g) == g.to_json()
    True
    >>> g, _ = g.apply(g.starter, g.legal_actions(g.starter)[0])
    >>> write(g) == g.to_json()
    True
    """

    def __init__(self) -> None:
        self._log: tuple[tuple[int, Action], ...] = ()
        self._text = ""

    def __call__(self, s: Board) -> str:
        log, known = s.log, self._log
        # Moves are shared between a state and its successors, so comparing the known prefix
        # is a comparison of identities.
        if known and len(log) >= len(known) and log[: len(known)] == known:
            if len(log) > len(known):
                more = _log_json(log[len(known) :])
                self._text = f"{self._text},{more}" if self._text else more
        else:
            self._text = _log_json(log)
        self._log = log
        return _state_json(s, self._text)


def _state_json(s: Board, log_json: str) -> str:
    return "".join(
        (
            _deal_json(s.rules, s.n, s.dealer, s.starter, s.first_game, s.seed, s.order),
            '"trump_card":"',
            _card(s.trump_card),
            '","hidden_trump":',
            "null" if s.hidden_trump < 0 else f'"{_card(s.hidden_trump)}"',
            ',"hands":[',
            ",".join([_cards_json(h) for h in s.hands]),
            '],"known":[',
            ",".join([_cards_json(k) for k in s.known]),
            '],"talon":',
            _talon_json(s.talon),
            ',"discard":',
            _cards_json(s.discard),
            ',"table":[',
            ",".join([_pair_json(a, d) for a, d in zip(s.att, s.dfn, strict=True)]),
            f'],"attacker":{s.attacker},"defender":{s.defender},"limit":{s.limit}',
            f',"taken":{_bool(s.taken)},"passed":{_ints(_seats(s.passed, s.n))}',
            f',"active":{_ints(_seats(s.active, s.n))},"out":{_ints(s.out)}',
            f',"emptied":{_ints(s.emptied)},"discarded_once":{_bool(s.discarded_once)}',
            f',"bout":{s.bout},"version":{s.version},"finished":{_bool(s.finished)},"log":[',
            log_json,
            "]}",
        )
    )


def _bool(value: bool) -> str:
    return "true" if value else "false"


def _ints(values: Iterable[int]) -> str:
    return "[" + ",".join([str(v) for v in values]) + "]"


def _strings(texts: Sequence[str]) -> str:
    """A JSON array of texts that need no escapes (cards, moves)."""
    return '["' + '","'.join(texts) + '"]' if texts else "[]"


@lru_cache(maxsize=65536)
def _cards_json(mask: int) -> str:
    return _strings(_cards(mask))


@lru_cache(maxsize=4096)
def _talon_json(talon: tuple[int, ...]) -> str:
    return _strings([_card(i) for i in reversed(talon)])


@cache
def _pair_json(attack: int, defence: int) -> str:
    return f'["{_card(attack)}",' + (f'"{_card(defence)}"]' if defence >= 0 else "null]")


@lru_cache(maxsize=8192)
def _move_json(seat: int, action: Action) -> str:
    return f'"{_move(seat, action)}"'


@lru_cache(maxsize=1024)
def _deal_json(
    rules: RuleSet,
    n: int,
    dealer: int,
    starter: int,
    first_game: bool,
    seed: int | None,
    order: tuple[int, ...],
) -> str:
    """The JSON object's opening up to its first field that play changes, with a comma."""
    head = {
        "schema_version": SCHEMA_VERSION,
        "rules": rules.options(),
        "seats": n,
        "dealer": dealer,
        "starter": starter,
        "first_game": first_game,
        "seed": None if seed is None else format(seed, "x"),
        "order": [_card(i) for i in order],
    }
    return json.dumps(head, separators=(",", ":"), ensure_ascii=False)[:-1] + ","
