"""Fair-shuffle verification of a finished game, from what was recorded about it (R4).

Given the revealed seed, the published commitment, the recorded card order, the action log and
the recorded result, :func:`verify_game` checks, in this order, and stops at the first failure:

1. ``commitment``: SHA-256 of the seed is the commitment shown when the game started;
2. ``deck``: the seed's shuffle (:func:`~durak_core.deck.shuffled_deck`) is the recorded order;
3. ``illegal`` / ``unfinished``: the log replays move by move with the engine, each move legal,
   and finishes the game;
4. ``order`` / ``durak``: the replay's finishing order and Durak (or draw) are the recorded ones.

The dealer of a later game in a series depends on the earlier games (R22: the previous Durak
deals), so those are replayed first (``earlier``); the first game's dealer comes from the seed.
Pure: no I/O, no clock, no randomness.

>>> from durak_core import RuleSet, new_game
>>> s = new_game(RuleSet(), 2, seed=7)
>>> while not s.finished:
...     seat = next(p for p in range(2) if s.legal_actions(p))
...     s, _ = s.apply(seat, s.legal_actions(seat)[0])
>>> log = GameLog.of(s, seed=7)
>>> verify_game(log).ok
True
>>> verify_game(log.replace(seed=format(8, "064x"))).reason
'commitment'
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .deck import seed_commitment, shuffled_deck
from .errors import DurakError
from .result import GameResult
from .rules import RuleSet
from .serialize import legacy_move, parse_move
from .series import Series
from .state import GameState, new_game

#: Why a verification failed (the bot words each one in every language).
REASONS = ("bad_record", "commitment", "deck", "earlier", "illegal", "unfinished", "order", "durak")


@dataclass(frozen=True, slots=True)
class GameLog:
    """What is recorded about one finished game (as ``bot.storage.GameRecord`` holds it)."""

    rules: Mapping[str, Any]
    seats: int
    seed: str  # hex
    commitment: str  # hex SHA-256
    card_order: Sequence[str]
    actions: Sequence[str]  # "SEAT ACTION"
    finishing_order: Sequence[int]
    losers: Sequence[int]  # the Durak, or under V7 the losing team; empty for a draw
    durak: int | None = None

    def replace(self, **changes: Any) -> GameLog:
        return dataclasses.replace(self, **changes)

    @classmethod
    def of(cls, state: GameState, *, seed: int) -> GameLog:
        """The log of a finished ``state`` dealt from ``seed`` (tests, and the bot's records)."""
        result = state.result
        assert result is not None
        return cls(
            rules=state.rules.options(),
            seats=state.n,
            seed=format(seed, "064x"),
            commitment=seed_commitment(seed),
            card_order=[str(c) for c in state.order_cards()],
            actions=[f"{seat} {action}" for seat, action in state.log],
            finishing_order=list(result.finishing_order),
            losers=list(result.losers),
            durak=result.durak,
        )


@dataclass(frozen=True, slots=True)
class Verdict:
    ok: bool
    #: One of :data:`REASONS` when not ok.
    reason: str | None = None
    #: Details for the message: ``n`` (move number, 1-based, or the earlier game's number),
    #: ``move``.
    detail: dict[str, object] = field(default_factory=dict)
    moves: int = 0


def _fail(reason: str, **detail: object) -> Verdict:
    return Verdict(False, reason, dict(detail))


def _replay(
    log: GameLog, rules: RuleSet, seed: int, series: Series, legacy: bool = False
) -> tuple[GameState | None, Verdict | None]:
    """Deal from the seed with the series' dealer and apply the log; a failure verdict or the
    final state. ``legacy``: read V18 shows as logs of before issue #33 spell them
    (:func:`~durak_core.serialize.legacy_move`)."""
    try:
        state = new_game(
            rules,
            log.seats,
            seed=seed,
            dealer=series.next_dealer(),
            first_game=series.first_game,
        )
    except DurakError:
        return None, _fail("bad_record")
    for i, text in enumerate(log.actions, start=1):
        try:
            seat, action = parse_move(text)
            if legacy and 0 <= seat < log.seats:
                action = legacy_move(state, seat, action)
            if not 0 <= seat < log.seats or not state.can(seat, action):
                return None, _fail("illegal", n=i, move=text)
            state, _ = state.apply(seat, action)
        except (DurakError, ValueError, IndexError):
            return None, _fail("illegal", n=i, move=text)
    if not state.finished:
        return None, _fail("unfinished")
    return state, None


def _check_log(log: GameLog, rules: RuleSet) -> tuple[int | None, Verdict | None]:
    try:
        seed = int(log.seed, 16)
        commitment = seed_commitment(seed)
    except (ValueError, DurakError):
        return None, _fail("bad_record")
    if commitment != log.commitment.lower():
        return None, _fail("commitment")
    if [str(c) for c in shuffled_deck(rules, seed)] != list(log.card_order):
        return None, _fail("deck")
    return seed, None


def verify_game(log: GameLog, earlier: Sequence[GameLog] = ()) -> Verdict:
    """Verify ``log``; ``earlier``: the series' games before it, in order (R22 dealers). A V18
    series recorded before issue #33, whose logs spell a show as a transfer, verifies when read
    that way."""
    verdict = _verify(log, earlier, legacy=False)
    if verdict.ok or not _v18(log):
        return verdict
    older = _verify(log, earlier, legacy=True)
    return older if older.ok else verdict


def _v18(log: GameLog) -> bool:
    return isinstance(log.rules, Mapping) and bool(log.rules.get("transfer_by_trump"))


def reads_legacy_shows(log: GameLog, earlier: Sequence[GameLog] = ()) -> bool:
    """Whether the series verifies only with its V18 shows read as logs of before issue #33
    spell them (``transfer <trump>``; :func:`~durak_core.serialize.legacy_move`)."""
    return _v18(log) and not _verify(log, earlier, False).ok and _verify(log, earlier, True).ok


def _verify(log: GameLog, earlier: Sequence[GameLog], legacy: bool) -> Verdict:
    try:
        rules = RuleSet.from_options(log.rules)
        series = Series(rules, log.seats)
    except (DurakError, TypeError, ValueError):
        return _fail("bad_record")
    for number, past in enumerate(earlier, start=1):
        seed, failed = _check_log(past, rules)
        state = None
        if seed is not None:
            state, failed = _replay(past, rules, seed, series, legacy)
        if failed is not None or state is None or state.result is None:
            return _fail("earlier", n=number)
        series.record(state.result, state.dealer)
    seed, failed = _check_log(log, rules)
    if failed is not None or seed is None:
        return failed or _fail("bad_record")
    state, failed = _replay(log, rules, seed, series, legacy)
    if failed is not None or state is None:
        return failed or _fail("unfinished")
    result: GameResult | None = state.result
    assert result is not None
    if list(result.finishing_order) != list(log.finishing_order):
        return _fail("order")
    if list(result.losers) != list(log.losers) or (
        log.durak is not None and log.durak not in result.losers
    ):
        return _fail("durak")
    return Verdict(True, moves=len(log.actions))


__all__ = ["REASONS", "GameLog", "Verdict", "reads_legacy_shows", "verify_game"]
