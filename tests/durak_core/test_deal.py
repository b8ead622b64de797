"""R4, R5, R6, R8: shuffle, deal, trump, who starts."""

from __future__ import annotations

import hashlib

from durak_core import Card, RuleSet, new_game, seed_commitment, shuffled_deck
from durak_core.deck import deal, seed_bytes, shuffled_indices

from .helpers import deal_exact, legal


def test_r4_seeded_shuffle_is_reproducible_and_varies() -> None:
    rules = RuleSet()
    assert shuffled_deck(rules, 1) == shuffled_deck(rules, 1)
    orders = {tuple(shuffled_deck(rules, s)) for s in range(50)}
    assert len(orders) == 50
    assert len(seed_commitment(2**256 - 1)) == 64


def test_r4_shuffle_is_fisher_yates_over_the_documented_stream() -> None:
    # The definition (module doc), written out here independently: 64-bit big-endian words of
    # SHAKE-256(seed); swap i with the next word modulo i + 1, skipping biased words.
    for rules in (RuleSet(deck_size=24), RuleSet(), RuleSet(deck_size=52, jokers=True)):
        for seed in (*range(40), 2**256 - 1, 12345678901234567890123):
            n_words = 200
            data = hashlib.shake_256(seed_bytes(seed)).digest(8 * n_words)
            words = iter(int.from_bytes(data[8 * k : 8 * k + 8], "big") for k in range(n_words))
            expected = list(range(len(rules.deck())))
            for i in range(len(expected) - 1, 0, -1):
                n = i + 1
                w = next(words)
                while w >= 2**64 - 2**64 % n:
                    w = next(words)
                j = w % n
                expected[i], expected[j] = expected[j], expected[i]
            indices = [c.index for c in rules.deck()]
            assert shuffled_indices(rules, seed) == [indices[k] for k in expected]


def test_r4_explicit_order_is_dealt_as_documented() -> None:
    order = RuleSet().deck()  # 6S 7S ... in index order
    g = new_game(RuleSet(), 2, order=order, dealer=1)
    # one card at a time, starting left of the dealer (seat 0)
    assert str(g.view(0).hand[0]) == "6S" and [str(c) for c in g.view(1).hand][:2] == ["7S", "9S"]
    assert str(Card.from_index(g.trump_card)) == str(order[12])


def test_r5_six_cards_each_trump_face_up_under_the_talon_drawn_last() -> None:
    g = new_game(RuleSet(), 4, seed=3)
    assert [g.hand_size(t) for t in range(4)] == [6] * 4
    v = g.public_view()
    assert v.talon_size == 36 - 24 and v.trump_in_talon
    assert g.talon[0] == g.trump_card  # bottom: the last card drawn
    assert v.trump == v.trump_card.suit


def test_r6_whole_deck_dealt_last_card_fixes_trump_and_is_known() -> None:
    g = new_game(RuleSet(), 6, seed=9, dealer=2)
    order = g.order_cards()
    trump = order[-1]
    assert g.public_view().talon_size == 0 and not g.public_view().trump_in_talon
    assert g.public_view().trump_card is trump
    # the last card dealt goes to the dealer, stays in hand, and everyone knows it
    assert trump in g.view(2).hand
    for seat in range(6):
        assert trump in g.view(seat).known[2]


def test_r6_with_the_24_card_deck_and_four_players() -> None:
    g = new_game(RuleSet(deck_size=24), 4, seed=5)
    assert not g.talon and sum(g.hand_size(t) for t in range(4)) == 24


def test_r8_lowest_trump_holder_starts_and_the_card_is_shown() -> None:
    g = deal_exact(["6S 7S 8C 9D KH JS", "7D 8S QS 6C 8H 9C", "10D JD 10C 7C 10S AS"], trump="AH")
    assert g.starter == 1 and g.attacker == 1 and g.defender == 2
    assert Card.parse("8H") in g.public_view().known[1]
    assert g.view(0).awaiting == (1,)
    # R8: the starter may open with any card
    assert legal(g, 1) == sorted(f"attack {c}" for c in ["7D", "8S", "QS", "6C", "8H", "9C"])


def test_r8_face_up_trump_does_not_count_as_held() -> None:
    # 6H, the lowest trump, is the face-up card: the holder of 7H starts
    g = deal_exact(["6S 7S 8C 9D KH JS", "7D 8S QS 6C 7H 9C"], trump="6H")
    assert g.starter == 1


def test_r8_nobody_holds_a_trump_left_of_dealer_starts() -> None:
    g = deal_exact(
        ["6S 7S 8C 9D 10D JS", "7D 8S QS 6C 8D 9C", "JD QD 10C 7C 10S AS"],
        trump="AH",
        dealer=1,
    )
    assert g.starter == 2
    assert all(not k for k in g.public_view().known)


def test_deal_helper_matches_new_game() -> None:
    rules = RuleSet()
    order = shuffled_deck(rules, 77)
    hands, trump, talon = deal(rules, 3, 0, order)
    g = new_game(rules, 3, order=order, dealer=0)
    assert [set(g.view(t).hand) for t in range(3)] == [set(h) for h in hands]
    assert g.trump_card == trump.index and len(talon) == len(g.talon)
