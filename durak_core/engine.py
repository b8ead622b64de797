"""The rules engine: new games, legal actions, applying actions (R3–R22, V1–V10).

Legality has one source: :func:`_emit` lists the legal actions of any set of seats (as bare actions
or as (seat, action) pairs); :func:`verify` accepts exactly those and, for anything else, asks
:mod:`durak_core.explain` only for the message.

>>> from durak_core import RuleSet, new_game
>>> g = new_game(RuleSet(), 2, seed=7)
>>> g.starter  # R8: seat 1 holds 9S, the lowest trump (spades)
1
>>> [str(a) for a in g.legal_actions(1)][:3]
['attack 9S', 'attack 6C', 'attack 10C']
>>> g2, events = g.apply(1, "attack 6C")
>>> [str(a) for a in g2.legal_actions(0)]
['defend 6C JS', 'defend 6C AS', 'defend 6C 7C', 'take']
>>> g.apply(0, "take")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
durak_core.errors.IllegalActionError: R10: seat 0 may not act before the main attacker (seat 1) ...
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Any, Final, cast

from .actions import (
    ATTACK,
    ATTACKS,
    DEFEND,
    EXCHANGE,
    EXCHANGE_ACTION,
    PASS,
    PASS_ACTION,
    TAKE,
    TAKE_ACTION,
    TRANSFER,
    TRANSFERS,
    Action,
    defend_i,
    parse_action,
)
from .cards import (
    COPY_STRIDE,
    NUM_CARD_IDS,
    SAME_RANK,
    SUIT_BLOCKS,
    Card,
    Suit,
    cards_of,
)
from .deck import deal, dealer_from_seed, shuffled_indices
from .errors import GameOverError, IllegalActionError, RulesError
from .events import (
    ActionTaken,
    BoutEnded,
    BoutStarted,
    CardsDrawn,
    CardsReceived,
    Event,
    GameOver,
    PlayerOut,
    TrumpExchanged,
    TrumpRevealed,
)
from .rules import RuleSet, lowest_trumps
from .state import GameState, Move, with_item

# --- starting a game ----------------------------------------------------------------------------


def new_game(
    rules: RuleSet,
    seats: int,
    *,
    seed: int | None = None,
    order: Sequence[Card | str] | None = None,
    dealer: int | None = None,
    first_game: bool = True,
) -> GameState:
    """Deal a new game.

    Give exactly one of ``seed`` (an int in 0..2**256-1; the deck is :func:`shuffled_deck`) or
    ``order`` (every card of the deck once, top first; see :mod:`durak_core.deck` for the dealing
    convention). ``dealer`` defaults to a seat drawn from the seed, or to the last seat with an
    explicit order (so seat 0 receives the first card). ``first_game=False`` marks a later game
    of a series, where V10 decides the starter instead of R8.
    """
    if not isinstance(rules, RuleSet):
        raise RulesError(f"rules must be a RuleSet, not {type(rules).__name__}")
    rules.check_seats(seats)
    if (seed is None) == (order is None):
        raise RulesError("R4: give exactly one of seed or order")
    if seed is not None:
        deck = shuffled_indices(rules, seed)
        default_dealer = dealer_from_seed(seed, seats)
    else:
        assert order is not None
        deck = [c.index for c in _check_order(rules, order)]
        default_dealer = seats - 1
    if dealer is None:
        dealer = default_dealer
    elif not isinstance(dealer, int) or not 0 <= dealer < seats:
        raise RulesError(f"R3: the dealer must be a seat 0..{seats - 1}, not {dealer!r}")

    hands, trump, talon = deal(rules, seats, dealer, deck)
    s = GameState()  # no __init__: new_game sets every field
    s.rules = rules
    s.n = seats
    s.teams = rules.teams_of(seats)
    _set_trump(s, Card.from_index(trump))
    s.hidden_trump = talon[-1] if rules.changing_trump else -1
    masks = []
    for h in hands:
        m = 0
        for c in h:
            m |= 1 << c
        masks.append(m)
    s.hands = masks
    s.known = (0,) * seats
    talon.reverse()
    s.talon = tuple(talon)
    s.discard = 0
    _clear_table(s)
    s.active = (1 << seats) - 1
    s.out = ()
    s.emptied = (-1,) * seats
    s.discarded_once = False
    s.bout = 0
    s.version = 0
    s.dealer = dealer
    s.first_game = first_game
    s.seed = seed
    s.order = tuple(deck)
    s.log = ()
    s.finished = False
    s._legal = None
    if not talon:  # R6: everyone knows who holds the last dealt card
        s.known = with_item(s.known, dealer, 1 << trump)

    holder = None
    if first_game or not rules.under_the_fool:  # V10 skips R8 in later games
        holder = _lowest_trump_holder(s)  # R8
    s.starter = (dealer + 1) % seats if holder is None else holder
    starter = s.starter
    _set_roles(s, starter)
    return s


def _check_order(rules: RuleSet, order: Sequence[Card | str]) -> list[Card]:
    cards = [c if isinstance(c, Card) else Card.parse(c) for c in order]
    deck = set(rules.deck())
    seen: set[Card] = set()
    for c in cards:
        if c not in deck:
            raise RulesError(f"R1/V2: {c} is not in the {rules.deck_size}-card deck")
        if c in seen:
            raise RulesError(f"R1: {c} appears twice in the card order")
        seen.add(c)
    if len(cards) != len(deck):
        missing = ", ".join(str(c) for c in sorted(deck - seen))
        raise RulesError(f"R1: the card order lacks {missing}")
    return cards


def _lowest_trump_holder(s: GameState) -> int | None:
    """R8: the seat holding the lowest trump (the face-up trump under the talon is not held);
    that card becomes public knowledge. Under V16 two players may hold that rank: the one first
    in the deal (clockwise from the dealer's left) starts."""
    if s.trump_suit < 0:
        return None
    block = SUIT_BLOCKS[s.trump_suit]  # the trump suit's first copies, in rank order
    held = 0
    for h in s.hands:
        held |= (h | h >> COPY_STRIDE) & block  # V16: a second copy counts as its rank
    if not held:
        return None
    low = held & -held  # the lowest trump rank anyone holds
    b = low | low << COPY_STRIDE
    for seat in _CLOCKWISE[s.n][(s.dealer + 1) % s.n]:
        mine = s.hands[seat] & b
        if mine:
            s.known = with_item(s.known, seat, s.known[seat] | mine & -mine)
            return seat
    raise AssertionError("unreachable: someone holds that trump")


def _set_trump(s: GameState, card: Card) -> None:
    """Make ``card`` the face-up trump card (R5; V14 on reveal). Also attaches the rule set's
    precomputed tables (:class:`_Kernel`) to the state."""
    suit = s.rules.trump_for(card)
    k = s._k = _kernel(s.rules, s.n)
    s.trump_card = card.index
    t = s.trump_suit = -1 if suit is None else int(suit)
    beat = k.beat[t]
    if beat is None:
        beat = k.beat[t] = _beat_table(s.rules, t)
    s.beat = beat


@lru_cache(maxsize=256)
def _beat_table(rules: RuleSet, trump: int) -> tuple[int, ...]:
    """For each card index, the mask of deck cards that beat it (R7, via ``rules.beats``);
    ``trump`` is a suit number or -1 for none."""
    deck = rules.deck()
    suit = None if trump < 0 else Suit(trump)
    table = [0] * (max(c.index for c in deck) + 1)
    for a in deck:
        table[a.index] = sum(1 << d.index for d in deck if rules.beats(a, d, suit))
    return tuple(table)


# --- roles ----------------------------------------------------------------------------------------

#: _CLOCKWISE[n][seat]: the seats of an n-seat table clockwise, starting with ``seat``.
_CLOCKWISE: Final = tuple(
    tuple(tuple((seat + k) % n for k in range(n)) for seat in range(n)) for n in range(7)
)


def _next_active(s: GameState, seat: int) -> int:
    """The next active seat clockwise after ``seat`` (``seat`` itself if it is the only one)."""
    return _next_active_of(s.n, s.active, seat)


def _next_active_of(n: int, active: int, seat: int) -> int:
    for t in _CLOCKWISE[n][seat][1:]:
        if active >> t & 1:
            return t
    return seat


def _next_opponent_of(n: int, teams: tuple[int, ...], active: int, seat: int) -> int:
    """R9/V7: the next active player clockwise who is not ``seat``'s teammate, or -1."""
    team = teams[seat]
    for t in _CLOCKWISE[n][seat][1:]:
        if active >> t & 1 and teams[t] != team:
            return t
    return -1


def _next_opponent(s: GameState, seat: int) -> int:
    """R9/V7: the next active player clockwise who is not ``seat``'s teammate."""
    t = s._k.opp[seat << 6 | s.active]
    if t < 0:
        raise AssertionError("no opponent left; the game should have ended")
    return t


def _attackers_mask(s: GameState) -> int:
    """R9: who may throw in this bout; V5 keeps the defender's neighbours, V7 drops teammates."""
    return _attackers_of(s.rules, s.n, s.teams, s.active, s.attacker, s.defender)


def _attackers_of(
    rules: RuleSet, n: int, teams: tuple[int, ...], active: int, attacker: int, d: int
) -> int:
    if rules.team_size:
        team = teams[d]
        mask = 0
        for t in range(n):
            if active >> t & 1 and teams[t] != team:
                mask |= 1 << t
    else:
        mask = active & ~(1 << d)
    if rules.neighbours_only:
        left = _next_active_of(n, active, d)
        right = d
        for t in reversed(_CLOCKWISE[n][d][1:]):
            if active >> t & 1:
                right = t
                break
        mask &= (1 << left) | (1 << right) | (1 << attacker)
    return mask


_NO_CAP: Final = 1 << 30  # a bout cap no hand reaches (V9)


class _Kernel:
    """What the engine precomputes once per (rule set, seat count), from the definitions above
    and the rule set's own methods, so that the step looks things up instead of recomputing:

    - ``opp[seat << 6 | active]``: the next opponent (R9/V7), or -1;
    - ``nxt[seat << 6 | active]``: the next active seat (R19);
    - ``throwers[(attacker << 3 | defender) << 6 | active]``: who may throw in (R9, V5, V7);
    - ``caps[discarded_once]``: ``rules.bout_cap`` (R12, V4, V9; no cap: a huge number);
    - ``beat[trump]``: the beat table per trump suit (-1: none), filled on first use;
    - ``same_rank[card]``: ``SAME_RANK`` within this deck (R11; without the second copies of
      V16 every mask fits a machine word, which the compiled engine handles natively);
    - the rule set's switches the step reads (V1, V6, V7, V8), as plain attributes.
    """

    __slots__ = (
        "beat",
        "caps",
        "clockwise",
        "hand_size",
        "nxt",
        "opp",
        "same_rank",
        "team_size",
        "throw_in_after_take",
        "throwers",
        "transfer",
        "trump_exchange",
    )

    def __init__(self, rules: RuleSet, n: int) -> None:
        teams = rules.teams_of(n)
        actives = range(64)
        self.opp = tuple(_next_opponent_of(n, teams, a, t) for t in range(n) for a in actives)
        self.nxt = tuple(_next_active_of(n, a, t) for t in range(n) for a in actives)
        throwers = [0] * (n << 9)
        for att in range(n):
            for d in range(n):
                for a in actives:
                    throwers[(att << 3 | d) << 6 | a] = _attackers_of(rules, n, teams, a, att, d)
        self.throwers = tuple(throwers)
        caps = (rules.bout_cap(False), rules.bout_cap(True))
        self.caps = tuple(_NO_CAP if c is None else c for c in caps)
        self.hand_size = rules.hand_size
        self.clockwise = _CLOCKWISE[n]
        self.beat: list[tuple[int, ...] | None] = [None] * 5  # index -1 is the last
        deck = 0
        for c in rules.deck():
            deck |= 1 << c.index
        self.same_rank = tuple(m & deck for m in SAME_RANK)
        self.transfer = rules.transfer
        self.throw_in_after_take = rules.throw_in_after_take
        self.team_size = rules.team_size
        self.trump_exchange = rules.trump_exchange


_KERNELS: Final[dict[tuple[RuleSet, int], _Kernel]] = {}


def _kernel(rules: RuleSet, n: int) -> _Kernel:
    key = (rules, n)
    k = _KERNELS.get(key)
    if k is None:
        k = _KERNELS[key] = _Kernel(rules, n)
    return k


def _set_roles(s: GameState, attacker: int) -> None:
    """R9/R12: ``attacker`` leads against the next opponent; the bout's limit is fixed from that
    defender's hand now (at the bout's start, or at a V1 transfer)."""
    k = s._k
    active = s.active
    s.attacker = attacker
    d = s.defender = k.opp[attacker << 6 | active]
    if d < 0:
        raise AssertionError("no opponent left; the game should have ended")
    cap = k.caps[s.discarded_once]
    held = s.hands[d].bit_count()
    s.limit = held if held < cap else cap  # R12, fixed for the bout
    s.attackers = k.throwers[(attacker << 3 | d) << 6 | active]


# --- legal actions --------------------------------------------------------------------------------


def _exchange_card(s: GameState, seat: int) -> int:
    """V8: the lowest trump ``seat`` could swap for the face-up trump now, or -1."""
    if not s.rules.trump_exchange or len(s.talon) < 2 or s.trump_suit < 0:
        return -1
    held = s.hands[seat] & lowest_trumps(s.rules, Suit(s.trump_suit)) & ~(1 << s.trump_card)
    return (held & -held).bit_length() - 1 if held else -1


def _transfer_target(s: GameState) -> int | None:
    """V1: who would defend after a transfer now, if a transfer is possible at all."""
    if s.taken or s.unbeaten != len(s.att) or not s.att:
        return None
    new_defender = _next_opponent(s, s.defender)
    count = len(s.att) + 1
    cap = s.rules.bout_cap(s.discarded_once)
    if cap is not None and count > cap:
        return None
    if s.hands[new_defender].bit_count() < count:
        return None
    return new_defender


def _defences(out: list[Any], row: list[object], seat: int, a: int, m: int) -> None:
    """Append the defences of attack card ``a`` with each card of ``m``, spelled for ``seat``
    (see :class:`_Spelling`); ``row`` is that spelling's row for ``a``, filled on first use."""
    while m:
        b = m & -m
        d = b.bit_length() - 1
        x = row[d]
        if x is None:
            action = defend_i(a, d)
            x = row[d] = action if seat < 0 else (seat, action)
        out.append(x)
        m ^= b


class _Spelling:
    """How the generator writes one seat's actions: the interned actions themselves (for
    ``legal_actions``), or that seat's interned (seat, action) pairs (for ``legal_moves``), so
    that neither listing allocates anything per action."""

    __slots__ = (
        "attacks",
        "defends",
        "exchange",
        "pass_",
        "seat",
        "take",
        "transfers",
    )

    def __init__(self, seat: int) -> None:
        self.seat = seat  # -1: bare actions

        def spell(a: Action) -> object:
            return a if seat < 0 else (seat, a)

        self.attacks = tuple(spell(a) for a in ATTACKS)
        self.transfers = tuple(spell(a) for a in TRANSFERS)
        # defends[a][d]: the defence of attack card a with d, filled in on first use
        self.defends: tuple[list[object], ...] = tuple(
            [None] * NUM_CARD_IDS for _ in range(NUM_CARD_IDS)
        )
        self.take = spell(TAKE_ACTION)
        self.pass_ = spell(PASS_ACTION)
        self.exchange = spell(EXCHANGE_ACTION)


# (Final: compiled, module constants are C statics instead of dictionary look-ups.)
_MAX_SEATS: Final = 6
_ACTIONS: Final = (_Spelling(-1),) * _MAX_SEATS  # every seat spelled as bare actions
_MOVES: Final = tuple(_Spelling(seat) for seat in range(_MAX_SEATS))  # as (seat, action) pairs
_ALL_SEATS: Final = (1 << _MAX_SEATS) - 1


def _emit(
    s: GameState,
    seats: int = _ALL_SEATS,
    spell: tuple[_Spelling, ...] = _MOVES,
    out: list[Any] | None = None,
    v8: bool = True,
) -> list[Any]:
    """Append to ``out`` (by default a new list) every legal action of the seats in the mask
    ``seats``, seat by seat in seat order, each written as ``spell[seat]`` writes it, and return
    ``out`` — **the single source of legality**: ``legal_actions``, ``legal_moves``, ``verify``,
    the views, the AI and the fast path all list actions through here. With the defaults it lists
    every (seat, action) pair (``fast.legal_moves``). (``v8=False``: leave out the trump
    exchange, already listed.)"""
    if out is None:
        out = []
    if s.finished:
        return out
    seats &= s.active
    if v8 and s._k.trump_exchange:  # V8: any seat may exchange at any time, first
        while seats:
            low = seats & -seats
            seat = low.bit_length() - 1
            if _exchange_card(s, seat) >= 0:
                out.append(spell[seat].exchange)
            _emit(s, low, spell, out, False)
            seats ^= low
        return out
    att = s.att
    hands = s.hands
    if not att:  # R10: only the main attacker, with any card
        a = s.attacker
        if seats >> a & 1:
            m = hands[a]
            attacks = spell[a].attacks
            while m:
                low = m & -m
                out.append(attacks[low.bit_length() - 1])
                m ^= low
        return out
    d = s.defender
    # R9/R11/R12/R15: who may throw in; the defender answers while a card is unbeaten (R13)
    todo = seats & s.attackers & ~s.passed if len(att) < s.limit else 0
    unbeaten = s.unbeaten
    taken = s.taken
    if unbeaten and not taken and seats >> d & 1:
        todo |= 1 << d
    while todo:
        low = todo & -todo
        todo ^= low
        seat = low.bit_length() - 1
        sp = spell[seat]
        if seat == d:
            hand = hands[d]
            beat = s.beat
            rows = sp.defends
            if unbeaten == 1:  # the usual case: one card to beat, usually the last one
                dfn = s.dfn
                a = att[-1] if dfn[-1] < 0 else att[dfn.index(-1)]
                m = hand & beat[a]
                if m:
                    _defences(out, rows[a], sp.seat, a, m)
            else:
                for a, x in zip(att, s.dfn):  # noqa: B905 - same length
                    if x < 0:
                        _defences(out, rows[a], sp.seat, a, hand & beat[a])
            if s._k.transfer and _transfer_target(s) is not None:  # V1
                transfers = sp.transfers
                m = hand & s._k.same_rank[att[0]]
                while m:
                    b = m & -m
                    out.append(transfers[b.bit_length() - 1])
                    m ^= b
            out.append(sp.take)
        else:
            m = hands[seat] & s.ranks
            if m:  # R15: an attacker with nothing to throw in is treated as passed
                attacks = sp.attacks
                while m:
                    b = m & -m
                    out.append(attacks[b.bit_length() - 1])
                    m ^= b
                if taken or not unbeaten:
                    out.append(sp.pass_)
    return out


def _generate(s: GameState, seat: int) -> list[Action]:
    """Every legal action of ``seat``, as a fresh list (see :func:`_emit`)."""
    return _emit(s, 1 << seat, _ACTIONS)


def _legal(s: GameState, seat: int) -> list[Action]:
    """The seat's legal actions, cached on the state (states are immutable in the public API;
    the fast path clears the cache whenever it mutates). The cache holds one list per seat and,
    last, the tuple of every (seat, action) pair."""
    cache = s._legal
    if cache is None:
        cache = s._legal = [None] * (s.n + 1)
    else:
        cached: list[Action] | None = cache[seat]
        if cached is not None:
            return cached
    out = cache[seat] = _emit(s, 1 << seat, _ACTIONS)
    return out


# The public entry points below take ``object`` for the seat and the action: they check them at run
# time and answer bad input with a typed error (compiled, an ``int`` parameter would raise a bare
# TypeError before the check, and would turn ``True`` into seat 1).


def legal_actions(s: GameState, seat: object) -> tuple[Action, ...]:
    """The legal actions of ``seat`` now (empty when it has none, or the game is over)."""
    if type(seat) is not int or not 0 <= seat < s.n:
        return ()
    return tuple(_legal(s, seat))


def legal_moves(s: GameState) -> tuple[Move, ...]:
    """Every legal (seat, action) pair now, seats in order (cached on the state)."""
    cache = s._legal
    if cache is None:
        cache = s._legal = [None] * (s.n + 1)
    else:
        cached: tuple[Move, ...] | None = cache[-1]
        if cached is not None:
            return cached
    moves = cache[-1] = tuple(_emit(s))
    return moves


def can(s: GameState, seat: object, action: object) -> bool:
    return type(seat) is int and 0 <= seat < s.n and action in _legal(s, seat)


def verify(s: GameState, seat: object, action: object) -> None:
    """Raise :class:`IllegalActionError` (naming the rule) unless ``action`` is legal for
    ``seat``."""
    if type(seat) is not int or not 0 <= seat < s.n:
        raise IllegalActionError("R3", f"there is no seat {seat!r} at this {s.n}-seat table")
    if not isinstance(action, Action):
        raise IllegalActionError("R2", f"{action!r} is not an action")
    if s.finished:
        raise GameOverError("R20", f"the game is over; no more actions (got {action})")
    cache = s._legal
    moves = None if cache is None else cache[-1]
    if moves is not None:  # the pairs are listed already: look there
        if (seat, action) in moves:
            return
    elif action in _legal(s, seat):
        return
    from .explain import why_illegal

    rule, message = why_illegal(s, seat, action)
    raise IllegalActionError(rule, message)


# --- applying actions -----------------------------------------------------------------------------


def apply(s: GameState, seat: object, action: object) -> tuple[GameState, tuple[Event, ...]]:
    """Apply a legal action: the new state and the events it produced; ``s`` is unchanged.

    An illegal action raises :class:`IllegalActionError` (its ``rule`` names the rule).
    """
    cache = s._legal
    if (
        cache is None
        or cache[-1] is None
        or type(seat) is not int
        or not isinstance(action, Action)
        or (seat, action) not in cache[-1]
    ):  # not one of the listed pairs (or not listed yet): the full check
        if isinstance(action, str):
            action = parse_action(action)
        verify(s, seat, action)
    t = cast(int, seat)  # listed or verified: a seat number and an action
    a = cast(Action, action)
    new = s.copy()
    events: list[Event] = [_TAKEN[a.code << 3 | t]]
    _do(new, t, a, events)
    new._log_tail = (s._log_tail, (t, a))
    return new, tuple(events)


class _ActionsTaken(dict[int, ActionTaken]):
    """Interned ``ActionTaken`` events keyed ``code << 3 | seat`` (events are values)."""

    def __missing__(self, key: int) -> ActionTaken:
        event = self[key] = ActionTaken(key & 7, Action.from_code(key >> 3))
        return event


_TAKEN: Final = _ActionsTaken()


class _BoutsStarted(dict[int, BoutStarted]):
    """Interned ``BoutStarted`` events keyed ``limit << 6 | attacker << 3 | defender``."""

    def __missing__(self, key: int) -> BoutStarted:
        event = self[key] = BoutStarted(key >> 3 & 7, key & 7, key >> 6)
        return event


class _CardsDrawn(dict[int, CardsDrawn]):
    """Interned ``CardsDrawn`` events without the face-up trump, keyed ``number << 3 | seat``."""

    def __missing__(self, key: int) -> CardsDrawn:
        event = self[key] = CardsDrawn(key & 7, key >> 3, None)
        return event


_STARTED: Final = _BoutsStarted()
_DRAWN: Final = _CardsDrawn()


step = apply


#: Builds an event (a NamedTuple) from its fields without the Python-level ``__new__``.
_event: Final[Any] = tuple.__new__

_PLAYS_CARD: Final = tuple(k in (ATTACK, DEFEND, TRANSFER) for k in range(6))  # by action kind


def _do(s: GameState, seat: int, action: Action, ev: list[Event] | None = None) -> None:
    """Apply a legal action in place; append events to ``ev`` unless it is None (fast path)."""
    kind = action.kind
    v = s.version
    s.version = v + 1
    s._legal = None
    if _PLAYS_CARD[kind]:
        # the card leaves the hand for the table; any card played clears every pass (R15)
        c = action.c
        b = 1 << c
        hands = s.hands
        hand = hands[seat] ^ b
        hands[seat] = hand
        known = s.known
        if known[seat] & b:
            s.known = with_item(known, seat, known[seat] ^ b)
        if not hand:
            s.emptied = with_item(s.emptied, seat, v)
        s.table |= b
        s.ranks |= s._k.same_rank[c]
        s.passed = 0
        if kind == DEFEND:
            s.dfn[s.att.index(action.a)] = c
            u = s.unbeaten = s.unbeaten - 1
            if u:
                return
        else:
            s.att.append(c)
            s.dfn.append(-1)
            s.unbeaten += 1
            if kind == TRANSFER:  # V1: the transferrer leads; the next opponent defends
                _set_roles(s, seat)
                return
            if not s.taken:
                return
    elif kind == PASS:
        s.passed |= 1 << seat
    elif kind == TAKE:
        s.taken = True
        if not s._k.throw_in_after_take:  # V6
            _end_bout(s, ev)
            return
    elif kind == EXCHANGE:
        low = _exchange_card(s, seat)
        up = s.trump_card
        s.hands[seat] ^= (1 << low) | (1 << up)
        s.known = with_item(s.known, seat, (s.known[seat] & ~(1 << low)) | (1 << up))
        s.talon = (low, *s.talon[1:])
        s.trump_card = low
        if ev is not None:
            ev.append(TrumpExchanged(seat, Card.from_index(low), Card.from_index(up)))
        if not s.att:  # otherwise the swapped-out card may have been a last possible throw-in
            return
    else:  # pragma: no cover - Action has exactly these kinds
        raise AssertionError(action)
    # R16: the bout ends once every attacker has passed, explicitly or by having nothing to
    # throw in (R15), and every card is beaten or taken.
    if s.unbeaten and not s.taken:
        return
    if len(s.att) < s.limit:
        r = s.ranks
        hands = s.hands
        m = s.attackers & ~s.passed
        while m:
            low = m & -m
            if hands[low.bit_length() - 1] & r:
                return
            m ^= low
    _end_bout(s, ev)


def _end_bout(s: GameState, ev: list[Event] | None) -> None:
    defended = not s.taken
    d = s.defender
    table = s.table
    hands = s.hands
    if ev is not None:
        ev.append(_event(BoutEnded, (defended, d, cards_of(table))))
    if defended:  # R16a
        s.discard |= table
        s.discarded_once = True
    else:  # R16b: the taken cards are public knowledge in the defender's hand (R23)
        hands[d] |= table
        s.known = with_item(s.known, d, s.known[d] | table)
        if s.emptied[d] >= 0:
            s.emptied = with_item(s.emptied, d, -1)
    s.att.clear()  # this state's own lists (copy copies them)
    s.dfn.clear()
    s.table = s.ranks = s.unbeaten = s.passed = 0
    s.taken = False

    k = s._k
    active = s.active
    if s.talon:  # R17: main attacker, the others clockwise, the defender last
        size = k.hand_size
        for t in k.clockwise[s.attacker]:
            if t != d and active >> t & 1:
                need = size - hands[t].bit_count()
                if need > 0:
                    _draw(s, t, need, ev)
                    if not s.talon:
                        break
        if s.talon:
            need = size - hands[d].bit_count()
            if need > 0:
                _draw(s, d, need, ev)
    talon = s.talon

    # R18: out after the draw, in the order their hands emptied. (Seats out hold no cards, so
    # an active seat has an empty hand exactly when more hands are empty than seats inactive.)
    n = s.n
    if not talon and hands.count(0) > n - active.bit_count():
        gone = [t for t in range(n) if active >> t & 1 and not hands[t]]
        gone.sort(key=s.emptied.__getitem__)
        out = s.out
        for t in gone:
            active &= ~(1 << t)
            out = (*out, t)
            if ev is not None:
                ev.append(PlayerOut(t, len(out)))
        s.out = out
        s.active = active
        if _game_over(s):
            s.finished = True
            s.attackers = 0
            if ev is not None:
                remaining = [t for t in range(n) if active >> t & 1]
                ev.append(GameOver(tuple(s.out), remaining[0] if len(remaining) == 1 else None))
            return

    s.bout += 1
    # R19: defended -> the defender leads; taken -> the next player to the defender's left.
    _set_roles(s, d if defended and active >> d & 1 else k.nxt[d << 6 | active])
    if ev is not None:
        ev.append(_STARTED[s.limit << 6 | s.attacker << 3 | s.defender])


def _clear_table(s: GameState) -> None:
    s.att = []
    s.dfn = []
    s.table = 0
    s.ranks = 0
    s.unbeaten = 0
    s.taken = False
    s.passed = 0


def _draw(s: GameState, seat: int, need: int, ev: list[Event] | None) -> None:
    """``seat`` draws up to ``need`` cards from a non-empty talon (R17)."""
    talon = s.talon  # top last
    got = 0
    trump = None
    if len(talon) > need + 1:  # the face-up trump (and V14's card under it) stays put
        rest = len(talon) - need
        for c in talon[rest:]:
            got |= 1 << c
        s.talon = talon[:rest]
    else:
        while need and talon:
            c = talon[-1]
            talon = s.talon = talon[:-1]
            got |= 1 << c
            need -= 1
            if c == s.trump_card:  # everyone sees who takes the face-up trump
                s.known = with_item(s.known, seat, s.known[seat] | 1 << c)
                trump = Card.from_index(c)
                if s.hidden_trump >= 0 and talon:  # V14: the card beneath is the trump now
                    _set_trump(s, Card.from_index(s.hidden_trump))
                    s.hidden_trump = -1
                    if ev is not None:
                        ev.append(TrumpRevealed(Card.from_index(s.trump_card)))
    s.hands[seat] |= got
    if s.emptied[seat] >= 0:
        s.emptied = with_item(s.emptied, seat, -1)
    if ev is not None:
        drawn = cards_of(got)
        if trump is None:
            ev.append(_DRAWN[len(drawn) << 3 | seat])
        else:
            ev.append(_event(CardsDrawn, (seat, len(drawn), trump)))
        ev.append(_event(CardsReceived, (seat, drawn)))


def _game_over(s: GameState) -> bool:
    """R20/V7: at most one player holds cards, or only one team does."""
    if not s.rules.team_size:
        return s.active.bit_count() <= 1
    teams = {s.teams[t] for t in range(s.n) if s.active >> t & 1}
    return len(teams) <= 1
