"""The click benchmark (benchmarks/table_clicks.py) on one short 2-seat game: it finishes the game
through the hand buttons alone and its counts agree with each other and with the engine."""

from __future__ import annotations

import math

import pytest

from benchmarks import table_clicks as tc
from durak_core import Attack, Defend, new_game, preset
from durak_core.actions import ATTACK, TAKE


@pytest.mark.slow
async def test_one_two_seat_game_is_counted_consistently() -> None:
    report = await tc.run(
        tc.Options(
            games_per_config=1,
            seats=(2,),
            presets=("classic",),
            seed=3,
            think_seconds=(0.0, 0.0),
            table_edit_interval_seconds=0.05,
        )
    )
    tc.check(report)  # every figure finite, every game finished
    overall = report["overall"]
    assert report["games"] == overall["games"] == overall["finished"] == 1
    roles = overall["roles"]
    defender, attacker, everyone = roles["defender"], roles["attacker"], roles["all"]
    assert defender["beaten_cards"] > 0 and everyone["bouts"] > 0
    # Every beaten card took at least the click that played it; aims only add clicks.
    assert defender["defend_clicks"] >= defender["beaten_cards"]
    assert overall["clicks_per_beaten_card"] >= 1.0
    assert everyone["hand_open_clicks"] == 2  # each player pressed "My hand" once
    assert attacker["lead_clicks"] <= everyone["bouts"]  # one lead per bout (R10)
    assert attacker["attacker_bouts_said_done"] <= attacker["attacker_bouts_could_pass"]
    assert attacker["done_clicks"] >= attacker["attacker_bouts_said_done"]
    assert everyone["clicks"] == (
        defender["defend_clicks"]
        + defender["take_clicks"]
        + defender["transfer_clicks"]
        + attacker["lead_clicks"]
        + attacker["throw_in_clicks"]
        + attacker["done_clicks"]
        + everyone["hand_open_clicks"]
    )
    assert everyone["player_bouts"] == 2 * everyone["bouts"]
    assert everyone["channel_creates"] >= 1  # the table message
    assert everyone["minutes"] > 0 and math.isfinite(overall["messages_per_table_minute"]["total"])
    assert report["configs"]["2-classic"]["roles"] == roles
    # Clicks go out as soon as the action is offered, on hands the bot refreshes only at its
    # idle pace when their buttons stay the same: still, no legal click is refused.
    assert overall["refused_offered_clicks"] == 0 and overall["refused_clicks"] == 0


def test_policy_leads_lowest_non_trump_and_beats_cheaply() -> None:
    state = new_game(preset("classic"), 2, seed=11)
    view = state.view(state.attacker)
    lead = tc.choose(view)
    assert isinstance(lead, Attack) and lead.kind == ATTACK
    trump = view.trump
    plain = [c for c in view.hand if c.suit != trump]
    best = min(plain or view.hand, key=lambda c: tc.low_key(c, trump))
    assert lead.card is best
    # The defender answers with the lowest card that beats the lead, non-trumps first (R13).
    state, _ = state.apply(state.attacker, lead)
    d = state.view(state.defender)
    answer = tc.choose(d)
    beats = [a.card for a in d.legal_actions if isinstance(a, Defend)]
    if beats:
        cheapest = min(beats, key=lambda c: tc.low_key(c, trump))
        assert isinstance(answer, Defend) and answer.card is cheapest
    else:
        assert answer is not None and answer.kind == TAKE
