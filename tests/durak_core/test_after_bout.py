"""R17–R22: the draw, going out, the next attacker, the end, scoring, the next game."""

from __future__ import annotations

from durak_core import Card, RuleSet, Series, position
from durak_core.events import CardsDrawn, CardsReceived, GameOver, PlayerOut

from .helpers import deal_exact, legal, play


def test_r17_draw_order_events() -> None:
    hands = ["6S 7S 8C 9D 10D JS", "7D 8S QS 6C 8D 9C", "JD QD 10C 7C 10S AS", "6D 9S KS KC KD 7H"]
    g = deal_exact(hands, trump="AH", dealer=2)
    assert (g.attacker, g.defender) == (3, 0)
    g = play(g, "3 attack 9S", "0 defend 9S JS", "1 attack 9C", "0 take")
    # seat 2 throws in JD (a J is on the table); then nobody holds a 9 or a J: the bout ends
    g, events = g.apply(2, "attack JD")
    assert g.bout == 1
    drawn = [e.seat for e in events if isinstance(e, CardsDrawn)]
    # main attacker 3, then clockwise from it (1, 2; 0 defends), the defender last; the
    # defender took and holds more than 6, so it draws nothing
    assert drawn == [3, 1, 2]


def test_r17_scarce_talon_goes_to_the_main_attacker_first() -> None:
    g = position(
        RuleSet(),
        ["6S 7S 8S 9S 10S JS", "KC KD QC QD JC JD", "6C 7C 8C 9C 10C AC"],
        trump="AH",
        talon="9D",  # then AH, the face-up trump, last
        attacker=0,
    )
    g = play(g, "0 attack 6S", "2 attack 6C", "1 defend 6C KC")
    g, events = g.apply(1, "take")  # nobody can throw in a 6 or a K: the bout ends
    assert g.bout == 1
    assert [(e.seat, e.number) for e in events if isinstance(e, CardsDrawn)] == [(0, 1), (2, 1)]
    # attacker 0 needed 1 and drew 9D; seat 2 needed 1 and drew the trump AH (public)
    assert Card.parse("9D") in g.view(0).hand
    assert Card.parse("AH") in g.view(2).hand and Card.parse("AH") in g.view(0).known[2]
    assert g.public_view().talon_size == 0


def test_r17_the_trump_is_drawn_last_and_everyone_sees_who_took_it() -> None:
    g = position(RuleSet(), ["6S 7S", "KS KC QS"], trump="AH", talon="9D", attacker=0)
    g = play(g, "0 attack 6S", "1 defend 6S KS")  # no 6 or K to throw: the bout ends
    assert [str(c) for c in sorted(g.view(0).hand)] == ["7S", "9D", "AH"]
    assert Card.parse("AH") in g.view(1).known[0]


def test_r18_empty_hand_with_talon_left_draws_and_stays() -> None:
    g = position(RuleSet(), ["6S", "KS KC"], trump="AH", talon="7D 8D 9D", attacker=0)
    g, events = g.apply(0, "attack 6S")
    assert g.hand_size(0) == 0
    g, events = g.apply(1, "defend 6S KS")  # the bout ends: seat 0 cannot throw in
    assert g.bout == 1 and not g.finished
    assert g.public_view().active == (0, 1) and g.hand_size(0) == 4  # 7D 8D 9D and AH
    assert any(isinstance(e, CardsReceived) and e.seat == 0 for e in events)
    assert not any(isinstance(e, PlayerOut) for e in events)


def test_r18_outs_after_the_same_bout_are_ordered_by_the_emptying_action() -> None:
    g = position(RuleSet(), ["6S 6D", "KS KC KD 9H", "6C"], trump="AH", attacker=0)
    g = play(g, "0 attack 6S", "2 attack 6C")  # seat 2 empties first (action 1)
    assert not g.public_view().finishing_order  # out only at the end of the bout
    g = play(g, "0 attack 6D", "1 defend 6S KS", "1 defend 6C KC", "1 defend 6D KD")
    r = g.result
    assert r is not None and r.finishing_order == (2, 0) and r.durak == 1


def test_r19_defended_the_defender_leads_next() -> None:
    g = position(RuleSet(), ["6S 7D", "KS KC", "9C 8C"], trump="AH", talon="10D 10C", attacker=0)
    g = play(g, "0 attack 6S", "1 defend 6S KS")
    assert g.bout == 1 and (g.attacker, g.defender) == (1, 2)


def test_r19_taken_the_next_player_left_of_the_defender_leads() -> None:
    g = position(RuleSet(), ["6S 7D", "KS KC", "9C 8C"], trump="AH", talon="10D 10C", attacker=0)
    g = play(g, "0 attack 6S", "1 take")
    assert g.bout == 1 and (g.attacker, g.defender) == (2, 0)


def test_r19_two_players_after_a_take_the_same_attacker_leads_again() -> None:
    g = position(RuleSet(), ["6S 7D", "KC QC"], trump="AH", talon="10D 10C", attacker=0)
    g = play(g, "0 attack 6S", "1 take")
    assert g.bout == 1 and (g.attacker, g.defender) == (0, 1)


def test_r19_next_attacker_when_the_defender_goes_out() -> None:
    # talon empty: the defender beats the only card with its last card and is out
    g = position(RuleSet(), ["6S 7D", "KS", "9C 8C", "JD QD"], trump="AH", attacker=0)
    g = play(g, "0 attack 6S", "1 defend 6S KS")
    assert g.public_view().finishing_order == (1,)
    # the next active player clockwise from the defender leads: seat 2, against seat 3
    assert (g.attacker, g.defender) == (2, 3)


def test_r20_last_player_holding_cards_is_the_durak() -> None:
    g = position(RuleSet(), ["6S", "KS KC"], trump="AH", attacker=0)
    g, events = g.apply(0, "attack 6S")
    g, events = g.apply(1, "defend 6S KS")
    assert g.finished and g.result is not None
    assert g.result.durak == 1 and g.result.finishing_order == (0,)
    assert any(isinstance(e, GameOver) and e.durak == 1 for e in events)
    assert legal(g, 0) == legal(g, 1) == []


def test_r20_everyone_out_in_the_same_bout_is_a_draw() -> None:
    g = position(RuleSet(), ["6S", "KS"], trump="AH", attacker=0)
    g = play(g, "0 attack 6S", "1 defend 6S KS")
    r = g.result
    assert g.finished and r is not None and r.is_draw and r.durak is None
    assert r.finishing_order == (0, 1) and r.winners == () and r.losers == ()


def test_r21_series_points_win_to_first_out_loss_to_durak_draw_scores_nothing() -> None:
    g = position(RuleSet(), ["6S 6D", "KS KC KD 9H", "6C"], trump="AH", attacker=0)
    g = play(g, "0 attack 6S", "2 attack 6C", "0 attack 6D")
    g = play(g, "1 defend 6S KS", "1 defend 6C KC", "1 defend 6D KD")
    r = g.result
    assert r is not None
    assert [(p.wins, p.losses, p.played) for p in r.points] == [(0, 0, 1), (0, 1, 1), (1, 0, 1)]
    draw = play(
        position(RuleSet(), ["6S", "KS"], trump="AH", attacker=0), "0 attack 6S", "1 defend 6S KS"
    ).result
    assert draw is not None
    assert [(p.wins, p.losses, p.played) for p in draw.points] == [(0, 0, 1), (0, 0, 1)]


def test_r22_the_previous_durak_deals_and_r8_decides_who_starts() -> None:
    series = Series(RuleSet(), seats=3)
    assert series.next_dealer() is None
    g = position(RuleSet(), ["6S 6D", "KS KC KD 9H", "6C"], trump="AH", attacker=0)
    g = play(g, "0 attack 6S", "2 attack 6C", "0 attack 6D")
    g = play(g, "1 defend 6S KS", "1 defend 6C KC", "1 defend 6D KD")
    assert g.result is not None
    series.record(g.result, dealer=2)
    assert series.next_dealer() == 1 and series.wins == [0, 0, 1] and series.losses == [0, 1, 0]
    nxt = deal_exact(
        ["6S 7S 8C 9D 10D JS", "7D 8S QS 6C 8D 9C", "JD QD 10C 7C 10S 7H"],
        trump="AH",
        dealer=series.next_dealer(),
        first_game=series.first_game,
    )
    assert nxt.dealer == 1 and nxt.starter == 2  # R8: seat 2 holds 7H


def test_r22_after_a_draw_the_deal_passes_left() -> None:
    series = Series(RuleSet(), seats=2)
    draw = play(
        position(RuleSet(), ["6S", "KS"], trump="AH", attacker=0), "0 attack 6S", "1 defend 6S KS"
    ).result
    assert draw is not None
    series.record(draw, dealer=1)
    assert series.next_dealer() == 0 and series.draws == 1
