"""Shared helpers for engine tests: deal exact hands, play scripted moves."""

from __future__ import annotations

from collections.abc import Sequence

from durak_core import Card, GameState, RuleSet, new_game, order_from_hands, parse_cards


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


def legal(state: GameState, seat: int) -> list[str]:
    return sorted(str(a) for a in state.legal_actions(seat))
