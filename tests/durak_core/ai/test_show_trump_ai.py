"""V18 for the AI: the levels choose between showing the trump of the attack's rank and playing
it (docs/rules.md), and a shown card is remembered as that hand's (R23)."""

from __future__ import annotations

import random

from durak_core import GameState, parse_action, position
from durak_core.ai import LEVELS, Budget, Level, make_player
from durak_core.ai.determinize import Determinizer
from durak_core.ai.hard import candidates
from durak_core.ai.memory import remember
from durak_core.cards import Card
from durak_core.coach.review import why
from durak_core.events import Event, visible_to
from tests.durak_core.helpers import SHOW_RULES, reshuffle_hidden

SIX = Card.parse("6H")


def _played(g: GameState, *moves: str) -> tuple[GameState, list[Event]]:
    events: list[Event] = []
    for move in moves:
        seat, _, action = move.partition(" ")
        g, new = g.apply(int(seat), action)
        events.extend(new)
    return g, events


def _with_talon() -> tuple[GameState, list[Event]]:
    """Seat 1 defends 6S holding 6H (trump: hearts), the talon not empty."""
    g = position(
        SHOW_RULES, ["6S 9D", "6H KS KC", "8D 9C JH"], trump="AH", attacker=0, talon="7C 7D 8S"
    )
    return _played(g, "0 attack 6S")


def test_v18_every_level_shows_rather_than_plays_the_trump_while_the_talon_lasts() -> None:
    g, events = _with_talon()
    view = g.view(1)
    assert {parse_action("show 6H"), parse_action("transfer 6H")} <= set(view.legal_actions)
    for level in (Level.EASY, Level.NORMAL):
        chosen = make_player(level, seed=1).choose(view, visible_to(events, 1))
        assert str(chosen) == "show 6H", level


def test_v18_normal_plays_its_last_trump_to_go_out() -> None:
    # talon empty, three seats (Normal's heuristics): seat 1's last card is 6H; playing it on a
    # transfer empties the hand, so it goes out (R18); a show would keep it in the game
    g = position(SHOW_RULES, ["6S 9D", "6H", "8D 9C JH KH"], trump="AH", attacker=0)
    g, events = _played(g, "0 attack 6S")
    view = g.view(1)
    assert {parse_action("show 6H"), parse_action("transfer 6H")} <= set(view.legal_actions)
    chosen = make_player(Level.NORMAL, seed=1).choose(view, visible_to(events, 1))
    assert str(chosen) == "transfer 6H"


def test_v18_hard_searches_the_show() -> None:
    g, _ = _with_talon()
    view = g.view(1)
    mem = remember(view, [])
    found = candidates(view.legal_actions, parse_action("take"), mem.ct, view.talon_size)
    assert parse_action("show 6H") in found


def test_v18_the_shown_card_is_remembered_in_that_hand() -> None:
    g, events = _with_talon()
    g, shown = g.apply(1, "show 6H")
    history = visible_to([*events, *shown], 2)
    view = g.view(2)
    mem = remember(view, history)
    assert mem.known[1] >> SIX.index & 1 and not mem.hidden >> SIX.index & 1
    det = Determinizer(view, mem, random.Random(0))
    for _ in range(5):  # every deal the seat imagines puts 6H in seat 1's hand
        assert det.next().hands[1] >> SIX.index & 1


def test_v18_a_review_says_why_the_show_was_better() -> None:
    g, events = _with_talon()
    view = g.view(1)
    mem = remember(view, visible_to(events, 1))
    show, play, take = (parse_action(x) for x in ("show 6H", "transfer 6H", "take"))
    assert why(view, mem, play, show) == ("keeps_trump", SIX)  # the trump stays in the hand
    assert why(view, mem, take, show) == ("show", SIX)


def test_v18_after_a_show_decisions_still_ignore_hidden_cards() -> None:
    """R24, R25: the shown trump is known, the rest of that hand is not; every level decides
    the same when every card hidden from its seat is dealt anew (the shown one stays put)."""
    g, events = _with_talon()
    g, shown = g.apply(1, "show 6H")
    history = visible_to([*events, *shown], 2)
    rng = random.Random(5)
    for _ in range(3):
        other = reshuffle_hidden(g, 2, rng)
        assert other.view(2) == g.view(2) and other.hands[1] >> SIX.index & 1
        for level in LEVELS:
            budget = Budget(None, iterations=8)
            a = make_player(level, 9, budget).choose(g.view(2), history)
            assert make_player(level, 9, budget).choose(other.view(2), history) is a, level
