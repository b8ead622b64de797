"""R7, R9–R16: beating, roles, opening, throw-in, limit, defence, take, pass, end of a bout.

Hands are dealt exactly (trump: hearts, the AH under the talon unless said otherwise).
"""

from __future__ import annotations

import pytest

from durak_core import Card, GameState, IllegalActionError, RuleSet, Suit, position

from .helpers import deal_exact, legal, play


def game3() -> GameState:
    """3 players; seat 0 holds the lowest trump (7H), opens against seat 1; seat 2 throws in."""
    hands = ["6S 7S 8C 9D 7H JS", "7D 8S QS 6C KH 9C", "10D 6D 10C 7C 10S AS"]
    return deal_exact(hands, trump="AH")


@pytest.mark.parametrize(
    ("attack", "defence", "beats"),
    [
        ("7S", "9S", True),  # same suit, higher
        ("9S", "7S", False),  # same suit, lower
        ("9S", "9S#2", False),  # same rank
        ("AS", "6H", True),  # trump beats any non-trump
        ("6H", "AS", False),  # a non-trump never beats a trump
        ("7H", "8H", True),  # higher trump
        ("8H", "7H", False),
        ("7S", "8D", False),  # another plain suit
    ],
)
def test_r7_what_beats_what(attack: str, defence: str, beats: bool) -> None:
    rules = RuleSet()
    assert rules.beats(Card.parse(attack), Card.parse(defence), Suit.HEARTS) is beats


def test_r9_roles_defender_left_of_main_attacker_others_attack() -> None:
    g = game3()
    assert (g.attacker, g.defender) == (0, 1)
    v = g.public_view()
    assert v.attackers == frozenset({0, 2})


def test_r10_nobody_plays_before_the_opening_card() -> None:
    g = game3()
    assert legal(g, 1) == [] and legal(g, 2) == []
    with pytest.raises(IllegalActionError, match="R10"):
        g.apply(2, "attack 10D")
    assert len(legal(g, 0)) == 6  # any card of the main attacker


def test_r11_throw_in_ranks_on_table_by_any_attacker_even_with_unbeaten_cards() -> None:
    g = play(game3(), "0 attack 7S")
    # seat 2 may throw 7C while 7S is still unbeaten; seat 0 may not pass yet (R15)
    assert legal(g, 2) == ["attack 7C"]
    assert legal(g, 0) == ["attack 7H"]  # no pass offered yet (R15)
    g = play(g, "1 defend 7S 8S")
    # 8 is now on the table too (a defence card's rank counts)
    assert legal(g, 0) == ["attack 7H", "attack 8C", "pass"]
    assert legal(g, 2) == ["attack 7C", "pass"]
    with pytest.raises(IllegalActionError, match="R11"):
        g.apply(2, "attack 10D")


def test_r11_no_turn_order_among_attackers_and_defender() -> None:
    g = play(game3(), "0 attack 7S", "2 attack 7C")
    assert "defend 7C 9C" in legal(g, 1) and "defend 7S 8S" in legal(g, 1)
    g = play(g, "1 defend 7C 9C")
    # a throw-in can come before the remaining card is beaten
    assert legal(g, 0) == ["attack 7H", "attack 9D"]


def test_r12_limit_is_the_defenders_hand_at_bout_start() -> None:
    # the defender holds 2 cards: at most 2 attack cards in this bout
    g = position(RuleSet(), ["6S 6C 6D", "KS KC", "6H 9D"], trump="AH", attacker=0)
    assert g.limit == 2
    g = play(g, "0 attack 6S", "0 attack 6C")
    assert legal(g, 0) == [] and legal(g, 2) == []  # 6D, 6H: over the limit
    with pytest.raises(IllegalActionError, match="R12"):
        g.apply(0, "attack 6D")


def test_r12_cap_of_six_even_when_the_defender_holds_more() -> None:
    g = position(
        RuleSet(),
        ["6S 6C 6D 7S 7C 7D 8S", "KS KC KD QS QC QD JS JC", "9S"],
        trump="AH",
        attacker=0,
    )
    assert g.limit == 6


def test_r12_limit_stays_fixed_after_a_take() -> None:
    g = position(RuleSet(), ["6S 6C 6D", "KS KC", "6H 9D"], trump="AH", attacker=0)
    g = play(g, "0 attack 6S", "1 take")
    assert g.limit == 2  # the defender's hand is not re-read
    assert legal(g, 0) == ["attack 6C", "attack 6D", "pass"]
    g = play(g, "0 attack 6C")  # the limit is reached: the bout ends, taken
    assert g.bout == 1 and g.hand_size(1) == 4
    assert (g.attacker, g.defender) == (2, 0)  # R19


def test_r13_defender_chooses_which_card_covers_which_and_may_take_any_time() -> None:
    g = play(game3(), "0 attack 7S", "2 attack 7C")
    options = legal(g, 1)
    assert {"defend 7S 8S", "defend 7S QS", "defend 7S KH", "defend 7C 9C", "defend 7C KH"} <= set(
        options
    )
    assert "take" in options
    g2 = play(g, "1 defend 7C KH")  # the trump on the club, though 9C would do
    assert "defend 7S 8S" in legal(g2, 1) and "take" in legal(g2, 1)


def test_r13_take_only_while_a_card_is_unbeaten() -> None:
    g = play(game3(), "0 attack 7S", "1 defend 7S 8S")
    assert "take" not in legal(g, 1)
    with pytest.raises(IllegalActionError, match="R13"):
        g.apply(1, "take")


def test_r14_throw_in_after_take_and_the_defender_plays_no_more() -> None:
    g = play(game3(), "0 attack 7S", "1 take")
    assert legal(g, 1) == []
    with pytest.raises(IllegalActionError, match="R14"):
        g.apply(1, "defend 7S 8S")
    assert legal(g, 2) == ["attack 7C", "pass"]
    g = play(g, "2 attack 7C")  # seat 2 has no 7 left: it counts as passed (R15)
    g = play(g, "0 pass")
    assert sorted(str(c) for c in g.view(1).known[1]) == ["7C", "7S"]
    assert g.hand_size(1) == 6 + 2


def test_r15_no_pass_before_everything_is_beaten_or_taken() -> None:
    g = play(game3(), "0 attack 7S")
    with pytest.raises(IllegalActionError, match="R15"):
        g.apply(2, "pass")


def test_r15_a_pass_lasts_until_the_table_changes() -> None:
    g = play(game3(), "0 attack 7S", "1 defend 7S 8S", "2 pass")
    assert legal(g, 2) == [] and g.public_view().passed == frozenset({2})
    with pytest.raises(IllegalActionError, match="R15"):
        g.apply(2, "attack 7C")
    g = play(g, "0 attack 8C")  # the table changed: every pass is cleared
    assert g.public_view().passed == frozenset()
    assert legal(g, 2) == ["attack 7C"]


def test_r15_an_attacker_with_nothing_to_throw_in_is_offered_nothing() -> None:
    g = play(game3(), "0 attack JS", "1 defend JS QS")
    assert legal(g, 2) == []  # no J or Q: treated as passed, no button
    assert legal(g, 0) == []  # no J or Q either
    assert g.bout == 1  # so the bout ended at once, defended


def test_r16a_defended_cards_go_to_the_discard_pile() -> None:
    g = play(game3(), "0 attack 7S", "1 defend 7S 8S", "2 pass", "0 pass")
    v = g.public_view()
    assert v.bout == 1 and v.table == ()
    assert {str(c) for c in v.discarded} == {"7S", "8S"} and v.discard_size == 2


def test_r16b_taken_cards_go_to_the_defender() -> None:
    g = play(game3(), "0 attack 7S", "1 take", "2 pass", "0 pass")
    v = g.view(1)
    assert Card.parse("7S") in v.hand and v.discard_size == 0


def test_r16_ends_at_once_when_the_limit_is_reached_and_all_is_beaten() -> None:
    g = position(RuleSet(), ["6S 6C 6D", "KS KC", "6H 9D"], trump="AH", attacker=0)
    g = play(g, "0 attack 6S", "0 attack 6C", "1 defend 6S KS")
    assert g.bout == 0
    g = play(g, "1 defend 6C KC")
    assert g.bout == 1 and g.public_view().discard_size >= 4


def test_r16_waits_for_every_attacker_who_can_still_throw_in() -> None:
    g = play(game3(), "0 attack 7S", "1 defend 7S 8S", "0 pass")
    assert g.bout == 0 and g.public_view().awaiting == (2,)
    g = play(g, "2 pass")
    assert g.bout == 1
