"""V11–V16: variants that change the deck or what beats what."""

from __future__ import annotations

import pytest

from durak_core import Card, RulesError, RuleSet, Suit, new_game, parse_cards, position
from durak_core.events import TrumpRevealed

from .helpers import deal_exact, legal, play

C = Card.parse


def beats(rules: RuleSet, attack: str, defence: str, trump: Suit | None) -> bool:
    return rules.beats(C(attack), C(defence), trump)


def test_v11_no_trump() -> None:
    rules = RuleSet(no_trump=True)
    assert not beats(rules, "AS", "6H", Suit.HEARTS)  # R7(b) off
    assert beats(rules, "6S", "7S", Suit.HEARTS)
    g = new_game(rules, 2, seed=3)
    assert g.public_view().trump is None
    assert g.starter == (g.dealer + 1) % 2  # R8: nobody holds a trump
    assert not any(g.public_view().known)


def test_v12_crazy_clubs_always_trump_diamonds_only_by_diamonds() -> None:
    rules = RuleSet(crazy=True)
    g = deal_exact(["6S 7S 8C 9D 10D JS", "7D 8S QS 6C 8D 9C"], trump="AH", rules=rules)
    assert g.public_view().trump == Suit.CLUBS
    assert g.starter == 1  # 6C is the lowest trump (clubs), whatever was turned
    trump = Suit.CLUBS
    assert beats(rules, "AS", "6C", trump)  # clubs beat spades
    assert not beats(rules, "6D", "AC", trump)  # but not diamonds
    assert beats(rules, "6D", "7D", trump)
    assert beats(rules, "6H", "7D", trump) is False  # a diamond beats only diamonds


def test_v13_diamonds_apart() -> None:
    rules = RuleSet(diamonds_apart=True)
    assert not beats(rules, "6D", "AH", Suit.HEARTS)  # a trump cannot beat a diamond
    assert not beats(rules, "6S", "7D", Suit.HEARTS)  # a diamond beats nothing else
    assert beats(rules, "6D", "7D", Suit.HEARTS)
    assert beats(rules, "6S", "6H", Suit.HEARTS)  # hearts are trump as usual
    # a turned diamond gives no trump: diamonds are never trump
    g = deal_exact(["6S 7S 8C 9D 10D JS", "7D 8S QS 6C 8H 9C"], trump="AD", rules=rules)
    assert g.public_view().trump is None


def test_v12_v13_conflict_and_other_bad_combinations() -> None:
    with pytest.raises(RulesError, match="V12/V13"):
        RuleSet(crazy=True, diamonds_apart=True)
    with pytest.raises(RulesError, match="V15"):
        RuleSet(jokers=True)
    with pytest.raises(RulesError, match="V16"):
        RuleSet(double_deck=True, deck_size=52)
    with pytest.raises(RulesError, match="V14"):
        RuleSet(changing_trump=True, no_trump=True)
    with pytest.raises(RulesError, match="V8/V14"):
        RuleSet(changing_trump=True, trump_exchange=True)
    with pytest.raises(RulesError, match="V14"):
        RuleSet(changing_trump=True).check_seats(6)  # the whole deck is dealt


def test_v14_changing_trump_revealed_when_the_trump_is_drawn() -> None:
    rules = RuleSet(changing_trump=True)
    g = new_game(rules, 2, seed=21)
    v = g.public_view()
    assert v.trump_will_change and v.trump == v.trump_card.suit
    assert v.talon_size == 36 - 12
    hidden = g.order_cards()[13]  # the card after the turned trump
    assert hidden not in {c for seat in range(2) for c in g.view(seat).known[seat]}
    revealed = None
    while not g.finished and revealed is None:
        seat, action = g.legal_moves()[0]
        g, events = g.apply(seat, action)
        revealed = next((e for e in events if isinstance(e, TrumpRevealed)), None)
    assert revealed is not None and revealed.card is hidden
    v = g.public_view()
    assert v.trump == hidden.suit and v.trump_card is hidden and not v.trump_will_change
    assert not g.status()


def test_v15_jokers_beat_their_colour_and_nothing_beats_them() -> None:
    rules = RuleSet(deck_size=52, jokers=True)
    assert len(rules.deck()) == 54
    assert beats(rules, "AS", "BJ", Suit.HEARTS) and beats(rules, "AC", "BJ", Suit.CLUBS)
    assert not beats(rules, "AH", "BJ", Suit.HEARTS)
    assert beats(rules, "AH", "RJ", Suit.SPADES) and beats(rules, "2D", "RJ", None)
    assert not beats(rules, "BJ", "AS", Suit.SPADES) and not beats(rules, "RJ", "BJ", None)


def test_v15_a_joker_may_open_but_never_be_thrown_in() -> None:
    rules = RuleSet(deck_size=52, jokers=True)
    g = position(rules, ["BJ 6S 7S", "KS KC KD", "RJ 6C"], trump="AH", attacker=0)
    assert "attack BJ" in legal(g, 0)
    g = play(g, "0 attack BJ")
    assert legal(g, 1) == ["take"]  # nothing beats a joker
    assert legal(g, 2) == []  # a joker has no rank: nothing can be thrown in
    g = play(g, "1 take")
    assert g.bout == 1 and C("BJ") in g.view(1).hand
    g2 = play(position(rules, ["6S 6D", "RJ KC", "9C"], trump="AS", attacker=0), "0 attack 6D")
    assert "defend 6D RJ" in legal(g2, 1)
    g2 = play(g2, "1 defend 6D RJ")
    assert legal(g2, 0) == ["attack 6S", "pass"]  # the 6 is on the table, the joker adds none


def test_v15_a_turned_joker_gives_no_trump() -> None:
    rules = RuleSet(deck_size=52, jokers=True)
    order = [c for c in rules.deck() if c is not C("RJ")]
    order.insert(12, C("RJ"))
    g = new_game(rules, 2, order=order)
    assert g.public_view().trump_card is C("RJ") and g.public_view().trump is None


def test_v16_double_deck_identical_cards_are_distinct() -> None:
    rules = RuleSet(double_deck=True)
    deck = rules.deck()
    assert len(deck) == 72 == len(set(deck))
    assert C("7H") in deck and C("7H#2") in deck and C("7H") is not C("7H#2")
    assert not beats(rules, "7H", "7H#2", Suit.SPADES)  # same rank never beats
    g = position(rules, ["7S 7S#2 9D", "8S KC QD", "7D"], trump="AH", attacker=0)
    g = play(g, "0 attack 7S", "0 attack 7S#2")
    assert sorted(legal(g, 1)) == ["defend 7S 8S", "defend 7S#2 8S", "take"]
    g = play(g, "1 defend 7S#2 8S")
    assert "7S#2" in {str(a) for a, d in g.public_view().table if d is not None}
    assert legal(g, 2) == ["attack 7D"]


def test_v16_first_holder_of_the_lowest_trump_in_deal_order_starts() -> None:
    rules = RuleSet(double_deck=True)
    hands = ["6H#2 7S 8C 9D 10D JS", "6H 8S QS 6C 8D 9C", "JD QD 10C 7C 10S AS"]
    g = deal_exact(hands, trump="AH", rules=rules, dealer=0)
    # both 6♥ are held; seat 1 (left of the dealer) is first in the deal
    assert g.starter == 1 and C("6H") in g.public_view().known[1]
    g = deal_exact(hands, trump="AH", rules=rules, dealer=2)
    assert g.starter == 0 and C("6H#2") in g.public_view().known[0]


def test_notation_for_jokers_and_copies() -> None:
    assert [str(c) for c in parse_cards("bj rj 7h#2 7H#1")] == ["BJ", "RJ", "7H#2", "7H"]
    assert C("RJ").unicode() == "🃏R" and C("7H#2").unicode() == "7♥#2"
