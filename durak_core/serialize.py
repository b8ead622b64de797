"""Loading a saved state, and replay (the snapshot itself: :mod:`durak_core.snapshot`).

The JSON holds the whole state, secrets included: it is for storage and restarts, never for
players. Its action log is the truth: loading deals again from the saved seed (or card order),
dealer and series flag, replays the log, and refuses (:class:`StateFormatError`) a snapshot
that differs from that replay, naming the first log entry that fails or the first field that
differs. :func:`replay_json` gives the replay and the difference instead, for a caller that
would rather restore from the log (the bot).

Logs written before V18's show became its own action (issue #33) spell a show ``transfer
<trump>``: the first transfer with the trump of the attack's rank in a bout was always a show.
A V18 snapshot whose log does not replay to it is read again that way (:func:`legacy_move`)
and loads when that replay matches.

>>> from durak_core import RuleSet, new_game
>>> g = new_game(RuleSet(), 3, seed=5)
>>> g, _ = g.apply(g.starter, g.legal_actions(g.starter)[0])
>>> state_from_json(g.to_json()) == g
True
>>> replay(g.rules, g.n, seed=g.seed, actions=g.log) == g
True
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Final

from pydantic import ValidationError

from .actions import TRANSFER, Action, parse_action, show
from .board import set_roles, set_trump, throwers_now
from .cards import Card, parse_cards
from .errors import DurakError, ReplayError, StateFormatError
from .rules import RuleSet
from .snapshot import StateModel, state_to_json, state_to_model
from .state import GameState, apply, new_game

__all__ = [
    "StateModel",
    "legacy_move",
    "parse_move",
    "position",
    "replay",
    "replay_json",
    "state_from_json",
    "state_from_model",
    "state_to_json",
    "state_to_model",
]


def _mask(tokens: Iterable[str]) -> int:
    m = 0
    for t in tokens:
        m |= 1 << Card.parse(t).index
    return m


def parse_move(text: str) -> tuple[int, Action]:
    """``"2 defend 7H 9H"`` → (2, Defend(...))."""
    head, _, rest = text.strip().partition(" ")
    if not head.isdigit():
        raise StateFormatError(f"{text!r} is not 'SEAT ACTION'")
    return int(head), parse_action(rest)


def state_from_model(m: StateModel, *, check: bool = True) -> GameState:
    """A state from a snapshot alone, its log taken as given: for positions and the AI's
    determinizations, which no deal produced. Saved games load through
    :func:`state_from_json`, which checks the snapshot against its log."""
    rules = RuleSet.from_options(m.rules)
    n = m.seats
    rules.check_seats(n)
    s = GameState()  # no __init__: every field is set below
    s.rules = rules
    s.n = n
    s.teams = rules.teams_of(n)
    set_trump(s, Card.parse(m.trump_card))
    s.hidden_trump = -1 if m.hidden_trump is None else Card.parse(m.hidden_trump).index
    if len(m.hands) != n or len(m.known) != n or len(m.emptied) != n:
        raise StateFormatError("per-seat lists do not match the number of seats")
    s.hands = [_mask(h) for h in m.hands]
    s.known = tuple(_mask(k) for k in m.known)
    s.talon = tuple(Card.parse(c).index for c in reversed(m.talon))
    s.discard = _mask(m.discard)
    s.att = [Card.parse(a).index for a, _ in m.table]
    s.dfn = [-1 if d is None else Card.parse(d).index for _, d in m.table]
    s.table = 0
    s.ranks = 0
    for i in (*s.att, *(d for d in s.dfn if d >= 0)):
        s.table |= 1 << i
        s.ranks |= s._k.same_rank[i]  # the engine's table (within this deck)
    s.unbeaten = s.dfn.count(-1)
    s.attacker = m.attacker
    s.defender = m.defender
    s.limit = m.limit
    s.taken = m.taken
    s.passed = sum(1 << t for t in m.passed)
    s.active = sum(1 << t for t in m.active)
    s.out = tuple(m.out)
    s.emptied = tuple(m.emptied)
    s.discarded_once = m.discarded_once
    s.bout = m.bout
    s.version = m.version
    s.dealer = m.dealer
    s.starter = m.starter
    s.first_game = m.first_game
    s.seed = None if m.seed is None else int(m.seed, 16)
    s.order = tuple(Card.parse(c).index for c in m.order)
    s.log = tuple(parse_move(x) for x in m.log)
    s.finished = m.finished
    s._legal = None
    for seat in (s.attacker, s.defender, s.dealer, s.starter):
        if not 0 <= seat < n:
            raise StateFormatError(f"seat {seat} out of range")
    s.attackers = 0 if s.finished else throwers_now(s)
    problems = s.status() if check else ()
    if problems:
        raise StateFormatError("inconsistent state: " + "; ".join(problems))
    return s


#: What a replay starts from (the deal's inputs and the log itself): not compared.
_INPUTS: Final = frozenset(
    ("schema_version", "rules", "seats", "dealer", "first_game", "seed", "log")
)
#: Lists with one entry per seat: a difference names the seat.
_PER_SEAT: Final = frozenset(("hands", "known", "emptied"))
#: Fields no player may see: a difference names the field, never its cards.
_SECRET: Final = frozenset(("hands", "talon", "order", "hidden_trump"))
#: The snapshot's fields in the order they are compared: ``version`` (the log's length) first,
#: as a cut or lengthened log shows there before anywhere else.
_COMPARED: Final = (
    "version",
    *(name for name in StateModel.model_fields if name not in _INPUTS and name != "version"),
)


def _discrepancy(saved: StateModel, replayed: StateModel) -> str | None:
    """The first field where a saved snapshot differs from its log's replay, said without any
    secret card; None when they agree."""
    for name in _COMPARED:
        was = getattr(saved, name)
        now = getattr(replayed, name)
        if was == now:
            continue
        where = name
        if name in _PER_SEAT and len(was) == len(now):
            seat = next(t for t, (x, y) in enumerate(zip(was, now, strict=True)) if x != y)
            where, was, now = f"{name}[{seat}] (seat {seat})", was[seat], now[seat]
        if name in _SECRET:
            return f"{where} differs from the replay of its log of {len(saved.log)} actions"
        return f"{where} is {was!r} but its log of {len(saved.log)} actions replays to {now!r}"
    return None


def _parse(text: str | bytes) -> StateModel:
    try:
        return StateModel.model_validate_json(text)
    except ValidationError as exc:
        raise StateFormatError(f"not a valid game state: {exc}") from exc


def _replay_model(m: StateModel, legacy: bool = False) -> GameState:
    """The state the snapshot's deal and log give."""
    try:
        rules = RuleSet.from_options(m.rules)
        seed = None if m.seed is None else int(m.seed, 16)
        s = new_game(
            rules,
            m.seats,
            seed=seed,
            order=m.order if seed is None else None,
            dealer=m.dealer,
            first_game=m.first_game,
        )
    except (DurakError, TypeError) as exc:
        raise StateFormatError(f"the deal cannot be repeated: {exc}") from exc
    return _apply_log(s, m.log, legacy)


def replay_json(text: str | bytes) -> tuple[GameState, str | None]:
    """A saved state as its log makes it: (the replayed state, the first difference between
    the saved snapshot and that replay, or None). Raises :class:`StateFormatError` when the
    JSON is no state at all or its log does not replay (:class:`ReplayError` names the entry).
    A V18 log of before issue #33 is read as it was meant (module doc)."""
    m = _parse(text)
    try:
        s = _replay_model(m)
        problem = _discrepancy(m, state_to_model(s))
    except StateFormatError:
        if not _may_be_legacy(m):
            raise
        return _replay_legacy(m, None)
    if problem is None or not _may_be_legacy(m):
        return s, problem
    return _replay_legacy(m, (s, problem))


def _may_be_legacy(m: StateModel) -> bool:
    """Could the log be one of before issue #33 that spells a V18 show as a transfer?"""
    return bool(m.rules.get("transfer_by_trump")) and any(" transfer " in x for x in m.log)


def _replay_legacy(
    m: StateModel, plain: tuple[GameState, str | None] | None
) -> tuple[GameState, str | None]:
    """The legacy reading of ``m``'s log when it replays to the snapshot, else ``plain`` (the
    log read as today's, or, when that failed to replay, the legacy reading's failure)."""
    try:
        s = _replay_model(m, legacy=True)
    except StateFormatError:
        if plain is None:
            raise
        return plain
    problem = _discrepancy(m, state_to_model(s))
    if problem is None or plain is None:
        return s, problem
    return plain


def state_from_json(text: str | bytes) -> GameState:
    """Load a state, checked against its own log: any defect raises :class:`StateFormatError`
    (a ``ValueError``), naming the log entry that fails or the field that differs."""
    s, problem = replay_json(text)
    if problem is not None:
        raise StateFormatError(f"the saved state does not match its log: {problem}")
    return s


def legacy_move(s: GameState, seat: int, action: Action) -> Action:
    """``action`` as a log of before issue #33 meant it in ``s``: there, under V18, a transfer
    with the trump of the attack's rank by a player who had not shown this bout was a show (the
    same condition as today's show being legal); any other action is itself."""
    if action.kind == TRANSFER and s.rules.transfer_by_trump:
        shown = show(action.card)  # type: ignore[attr-defined]
        if s.can(seat, shown):
            return shown
    return action


def _apply_log(
    s: GameState, moves: Iterable[tuple[int, Action | str] | str], legacy: bool = False
) -> GameState:
    for index, item in enumerate(moves):
        try:
            seat, action = parse_move(item) if isinstance(item, str) else item
            if legacy and isinstance(action, Action):
                action = legacy_move(s, seat, action)
            s, _ = apply(s, seat, action)
        except DurakError as exc:
            text = item if isinstance(item, str) else f"{item[0]} {item[1]}"
            raise ReplayError(index, text, exc) from exc
    return s


def replay(
    rules: RuleSet,
    seats: int,
    *,
    actions: Iterable[tuple[int, Action | str] | str],
    seed: int | None = None,
    order: Sequence[Card | str] | None = None,
    dealer: int | None = None,
    first_game: bool = True,
) -> GameState:
    """Deal as :func:`new_game` does, then apply ``actions`` ((seat, action) pairs or
    ``"SEAT ACTION"`` strings), each checked. Reproduces the state exactly; an action that
    fails raises :class:`ReplayError`, naming its index and text."""
    s = new_game(rules, seats, seed=seed, order=order, dealer=dealer, first_game=first_game)
    return _apply_log(s, actions)


def position(
    rules: RuleSet,
    hands: Sequence[str | Sequence[Card | str]],
    *,
    trump: Card | str,
    attacker: int,
    talon: str | Sequence[Card | str] = (),
    out: Sequence[int] = (),
    discarded_once: bool = True,
) -> GameState:
    """A position at the start of a bout, for tests, puzzles and endgame study (like a FEN).

    ``hands`` per seat (a string of cards or a sequence); ``talon`` the face-down cards top
    first — the ``trump`` card goes under them unless it is in a hand or the talon is empty,
    where it counts as played; ``out`` the seats already out, in order. Every other card of the
    deck is in the discard pile. The result passes the invariant checker or raises.

    >>> from durak_core import RuleSet
    >>> g = position(RuleSet(), ["6S 7S", "8S"], trump="AH", attacker=0)
    >>> [str(a) for a in g.legal_actions(0)], g.limit
    (['attack 6S', 'attack 7S'], 1)
    """
    hand_cards = [_cards(h) for h in hands]
    talon_cards = _cards(talon)
    trump_card = trump if isinstance(trump, Card) else Card.parse(trump)
    held = {c for h in hand_cards for c in h}
    if talon_cards and trump_card not in held:
        talon_cards.append(trump_card)
    model = _bout_start(rules, hand_cards, talon_cards, trump_card, attacker, out, discarded_once)
    s = state_from_model(model, check=False)
    set_roles(s, attacker)
    problems = s.status()
    if problems:
        raise StateFormatError("impossible position: " + "; ".join(problems))
    return s


def _cards(x: str | Sequence[Card | str]) -> list[Card]:
    if isinstance(x, str):
        return parse_cards(x)
    return [c if isinstance(c, Card) else Card.parse(c) for c in x]


def _bout_start(
    rules: RuleSet,
    hand_cards: list[list[Card]],
    talon_cards: list[Card],
    trump_card: Card,
    attacker: int,
    out: Sequence[int],
    discarded_once: bool,
) -> StateModel:
    """The snapshot of :func:`position`: every card not in a hand or the talon discarded."""
    n = len(hand_cards)
    used = {c for h in hand_cards for c in h} | set(talon_cards)
    discard = [c for c in rules.deck() if c not in used]
    return StateModel(
        rules=rules.options(),
        seats=n,
        dealer=(attacker - 1) % n,
        starter=attacker,
        first_game=True,
        seed=None,
        order=[str(c) for c in rules.deck()],
        trump_card=str(trump_card),
        hands=[[str(c) for c in h] for h in hand_cards],
        known=[[] for _ in range(n)],
        talon=[str(c) for c in talon_cards],
        discard=[str(c) for c in discard],
        table=[],
        attacker=attacker,
        defender=(attacker + 1) % n,
        limit=0,
        taken=False,
        passed=[],
        active=[t for t in range(n) if t not in out],
        out=list(out),
        emptied=[-1] * n,
        discarded_once=discarded_once,
        bout=0,
        version=0,
        finished=False,
        log=[],
    )
