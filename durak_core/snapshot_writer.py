# Compiled with mypyc at install (.build/backend.py): after an edit its group runs as Python
# until the next install (durak_core/compiled_sources.py).
"""A state's snapshot as JSON text, written directly: what the bot saves after every action.

The text is :class:`~durak_core.snapshot.StateModel`'s own (``model_dump_json``; a test checks
it at every moment of many games), built without the model: building and validating it cost
most of a save. This module holds no pydantic model so that mypyc can compile it
(.build/backend.py); :mod:`durak_core.snapshot` re-exports its public names.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from functools import lru_cache
from typing import Final, TypeAlias

from .actions import Action
from .board import Board
from .cards import NUM_CARD_IDS, Card, cards_of
from .rules import RuleSet

SCHEMA_VERSION: Final = 1

# A table is saved after every action: card and move texts are built once, not per save.
_CARD_TEXTS: Final = tuple([str(Card.from_index(i)) for i in range(NUM_CARD_IDS)])

#: A game's rules, seats, dealer, starter, first-game flag, seed and deal order.
_Deal: TypeAlias = tuple[RuleSet, int, int, int, bool, int | None, tuple[int, ...]]


def card_text(index: int) -> str:
    """The notation of the card of index ``index`` (R2)."""
    return _CARD_TEXTS[index]


def card_texts(mask: int) -> list[str]:
    """The notations of the cards of ``mask``, lowest index first."""
    return [_CARD_TEXTS[c.index] for c in cards_of(mask)]


@lru_cache(maxsize=8192)
def move_text(seat: int, action: Action) -> str:
    """A log entry, ``"SEAT ACTION"``."""
    return f"{seat} {action}"


def seats_of(mask: int, n: int) -> list[int]:
    """The seats of an ``n``-seat mask, lowest first."""
    return [t for t in range(n) if mask >> t & 1]


def state_to_json(s: Board) -> str:
    """``state_to_model(s).model_dump_json()``, written directly: the bot saves a table after
    every action, and building and validating the model cost most of that. Card and move texts
    hold no character JSON escapes, so their arrays are joined as text; the deal's fields come
    from a cache. A test checks the text against the model's at every moment of many games."""
    return _state_json(s, _deal_json(*_deal(s)), _log_json(s.log))


def _deal(s: Board) -> _Deal:
    """What the snapshot's opening is written from: fixed for a game."""
    return (s.rules, s.n, s.dealer, s.starter, s.first_game, s.seed, s.order)


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
        self._deal: _Deal | None = None
        self._head = ""

    def __call__(self, s: Board) -> str:
        # The opening is the game's: written again only for another game (the rules and the
        # deal's order compare by identity first, so for the same game this costs no hash).
        deal = _deal(s)
        if deal != self._deal:
            self._deal, self._head = deal, _deal_json(*deal)
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
        return _state_json(s, self._head, self._text)


def _state_json(s: Board, head: str, log_json: str) -> str:
    return "".join(
        (
            head,
            '"trump_card":"',
            _CARD_TEXTS[s.trump_card],
            '","hidden_trump":',
            "null" if s.hidden_trump < 0 else f'"{_CARD_TEXTS[s.hidden_trump]}"',
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
            f',"taken":{_bool(s.taken)},"passed":{_ints(seats_of(s.passed, s.n))}',
            f',"active":{_ints(seats_of(s.active, s.n))},"out":{_ints(s.out)}',
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
    return _strings(card_texts(mask))


@lru_cache(maxsize=4096)
def _talon_json(talon: tuple[int, ...]) -> str:
    return _strings([_CARD_TEXTS[i] for i in reversed(talon)])


def _pair_json(attack: int, defence: int) -> str:
    a = _CARD_TEXTS[attack]
    return f'["{a}","{_CARD_TEXTS[defence]}"]' if defence >= 0 else f'["{a}",null]'


@lru_cache(maxsize=8192)
def _move_json(seat: int, action: Action) -> str:
    return f'"{move_text(seat, action)}"'


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
        "order": [_CARD_TEXTS[i] for i in order],
    }
    return json.dumps(head, separators=(",", ":"), ensure_ascii=False)[:-1] + ","
