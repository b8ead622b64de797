"""R1, R2: the deck and card notation."""

from __future__ import annotations

import pickle

import pytest

from durak_core import Card, CardNotationError, RuleSet, Suit, parse_cards
from durak_core.cards import NUM_CARD_IDS


def test_r1_deck_is_36_cards_four_suits_nine_ranks_ascending() -> None:
    deck = RuleSet().deck()
    assert len(deck) == 36 == len(set(deck))
    assert {c.suit for c in deck} == set(Suit)
    assert sorted({c.rank for c in deck}) == [6, 7, 8, 9, 10, 11, 12, 13, 14]
    # ascending within a suit: 6 < 7 < ... < A
    spades = [c for c in deck if c.suit == Suit.SPADES]
    assert [str(c) for c in spades] == ["6S", "7S", "8S", "9S", "10S", "JS", "QS", "KS", "AS"]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("6S", "6S"),
        ("10H", "10H"),
        ("qd", "QD"),
        ("Ac", "AC"),
        ("6♠", "6S"),
        ("10♥", "10H"),
        ("q♦", "QD"),
        ("A♣", "AC"),
        (" 7h ", "7H"),
    ],
)
def test_r2_notation_letters_and_symbols_case_insensitive(text: str, expected: str) -> None:
    assert str(Card.parse(text)) == expected


def test_r2_unicode_display_and_round_trip_of_every_card() -> None:
    assert Card.parse("10H").unicode() == "10♥"
    for i in range(NUM_CARD_IDS):
        c = Card.from_index(i)
        assert Card.parse(str(c)) is c
        assert Card.parse(c.unicode()) is c


@pytest.mark.parametrize("bad", ["", "1H", "11H", "6X", "H6", "10", "S", "6SS", "ZZ", "6S#3", "♠"])
def test_r2_rejects_anything_else_naming_the_token(bad: str) -> None:
    with pytest.raises(CardNotationError) as err:
        Card.parse(bad)
    assert repr(bad) in str(err.value)
    assert str(err.value).startswith("R2")
    assert isinstance(err.value, ValueError)


def test_r2_list_parsing_names_the_bad_token() -> None:
    assert [str(c) for c in parse_cards("6S, 7s 8♠")] == ["6S", "7S", "8S"]
    with pytest.raises(CardNotationError, match="'7Z'"):
        parse_cards("6S 7Z")


def test_cards_are_interned_values() -> None:
    assert Card.parse("7H") is Card.of(7, Suit.HEARTS) is Card.from_index(Card.parse("7H").index)
    assert Card.parse("7H#2") is not Card.parse("7H")
    assert Card.parse("7H#2").rank == 7 and Card.parse("7H#2").suit == Suit.HEARTS


def test_cards_pickle_to_the_same_interned_card() -> None:
    # The AI's worker processes receive views of cards by pickle (bot/tables/ai_workers.py);
    # compiled or not, a card comes back as the one card of its index.
    cards = [Card.from_index(i) for i in range(NUM_CARD_IDS)]
    assert all(c is Card(c.index) for c in cards)
    back = pickle.loads(pickle.dumps(cards, pickle.HIGHEST_PROTOCOL))
    assert all(b is c for b, c in zip(back, cards, strict=True))


def test_cards_hash_compare_and_order_by_index() -> None:
    seven, eight = Card.parse("7H"), Card.parse("8H")
    assert {seven: 1}[Card.parse("7h")] == 1 and len({seven, Card.parse("7H"), eight}) == 2
    assert seven == Card.parse("7H") and seven != eight
    assert seven < eight and eight > seven and sorted([eight, seven]) == [seven, eight]
    with pytest.raises(TypeError):
        _ = seven < 8
