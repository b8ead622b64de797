"""The table of move kinds (durak_core/move_kinds.py) says what the engine does: its notation is
the engine's, a kind that spends a card takes it out of the hand, a kind that passes the defence
on changes the defender without ending the bout, and every other kind neither."""

from __future__ import annotations

import random

from durak_core import RuleSet, new_game
from durak_core.actions import NUM_ACTION_CODES, NUM_KINDS, Action, parse_action
from durak_core.events import BoutEnded
from durak_core.move_kinds import MOVE_KINDS, SPENDS_CARD, move_kind, notation

#: Every kind can come up: transfers (V1), shows (V18) and the trump exchange (V8).
EVERY_KIND = RuleSet(transfer=True, transfer_by_trump=True, trump_exchange=True)


def test_one_row_per_kind_in_the_engines_order() -> None:
    assert [k.kind for k in MOVE_KINDS] == list(range(NUM_KINDS))
    assert len({k.verb for k in MOVE_KINDS}) == NUM_KINDS


def test_the_notation_is_the_engines_for_every_action() -> None:
    for code in range(NUM_ACTION_CODES):
        action = Action.from_code(code)
        assert notation(action) == str(action), code
        assert parse_action(notation(action)) is action


def test_what_each_kind_does_to_the_hand_and_the_defence() -> None:
    rng = random.Random(49)
    seen: set[int] = set()
    for seats in (2, 3, 4):
        for _ in range(6):
            s = new_game(EVERY_KIND, seats, seed=rng.getrandbits(64))
            while not s.finished:
                seat, action = rng.choice(s.legal_moves())
                kind = move_kind(action)
                before, defender = s.hands[seat], s.defender
                s, events = s.apply(seat, action)
                seen.add(action.kind)
                c = action.c
                played = c >= 0 and before >> c & 1 and not s.hands[seat] >> c & 1
                assert kind.spends_card == bool(played), str(action)
                if not any(isinstance(e, BoutEnded) for e in events):
                    assert kind.passes_on == (s.defender != defender), str(action)
    assert seen == set(range(NUM_KINDS))
    assert tuple(k.spends_card for k in MOVE_KINDS) == SPENDS_CARD
