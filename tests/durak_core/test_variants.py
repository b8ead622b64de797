"""V1–V10 and V17: the variant options of a rule set."""

from __future__ import annotations

import pytest

from durak_core import Card, IllegalActionError, RuleSet, Series, new_game, position

from .helpers import deal_exact, legal, play

TRANSFER = RuleSet(transfer=True)


def test_v1_transfer_with_a_card_of_the_same_rank() -> None:
    g = position(TRANSFER, ["6S 9D", "6C KS KC", "8D 9C JH"], trump="AH", attacker=0)
    g = play(g, "0 attack 6S")
    assert "transfer 6C" in legal(g, 1)
    g, _ = g.apply(1, "transfer 6C")
    # the transferrer leads; the next player left defends and faces both cards
    assert (g.attacker, g.defender) == (1, 2)
    assert [a for a, _ in g.public_view().table] == [Card.parse("6S"), Card.parse("6C")]
    assert g.limit == 3  # counted against the new defender's hand at the transfer
    assert legal(g, 1) == [] and "take" in legal(g, 2)


def test_v1_no_transfer_once_a_card_is_beaten_or_after_a_take() -> None:
    g = position(TRANSFER, ["6S 6D 9D", "6C KS KC", "8D 9C JH"], trump="AH", attacker=0)
    g = play(g, "0 attack 6S", "0 attack 6D", "1 defend 6S KS")
    assert not any(a.startswith("transfer") for a in legal(g, 1))
    with pytest.raises(IllegalActionError, match="V1"):
        g.apply(1, "transfer 6C")
    g2 = play(
        position(TRANSFER, ["6S 6D 9D", "6C KS KC", "8D 9C JH"], trump="AH", attacker=0),
        "0 attack 6S",
        "1 take",
    )
    assert legal(g2, 1) == []


def test_v1_new_defender_must_hold_enough_cards() -> None:
    g = position(TRANSFER, ["6S 6D 9D", "6C KS KC", "8D"], trump="AH", attacker=0)
    g = play(g, "0 attack 6S")
    # seat 2 holds 1 card, there would be 2 attack cards: no transfer
    assert not any(a.startswith("transfer") for a in legal(g, 1))


def test_v1_with_two_players_the_defence_goes_back_and_can_chain() -> None:
    g = position(TRANSFER, ["6S 6D 9D", "6C KS KC QS"], trump="AH", attacker=0)
    g = play(g, "0 attack 6S", "1 transfer 6C")
    assert (g.attacker, g.defender) == (1, 0)
    g = play(g, "0 transfer 6D")  # seat 1 holds 3 cards: enough for 3 attack cards
    assert (g.attacker, g.defender) == (0, 1) and g.limit == 3


def test_v1_transfer_chain_three_players() -> None:
    g = position(TRANSFER, ["6S 9D 9C 10C", "6C KS KC QS", "6D 8D 9H JH"], trump="AH", attacker=0)
    g = play(g, "0 attack 6S", "1 transfer 6C", "2 transfer 6D")
    assert (g.attacker, g.defender) == (2, 0)
    assert len(g.public_view().table) == 3 and g.limit == 3
    # the bout's draw order now starts with the last transferrer (R17 via V1)


def test_v2_decks_of_24_and_52() -> None:
    g24 = new_game(RuleSet(deck_size=24), 2, seed=1)
    assert len(g24.talon) == 24 - 12
    g52 = new_game(RuleSet(deck_size=52), 2, seed=1)
    assert len(g52.talon) == 52 - 12
    # with 52 cards the lowest trump is the 2 (R8 via V2)
    trump = g52.public_view().trump
    assert trump is not None
    lowest = Card.of(2, trump)
    holder = [t for t in range(2) if lowest in g52.view(t).hand]
    if holder:
        assert g52.starter == holder[0]


def test_v4_five_before_the_first_discard() -> None:
    rules = RuleSet(first_bout_five=True)
    g = new_game(rules, 2, seed=4)
    assert g.limit == 5
    g = position(
        rules, ["6S 7S", "KS KC KD QS QC QD"], trump="AH", attacker=0, discarded_once=False
    )
    assert g.limit == 5
    g = position(rules, ["6S 7S", "KS KC KD QS QC QD"], trump="AH", attacker=0, discarded_once=True)
    assert g.limit == 6


def test_v4_the_cap_lifts_after_the_first_defended_bout() -> None:
    rules = RuleSet(first_bout_five=True)
    g = position(
        rules,
        ["6S 7S 8S", "KS KC KD QS QC QD", "9D 10D"],
        trump="AH",
        talon="JD JC JS 10C 10S",
        attacker=0,
        discarded_once=False,
    )
    assert g.limit == 5
    g = play(g, "0 attack 6S", "1 defend 6S KS")
    assert g.bout == 1 and g.public_view().discard_size > 0
    assert g.limit == min(6, g.hand_size(g.defender))


def test_v5_neighbours_only_throw_in() -> None:
    rules = RuleSet(neighbours_only=True)
    hands = ["6S 9D", "KS KC KD", "6C 10C", "6D 10D", "6H 10H"]
    g = position(rules, hands, trump="AS", attacker=0)
    # defender 1: neighbours are 0 (the main attacker, right) and 2 (left)
    g = play(g, "0 attack 6S")
    assert legal(g, 2) == ["attack 6C"]
    assert legal(g, 3) == [] and legal(g, 4) == []
    with pytest.raises(IllegalActionError, match="V5"):
        g.apply(3, "attack 6D")


def test_v6_no_throw_in_after_take_ends_the_bout() -> None:
    rules = RuleSet(throw_in_after_take=False)
    g = position(rules, ["6S 6D 9D", "KS KC", "6C"], trump="AH", talon="7C", attacker=0)
    g = play(g, "0 attack 6S", "1 take")
    assert g.bout == 1 and Card.parse("6S") in g.view(1).hand
    assert g.hand_size(1) == 3


def test_v7_teams_never_attack_each_other() -> None:
    rules = RuleSet(team_size=2)
    g = deal_exact(
        ["6S 7S 8C 9D 10D 7H", "7D 8S QS 6C 8D 9C", "JD QD 10C 7C 10S AS", "6D 9S KS KC KD JS"],
        trump="AH",
    )
    g = new_game(rules, 4, order=g.order_cards(), dealer=g.dealer)
    # teams {0, 2} and {1, 3}; seat 0 leads against seat 1; seat 2 (its teammate) may throw in,
    # seat 3 (the defender's teammate) may not
    assert (g.attacker, g.defender) == (0, 1)
    assert g.public_view().attackers == frozenset({0, 2})
    g = play(g, "0 attack 7S", "1 defend 7S 8S")
    assert legal(g, 3) == []


def test_v7_defender_skips_a_teammate() -> None:
    rules = RuleSet(team_size=2)
    g = position(rules, ["6S 9D", "", "6C 10C", "6D 10D"], trump="AH", attacker=0, out=[1])
    # seat 1 is out; the next active opponent of seat 0 is seat 3, not its teammate 2
    assert g.defender == 3


def test_v7_a_team_loses_when_a_member_is_the_durak() -> None:
    rules = RuleSet(team_size=2)
    g = position(rules, ["6S", "KS KC", "", "QH"], trump="AH", attacker=0, out=[2])
    g = play(g, "0 attack 6S", "1 defend 6S KS")
    r = g.result
    # seat 0 went out; seats 1 and 3 (one team) hold cards: that team loses
    assert g.finished and r is not None and r.losers == (1, 3) and r.winners == (0, 2)


def test_v8_trump_exchange() -> None:
    rules = RuleSet(trump_exchange=True)
    g = deal_exact(["6H 7S 8C 9D 10D JS", "7D 8S QS 6C 8D 9C"], trump="AH", rules=rules)
    assert "exchange" in legal(g, 0)
    g, _ = g.apply(0, "exchange")
    v = g.view(1)
    assert v.trump_card == Card.parse("6H") and Card.parse("AH") in v.known[0]
    assert Card.parse("AH") in g.view(0).hand and "exchange" not in legal(g, 0)
    assert not g.status()


def test_v8_not_with_one_card_left_in_the_talon() -> None:
    rules = RuleSet(trump_exchange=True)
    g = position(rules, ["6H 7S", "KS KC"], trump="AH", talon="", attacker=0)
    g2 = position(rules, ["6H 7S", "KS KC"], trump="10H", talon="9D", attacker=0)
    assert "exchange" not in legal(g, 0)
    assert "exchange" in legal(g2, 0)
    g3 = position(rules, ["6H 7S", "KS KC"], trump="10H", talon="", attacker=0)
    assert "exchange" not in legal(g3, 0)
    with pytest.raises(IllegalActionError, match="V8"):
        g3.apply(0, "exchange")


def test_v9_unlimited_bout() -> None:
    rules = RuleSet(unlimited_bout=True)
    g = position(
        rules, ["6S 6C 6D 7S 7C 7D 8S 8C", "KS KC KD QS QC QD JS JC", "9S"], trump="AH", attacker=0
    )
    assert g.limit == 8


def test_v10_under_the_fool_later_games_start_left_of_the_previous_durak() -> None:
    rules = RuleSet(under_the_fool=True)
    hands = ["6S 7S 8C 9D 10D JS", "7D 8S QS 6C 8D 9C", "JD QD 10C 7C 10S 7H"]
    first = deal_exact(hands, trump="AH", rules=rules, dealer=0)
    assert first.starter == 2  # R8 in the first game
    later = deal_exact(hands, trump="AH", rules=rules, dealer=0, first_game=False)
    assert later.starter == 1  # left of the dealer, the previous Durak
    classic_later = deal_exact(hands, trump="AH", dealer=0, first_game=False)
    assert classic_later.starter == 2  # R22: R8 still decides without V10


def test_v17_series_ends_after_n_losses() -> None:
    series = Series(RuleSet(series_losses=2), seats=2)
    lost = play(
        position(RuleSet(), ["6S", "KS KC"], trump="AH", attacker=0),
        "0 attack 6S",
        "1 defend 6S KS",
    ).result
    assert lost is not None and lost.durak == 1
    series.record(lost, dealer=0)
    assert not series.finished
    series.record(lost, dealer=1)
    assert series.finished and series.losses == [0, 2] and series.wins == [2, 0]
    with pytest.raises(ValueError, match="V17"):
        series.record(lost, dealer=1)


def test_v8_exchanging_away_the_last_throw_in_ends_the_bout() -> None:
    # regression (found by the property tests): seat 0 could throw in 6H; after swapping it
    # for the face-up trump it has nothing to throw in, so the bout must end (R15, R16)
    rules = RuleSet(trump_exchange=True)
    g = position(rules, ["6S 7D 6H", "9S KC QC"], trump="AH", talon="8D 8C", attacker=0)
    g = play(g, "0 attack 6S", "1 defend 6S 9S")
    assert "attack 6H" in legal(g, 0) and "exchange" in legal(g, 0)
    g = play(g, "0 exchange")
    assert g.bout == 1  # nothing left to throw in: ended, defended
