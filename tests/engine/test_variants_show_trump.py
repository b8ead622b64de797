"""V18, transfer by showing the trump: with V1, the defender may pass the same attack on by
showing the trump of the attack's rank, which stays in the hand and becomes known; once per bout
per player (docs/rules.md)."""

from __future__ import annotations

import random

import pytest

from durak_core import (
    Action,
    Card,
    IllegalActionError,
    RulesError,
    RuleSet,
    new_game,
    parse_action,
    position,
    state_from_json,
)
from durak_core.actions import NUM_ACTION_CODES
from durak_core.ai import Level, make_player
from durak_core.ai.match import play_game
from durak_core.cards import cards_of
from durak_core.events import TrumpShown, visible_to
from durak_core.explain import why_illegal

from .helpers import deal_exact, legal, play

SHOW = RuleSet(transfer=True, transfer_by_trump=True)


def test_v18_needs_v1() -> None:
    with pytest.raises(RulesError, match=r"V18.*V1"):
        RuleSet(transfer_by_trump=True)


def test_v18_showing_the_trump_passes_the_same_attack_on_and_keeps_the_card() -> None:
    g = position(SHOW, ["6S 9D", "6H KS KC", "8D 9C JH"], trump="AH", attacker=0)
    g = play(g, "0 attack 6S")
    assert "transfer 6H" in legal(g, 1)
    g, events = g.apply(1, "transfer 6H")
    six = Card.parse("6H")
    assert (g.attacker, g.defender) == (1, 2)
    assert [a for a, _ in g.public_view().table] == [Card.parse("6S")]  # the same attack
    assert six in cards_of(g.hands[1]) and g.hand_size(1) == 3  # shown, not played
    assert g.limit == 3 and "take" in legal(g, 2)  # counted against the new defender (V1)
    # everyone sees the shown trump: a known card of that hand, and in every seat's log
    assert six in g.public_view().known[1]
    assert all(six in g.view(seat).known[1] for seat in range(3))
    assert all(any("6H" in str(e) for e in visible_to(events, seat)) for seat in range(3))


def test_v18_nothing_else_of_the_hand_becomes_known() -> None:
    g = position(SHOW, ["6S 9D", "6H KS KC", "8D 9C JH"], trump="AH", attacker=0)
    g = play(g, "0 attack 6S", "1 transfer 6H")
    for seat in (0, 2):
        assert g.view(seat).known[1] == frozenset({Card.parse("6H")})


def test_v18_once_per_bout_per_player_then_the_trump_is_played() -> None:
    g = position(SHOW, ["6S 6D 9D 10D JD", "6H KS KC QS"], trump="AH", attacker=0)
    g = play(g, "0 attack 6S", "1 transfer 6H")  # shown: seat 0 defends the same 6S
    assert (g.attacker, g.defender) == (1, 0) and g.hand_size(1) == 4
    g = play(g, "0 transfer 6D")  # played (V1): seat 1 faces 6S and 6D
    assert (g.attacker, g.defender) == (0, 1)
    g = play(g, "1 transfer 6H")  # seat 1 has shown this bout: now the trump is played
    assert Card.parse("6H") not in cards_of(g.hands[1])
    assert len(g.public_view().table) == 3 and (g.attacker, g.defender) == (1, 0)


def test_v18_a_player_may_show_again_in_a_later_bout() -> None:
    g = position(SHOW, ["6S 7S AS 9D", "6H KS KC QC"], trump="AH", attacker=0)
    g = play(g, "0 attack 6S", "1 transfer 6H", "0 take", "1 pass")  # bout 1: shown, taken
    g = play(g, "1 attack KS", "0 defend KS AS", "1 pass")  # bout 2: defended
    g = play(g, "0 attack 6S", "1 transfer 6H")  # bout 3: shown again
    assert Card.parse("6H") in cards_of(g.hands[1]) and len(g.public_view().table) == 1


def test_v18_a_show_adds_no_card_for_the_next_defender_to_face() -> None:
    # seat 2 holds one card: a transfer that adds a card is refused (V1), a show is not
    g = position(SHOW, ["6S 9D", "6H 6C KS", "8D"], trump="AH", attacker=0)
    g = play(g, "0 attack 6S")
    assert "transfer 6H" in legal(g, 1) and "transfer 6C" not in legal(g, 1)
    assert why_illegal(g, 1, parse_action("transfer 6C"))[0] == "V1"
    with pytest.raises(IllegalActionError, match="V1"):
        g.apply(1, "transfer 6C")


def test_v18_without_v18_the_trump_is_played() -> None:
    g = position(RuleSet(transfer=True), ["6S 9D", "6H KS KC", "8D 9C JH"], trump="AH", attacker=0)
    g = play(g, "0 attack 6S", "1 transfer 6H")
    assert Card.parse("6H") not in cards_of(g.hands[1]) and len(g.public_view().table) == 2


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_v18_exactly_the_legal_actions_are_accepted(seats: int) -> None:
    rng = random.Random(seats)
    for game in range(3):
        s = new_game(SHOW, seats, seed=rng.getrandbits(256))
        codes = rng.sample(range(NUM_ACTION_CODES), 80)
        for _ in range(120):
            if s.finished:
                break
            for seat in range(s.n):
                allowed = set(s.legal_actions(seat))
                for a in {Action.from_code(c) for c in codes} | allowed:
                    assert s.can(seat, a) == (a in allowed), (game, str(a))
            seat, action = rng.choice(s.legal_moves())
            s, _ = s.apply(seat, action)
            assert s.status() == ()


@pytest.mark.slow  # over a second: out of the quick subset
@pytest.mark.parametrize("level", [Level.EASY, Level.NORMAL, Level.HARD])
def test_v18_the_ai_plays_a_whole_game(level: Level) -> None:
    players = [make_player(level, seed=seat) for seat in range(3)]
    record = play_game(SHOW, players, seed=18)
    assert record.result is not None


def test_v18_who_has_shown_survives_saving_and_loading() -> None:
    """A restarted bot loads a state by replaying its log: a seat that has shown this bout still
    plays its trump on a later transfer in that bout."""
    g = deal_exact(["6H 7S 7D 9D 10D JD", "7H KS KC QS 8C 9C"], "AH", rules=SHOW)
    g = play(g, "0 attack 7S", "1 transfer 7H", "0 transfer 7D")  # 6H, lowest trump: seat 0
    loaded = state_from_json(g.to_json())
    assert loaded == g and loaded.shown == g.shown
    loaded = play(loaded, "1 transfer 7H")
    assert Card.parse("7H") not in cards_of(loaded.hands[1])


def test_v18_the_show_is_a_public_event() -> None:
    g = position(SHOW, ["6S 9D", "6H KS KC", "8D 9C JH"], trump="AH", attacker=0)
    g = play(g, "0 attack 6S")
    _, events = g.apply(1, "transfer 6H")
    for seat in (None, 0, 1, 2):
        assert TrumpShown(1, Card.parse("6H")) in visible_to(events, seat)
    _, played = (
        position(RuleSet(transfer=True), ["6S 9D", "6H KS KC", "8D 9C JH"], trump="AH", attacker=0)
        .apply(0, "attack 6S")[0]
        .apply(1, "transfer 6H")
    )
    assert not any(isinstance(e, TrumpShown) for e in played)  # without V18 it is played


def test_v18_nothing_to_show_without_a_trump() -> None:
    rules = RuleSet(transfer=True, transfer_by_trump=True, no_trump=True)  # V11
    g = position(rules, ["6S 9D", "6H KS KC", "8D 9C JH"], trump="AH", attacker=0)
    g = play(g, "0 attack 6S", "1 transfer 6H")
    assert Card.parse("6H") not in cards_of(g.hands[1])  # played, as V1 plays it
