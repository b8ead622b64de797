"""What each level is specified to do (seeds/004), on hand-made positions."""

from __future__ import annotations

import random

from durak_core import RuleSet, position
from durak_core.ai import Budget, Level, make_player
from durak_core.ai.determinize import Determinizer
from durak_core.ai.hard import HardPlayer
from durak_core.ai.memory import remember
from tests.durak_core.helpers import deal_exact, play


def test_easy_attacks_low_and_defends_with_the_smallest_winning_card() -> None:
    g = deal_exact(["7S 9S KS 6D AH 10C", "8S QS AS 7D 8D 6H"], trump="9H")
    easy = make_player(Level.EASY, 1)
    # R8: seat 1 holds the lowest trump (6H) and starts; Easy leads its lowest plain card.
    assert g.starter == 1
    assert str(easy.choose(g.view(1), [])) == "attack 7D"
    g = play(g, "1 attack 8D")
    # Only the trump ace beats 8D: Easy spends it (R7b); it never takes while it can beat.
    assert str(easy.choose(g.view(0), [])) == "defend 8D AH"
    g2 = deal_exact(["7S 9S KS 6D AH 10C", "8S QS AS 7D 8D 6H"], trump="9H")
    g2 = play(g2, "1 attack 8S")
    assert str(easy.choose(g2.view(0), [])) == "defend 8S 9S"


def test_normal_keeps_high_trumps_while_the_talon_lasts() -> None:
    # Seat 1 can beat the 6S only with the ace of trumps; the talon is long: Normal takes,
    # Easy spends the ace.
    s = position(
        RuleSet(),
        ["6S 7D 8D 9C JC QD", "AH 7C 8C 9D 10D JD"],
        trump="KH",
        attacker=0,
        talon="6C 10C 6D 9S 10S JS QS KS AS 7S 8S",
    )
    s, _ = s.apply(0, "attack 6S")
    assert str(make_player(Level.NORMAL, 1).choose(s.view(1), [])) == "take"
    assert str(make_player(Level.EASY, 1).choose(s.view(1), [])) == "defend 6S AH"


def test_normal_infers_what_a_taker_lacks() -> None:
    g = deal_exact(["7S 9S KS 6D AH 10C", "8S QS AS 7D 8D 6H"], trump="9H")
    g, ev1 = g.apply(1, "attack 8D")
    g, ev2 = g.apply(0, "take")
    view = g.view(1)
    mem = remember(view, [*ev1, *ev2])
    nine = next(c for c in view.rules.deck() if str(c) == "9D")
    assert mem.lacks[0] >> nine.index & 1  # took 8D: presumably holds no 9D


def test_hard_infers_what_a_dear_defence_passed_over() -> None:
    """A defender that beat a lone 7S with KS presumably holds no 8S, 9S, 10S... it would have
    answered with (cheaper beaters: ``Memory.passed_over``); nothing is inferred when two cards
    were unbeaten, where the cheapest card may be kept for the other."""
    g = deal_exact(["7S 9S KS 6D AH 10C", "8S QS AS 7D 8D 6H"], trump="9H")
    g, ev1 = g.apply(1, "attack 8S")
    g, ev2 = g.apply(0, "defend 8S KS")
    view = g.view(1)
    mem = remember(view, [*ev1, *ev2])
    cards = {str(c): c.index for c in view.rules.deck()}
    over = mem.passed_over[0]
    # the cheaper beaters seat 1 cannot see (soft: seat 0 does hold the 9S here)
    assert all(over >> cards[c] & 1 for c in ("9S", "10S", "JS"))
    assert not over >> cards["QS"] & 1  # seat 1's own card
    assert not over >> cards["AS"] & 1 and not over >> cards["7H"] & 1  # dearer than KS
    assert not mem.lacks[0]  # the strong inference is untouched

    g = deal_exact(["7S 9S KS 6D AH 10C", "8S QS AS 7D 8D 6H"], trump="9H")
    g, ev1 = g.apply(1, "attack 8D")
    g, ev2 = g.apply(1, "attack 8S")
    g, ev3 = g.apply(0, "defend 8S KS")
    mem = remember(g.view(1), [*ev1, *ev2, *ev3])
    assert not mem.passed_over[0]


def test_hard_expects_a_normal_seat_to_keep_its_dear_cards() -> None:
    """Normal's published rules lead and throw in cheap plain cards and keep trumps while the
    talon lasts, so a hand shown as Normal holds dearer cards than the talon on average
    (:mod:`durak_core.ai.keep`): Hard deals a high trump to it more readily than a low plain
    card. A seat shown as anything else gets no such prior."""
    g = deal_exact(["7S 9S KS 6D AH 10C", "8S QS AS 7D 8D 6H"], trump="9H")
    view = g.view(0)
    mem = remember(view, [])
    cards = {str(c): c.index for c in view.rules.deck()}

    def deals(label: str) -> Determinizer:
        hard = HardPlayer(1, Budget(None, iterations=10), seats=["hard", label])
        det = hard._deals(view, mem, random.Random(1), weighted=True)
        assert isinstance(det, Determinizer)
        return det

    shown_normal = deals("normal").weights
    assert shown_normal is not None
    assert shown_normal[1][cards["KH"]] > 1 > shown_normal[1][cards["6C"]]
    assert deals("human").weights is None  # no inference yet, no prior
