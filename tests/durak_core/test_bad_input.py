"""Bad input: each a typed error (a ValueError naming its rule), the state unchanged."""

from __future__ import annotations

import pytest

from durak_core import (
    ActionNotationError,
    GameOverError,
    GameState,
    IllegalActionError,
    RulesError,
    RuleSet,
    StateFormatError,
    new_game,
    parse_action,
    position,
)
from durak_core.serialize import state_from_json

from .helpers import deal_exact, play

HANDS = ["6S 7S 8C 9D 7H JS", "7D 8S QS 6C KH 9C", "10D 6D 10C 7C 10S AS"]


def game() -> GameState:
    return deal_exact(HANDS, trump="AH")


def unchanged(
    g: GameState, seat: object, action: object, error: type[Exception], match: str
) -> None:
    before = g.to_json()
    with pytest.raises(error, match=match) as err:
        g.apply(seat, action)
    assert isinstance(err.value, ValueError)
    assert g.to_json() == before


@pytest.mark.parametrize("text", ["attack 1H", "attack", "defend 7S", "attack 6S 7S", "", "fold"])
def test_unknown_token_or_verb(text: str) -> None:
    unchanged(game(), 0, text, ActionNotationError, "not an action|not a card|R2")


def test_seat_not_entitled_to_act() -> None:
    g = game()
    unchanged(g, 1, "attack 7D", IllegalActionError, "R10")
    g = play(g, "0 attack 7S")
    unchanged(g, 2, "defend 7S 10S", IllegalActionError, "R13")  # only the defender beats
    unchanged(g, 1, "attack 7D", IllegalActionError, "R9")  # the defender never attacks


@pytest.mark.parametrize("seat", [-1, 3, 99, "0", None, True])
def test_no_such_seat(seat: object) -> None:
    unchanged(game(), seat, "attack 6S", IllegalActionError, "R3")


def test_card_not_in_hand() -> None:
    unchanged(game(), 0, "attack KS", IllegalActionError, "R24: seat 0 does not hold KS")


def test_card_already_played() -> None:
    g = play(game(), "0 attack 7S", "1 defend 7S 8S", "0 pass", "2 pass")
    # the bout ended defended: 7S is in the discard pile
    unchanged(g, 1, "attack 7S", IllegalActionError, "R16: 7S was already played")


def test_a_seventh_seat() -> None:
    with pytest.raises(RulesError, match="R3"):
        new_game(RuleSet(), 7, seed=1)


def test_any_action_after_the_game_ended() -> None:
    g = play(
        position(RuleSet(), ["6S", "KS"], trump="AH", attacker=0), "0 attack 6S", "1 defend 6S KS"
    )
    assert g.finished
    for seat, text in [(0, "attack 7S"), (1, "take"), (0, "pass")]:
        unchanged(g, seat, text, GameOverError, "R20")


def test_not_an_action_object() -> None:
    unchanged(game(), 0, 42, IllegalActionError, "R2")


def test_new_game_argument_errors() -> None:
    with pytest.raises(RulesError, match="exactly one"):
        new_game(RuleSet(), 2)
    with pytest.raises(RulesError, match="R4"):
        new_game(RuleSet(), 2, seed=-1)
    with pytest.raises(RulesError, match="twice"):
        new_game(RuleSet(), 2, order=["6S"] * 36)
    with pytest.raises(RulesError, match="lacks"):
        new_game(RuleSet(), 2, order=list(RuleSet().deck())[:35])
    with pytest.raises(RulesError, match="not in the 36-card deck"):
        new_game(RuleSet(), 2, order=[*list(RuleSet().deck())[:35], "2S"])
    with pytest.raises(RulesError, match="dealer"):
        new_game(RuleSet(), 2, seed=1, dealer=5)


@pytest.mark.parametrize(
    "mutate",
    [
        lambda d: d.update(schema_version=2),
        lambda d: d["hands"][0].append(d["hands"][1][0]),  # one card in two hands
        lambda d: d["hands"][0].pop(),  # a card missing
        lambda d: d.update(attacker=d["defender"]),
        lambda d: d.update(seats=9),
        lambda d: d["hands"][0].append("ZZ"),
        lambda d: d.update(unknown_field=1),
    ],
)
def test_corrupt_json_is_rejected(mutate: object) -> None:
    import json

    d = json.loads(game().to_json())
    mutate(d)  # type: ignore[operator]
    with pytest.raises(StateFormatError):
        state_from_json(json.dumps(d))


def test_garbage_json_is_rejected() -> None:
    for text in ["", "{", "[]", "null", '{"schema_version": 1}']:
        with pytest.raises(StateFormatError):
            state_from_json(text)


def test_parse_action_round_trips_every_code() -> None:
    from durak_core import Action
    from durak_core.actions import NUM_ACTION_CODES

    for code in range(0, NUM_ACTION_CODES, 7):
        a = Action.from_code(code)
        assert a.code == code and parse_action(str(a)) is a
    with pytest.raises(ActionNotationError):
        Action.from_code(NUM_ACTION_CODES)
