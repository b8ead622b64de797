"""Shared helpers for engine tests: deal exact hands, play scripted moves, play a random game
to its end, reshuffle what a seat cannot see; V18's standard position."""

from __future__ import annotations

import random
from collections.abc import Sequence

from durak_core import (
    Card,
    GameState,
    RuleSet,
    Series,
    new_game,
    order_from_hands,
    parse_cards,
    position,
)
from durak_core.cards import cards_of
from durak_core.events import Event

#: V1 with V18 (no preset has V18): the defender may pass an attack on by showing the trump of
#: its rank.
SHOW_RULES = RuleSet(transfer=True, transfer_by_trump=True)


def deal_exact(
    hands: Sequence[str],
    trump: str | None,
    talon: str = "",
    *,
    rules: RuleSet | None = None,
    dealer: int | None = None,
    rest_to_talon: bool = True,
    first_game: bool = True,
) -> GameState:
    """A new game whose hands are exactly ``hands``; ``talon`` is the top of the talon, and the
    rest of the deck (in deck order) follows it unless that would leave cards unplaced."""
    rules = rules or RuleSet()
    n = len(hands)
    dealer = n - 1 if dealer is None else dealer
    hand_cards = [parse_cards(h) for h in hands]
    top = parse_cards(talon)
    trump_card = Card.parse(trump) if trump else None
    used = {c for h in hand_cards for c in h} | set(top) | ({trump_card} if trump_card else set())
    rest = [c for c in rules.deck() if c not in used] if rest_to_talon else []
    order = order_from_hands(hand_cards, trump_card, [*top, *rest], dealer)
    return new_game(rules, n, order=order, dealer=dealer, first_game=first_game)


def play(state: GameState, *moves: str) -> GameState:
    """Apply ``"SEAT ACTION"`` moves in order (each checked)."""
    for m in moves:
        seat, _, action = m.partition(" ")
        state, _ = state.apply(int(seat), action)
        assert not state.status(), state.status()
    return state


def finished_game(
    rules: RuleSet,
    seats: int,
    seed: int,
    rng: random.Random | None = None,
    series: Series | None = None,
) -> GameState:
    """The game of ``seed`` (the next one of ``series``, R22) played to its end, each move a
    random legal action of a random seat that has one (``rng``: seeded by ``seed`` if None)."""
    rng = random.Random(seed) if rng is None else rng
    s = new_game(
        rules,
        seats,
        seed=seed,
        dealer=series.next_dealer() if series else None,
        first_game=series.first_game if series else True,
    )
    while not s.finished:
        seat = rng.choice([p for p in range(seats) if s.legal_actions(p)])
        s, _ = s.apply(seat, rng.choice(s.legal_actions(seat)))
    return s


def v18_attacked() -> tuple[GameState, tuple[Event, ...]]:
    """Three seats, hearts trump: seat 0 has led 6S, and seat 1, defending, may show its 6H
    (V18) or play it (V1) to pass the attack to seat 2. The state and the lead's events."""
    g = position(SHOW_RULES, ["6S 9D", "6H KS KC", "8D 9C JH"], trump="AH", attacker=0)
    return g.apply(0, "attack 6S")


def legal(state: GameState, seat: int) -> list[str]:
    return sorted(str(a) for a in state.legal_actions(seat))


def reshuffle_hidden(s: GameState, seat: int | None, rng: random.Random) -> GameState:
    """A copy of ``s`` where every card hidden from ``seat`` (None: from everyone) is dealt
    anew among the same hidden places, keeping every hand size and every known card."""
    t = s.copy()
    slots: list[tuple[str, int]] = []
    hidden: list[int] = []
    for p in range(s.n):
        if p == seat:
            continue
        for c in cards_of(s.hands[p] & ~s.known[p]):
            slots.append(("hand", p))
            hidden.append(c.index)
    for i, index in enumerate(s.talon):
        if index != s.trump_card:  # every talon card but the face-up trump is hidden (V14 too)
            slots.append(("talon", i))
            hidden.append(index)
    rng.shuffle(hidden)
    hands = t.hands  # the copy's own list
    talon = list(s.talon)  # an immutable tuple: build a new one
    for p in range(s.n):
        if p != seat:
            hands[p] = s.known[p]
    for (where, k), index in zip(slots, hidden, strict=True):
        if where == "hand":
            hands[k] |= 1 << index
        else:
            talon[k] = index
    t.hands = hands
    t.talon = tuple(talon)
    if t.hidden_trump >= 0:  # V14: whatever now lies under the trump is the face-down card
        t.hidden_trump = t.talon[0]
    assert t.status() == ()
    return t
