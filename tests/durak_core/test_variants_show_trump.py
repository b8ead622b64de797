"""V18, transfer by showing the trump: with V1, the defender may pass the same attack on by
showing the trump of the attack's rank (``show <card>``), which stays in the hand and becomes
known; once per bout per player. Playing that trump (``transfer <card>``) stays an ordinary V1
transfer: the defender chooses (docs/rules.md)."""

from __future__ import annotations

import json
import random

import pytest

from durak_core import (
    Action,
    Card,
    GameState,
    IllegalActionError,
    RulesError,
    RuleSet,
    Show,
    new_game,
    parse_action,
    position,
    replay,
    state_from_json,
)
from durak_core.actions import NUM_ACTION_CODES, SHOW, TRANSFER, show
from durak_core.ai import Level, make_player
from durak_core.ai.match import play_game
from durak_core.cards import cards_of
from durak_core.coach.review_game import decisions
from durak_core.events import ActionTaken, PlayerOut, visible_to
from durak_core.explain import why_illegal
from durak_core.verify import GameLog, reads_legacy_shows, verify_game

from .helpers import SHOW_RULES, deal_exact, legal, play, v18_attacked

SIX = Card.parse("6H")


def test_v18_needs_v1() -> None:
    with pytest.raises(RulesError, match=r"V18.*V1"):
        RuleSet(transfer_by_trump=True)


def test_v18_show_and_play_are_both_offered() -> None:
    g, _ = v18_attacked()
    assert {"transfer 6H", "show 6H"} <= set(legal(g, 1))
    assert "show KS" not in legal(g, 1)  # only a trump of the attack's rank is shown


def test_v18_showing_the_trump_passes_the_same_attack_on_and_keeps_the_card() -> None:
    g, _ = v18_attacked()
    g, events = g.apply(1, "show 6H")
    assert (g.attacker, g.defender) == (1, 2)
    assert [a for a, _ in g.public_view().table] == [Card.parse("6S")]  # the same attack
    assert SIX in cards_of(g.hands[1]) and g.hand_size(1) == 3  # shown, not played
    assert g.limit == 3 and "take" in legal(g, 2)  # counted against the new defender (V1)
    # everyone sees the shown trump: a known card of that hand, and the action in every log
    assert SIX in g.public_view().known[1]
    assert all(SIX in g.view(seat).known[1] for seat in range(3))
    for seat in (None, 0, 1, 2):
        assert ActionTaken(1, parse_action("show 6H")) in visible_to(events, seat)


def test_v18_playing_the_trump_is_a_v1_transfer() -> None:
    g = play(v18_attacked()[0], "1 transfer 6H")
    assert SIX not in cards_of(g.hands[1]) and len(g.public_view().table) == 2
    assert (g.attacker, g.defender) == (1, 2) and SIX not in g.view(0).known[1]


def test_v18_playing_a_last_trump_empties_the_hand_and_the_player_goes_out() -> None:
    # talon empty: seat 1 transfers with its only card and is out (R18), which a show would
    # not do (the card would stay in the hand)
    g = position(SHOW_RULES, ["6S 9D", "6H", "8D 9C JH KH"], trump="AH", attacker=0)
    g = play(g, "0 attack 6S")
    assert {"transfer 6H", "show 6H"} <= set(legal(g, 1))
    g = play(g, "1 transfer 6H")
    assert g.hand_size(1) == 0 and (g.attacker, g.defender) == (1, 2)
    g, events = g.apply(2, "take")
    assert g.out == (1,) and PlayerOut(seat=1, place=1) in events
    shown = play(position(SHOW_RULES, ["6S 9D", "6H", "8D 9C JH KH"], trump="AH", attacker=0),
                 "0 attack 6S", "1 show 6H", "2 take")  # fmt: skip
    assert shown.hand_size(1) == 1 and 1 not in shown.out


def test_v18_nothing_else_of_the_hand_becomes_known() -> None:
    g = play(v18_attacked()[0], "1 show 6H")
    for seat in (0, 2):
        assert g.view(seat).known[1] == frozenset({SIX})


def test_v18_once_per_bout_per_player_then_the_trump_may_still_be_played() -> None:
    g = position(SHOW_RULES, ["6S 6D 9D 10D JD", "6H KS KC QS"], trump="AH", attacker=0)
    g = play(g, "0 attack 6S", "1 show 6H")  # shown: seat 0 defends the same 6S
    assert (g.attacker, g.defender) == (1, 0) and g.hand_size(1) == 4
    g = play(g, "0 transfer 6D")  # played (V1): seat 1 faces 6S and 6D
    assert (g.attacker, g.defender) == (0, 1)
    assert "show 6H" not in legal(g, 1) and "transfer 6H" in legal(g, 1)
    assert why_illegal(g, 1, parse_action("show 6H")) == (
        "V18",
        "seat 1 has already shown a trump this bout",
    )
    with pytest.raises(IllegalActionError, match="V18"):
        g.apply(1, "show 6H")
    g = play(g, "1 transfer 6H")  # the trump played, as V1 plays it
    assert SIX not in cards_of(g.hands[1])
    assert len(g.public_view().table) == 3 and (g.attacker, g.defender) == (1, 0)


def test_v18_a_player_may_show_again_in_a_later_bout() -> None:
    g = position(SHOW_RULES, ["6S 7S AS 9D", "6H KS KC QC"], trump="AH", attacker=0)
    g = play(g, "0 attack 6S", "1 show 6H", "0 take", "1 pass")  # bout 1: shown, taken
    g = play(g, "1 attack KS", "0 defend KS AS", "1 pass")  # bout 2: defended
    g = play(g, "0 attack 6S", "1 show 6H")  # bout 3: shown again
    assert SIX in cards_of(g.hands[1]) and len(g.public_view().table) == 1


def test_v18_a_show_adds_no_card_for_the_next_defender_to_face() -> None:
    # seat 2 holds one card: a transfer that adds a card is refused (V1), a show is not
    g = position(SHOW_RULES, ["6S 9D", "6H 6C KS", "8D"], trump="AH", attacker=0)
    g = play(g, "0 attack 6S")
    assert "show 6H" in legal(g, 1)
    assert "transfer 6H" not in legal(g, 1) and "transfer 6C" not in legal(g, 1)
    assert why_illegal(g, 1, parse_action("transfer 6H"))[0] == "V1"
    with pytest.raises(IllegalActionError, match="V1"):
        g.apply(1, "transfer 6C")


def test_v18_a_show_needs_room_for_the_attack_as_it_is() -> None:
    # two sixes to face, and seat 2 holds one card: no transfer, no show
    g = position(SHOW_RULES, ["6S 6D 9D", "6H KS KC", "8D"], trump="AH", attacker=0)
    g = play(g, "0 attack 6S", "0 attack 6D")
    assert not {"show 6H", "transfer 6H"} & set(legal(g, 1))
    assert why_illegal(g, 1, parse_action("show 6H"))[0] == "V18"


@pytest.mark.parametrize(
    ("moves", "seat", "action", "sentence"),
    [
        ([], 0, "show 6D", "only the defender (seat 1) may show a trump"),
        (["1 take"], 1, "show 6H", "no show after a take"),
        (["0 attack 6D", "1 defend 6D KH"], 1, "show 6H", "no show once an attack card is beaten"),
        ([], 1, "show KH", "KH is not a trump of the attack cards' rank"),
    ],
)
def test_v18_an_illegal_show_names_v18(
    moves: list[str], seat: int, action: str, sentence: str
) -> None:
    g = position(SHOW_RULES, ["6S 6D 9D", "6H KH KC", "8D 9C JH"], trump="AH", attacker=0)
    g = play(g, "0 attack 6S", *moves)
    assert why_illegal(g, seat, parse_action(action)) == ("V18", sentence)


def test_v18_without_v18_there_is_no_show_and_the_trump_is_played() -> None:
    rules = RuleSet(transfer=True)
    g = position(rules, ["6S 9D", "6H KS KC", "8D 9C JH"], trump="AH", attacker=0)
    g = play(g, "0 attack 6S")
    assert "show 6H" not in legal(g, 1)
    assert why_illegal(g, 1, parse_action("show 6H")) == (
        "V18",
        "transfer by showing the trump is not part of these rules",
    )
    g = play(g, "1 transfer 6H")
    assert SIX not in cards_of(g.hands[1]) and len(g.public_view().table) == 2


def test_v18_the_notation_round_trips_and_the_codes_come_after_the_others() -> None:
    a = parse_action("show 6h")
    assert isinstance(a, Show) and a.kind == SHOW and a.card == SIX
    assert str(a) == "show 6H" and parse_action(str(a)) is a and Action.from_code(a.code) is a
    assert parse_action("show 6♥") is a
    shows = [Action.from_code(code) for code in range(NUM_ACTION_CODES - 108, NUM_ACTION_CODES)]
    assert all(isinstance(s, Show) for s in shows)  # the last codes, one per card index


def test_existing_action_codes_are_unchanged() -> None:
    # Stored button ids and AI encodings hold codes: V18's shows were appended after them.
    pinned = {
        "attack 6S": 4,
        "attack AH": 51,
        "transfer 6S": 112,
        "take": 216,
        "pass": 217,
        "exchange": 218,
        "defend 6S 7S": 656,
        "show 6H": 11926,
    }
    assert {text: parse_action(text).code for text in pinned} == pinned
    assert NUM_ACTION_CODES == 11883 + 108


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_v18_exactly_the_legal_actions_are_accepted(seats: int) -> None:
    rng = random.Random(seats)
    shows = 0
    for game in range(3):
        s = new_game(SHOW_RULES, seats, seed=rng.getrandbits(256))
        codes = rng.sample(range(NUM_ACTION_CODES), 80)
        for _ in range(120):
            if s.finished:
                break
            for seat in range(s.n):
                allowed = set(s.legal_actions(seat))
                shown = {a for a in allowed if a.kind == SHOW}
                shows += len(shown)
                for a in {Action.from_code(c) for c in codes} | allowed | shown:
                    assert s.can(seat, a) == (a in allowed), (game, str(a))
            seat, action = rng.choice(s.legal_moves())
            s, _ = s.apply(seat, action)
            assert s.status() == ()


@pytest.mark.slow  # over a second: out of the quick subset
@pytest.mark.parametrize("level", [Level.EASY, Level.NORMAL, Level.HARD])
def test_v18_the_ai_plays_a_whole_game(level: Level) -> None:
    players = [make_player(level, seed=seat) for seat in range(3)]
    record = play_game(SHOW_RULES, players, seed=18)
    assert record.result is not None


def test_v18_who_has_shown_survives_saving_and_loading() -> None:
    """A restarted bot loads a state by replaying its log: a seat that has shown this bout may
    still not show again in that bout."""
    g = deal_exact(["6H 7S 7D 9D 10D JD", "7H KS KC QS 8C 9C"], "AH", rules=SHOW_RULES)
    g = play(g, "0 attack 7S", "1 show 7H", "0 transfer 7D")  # 6H, lowest trump: seat 0
    loaded = state_from_json(g.to_json())
    assert loaded == g and loaded.shown == g.shown
    assert "show 7H" not in legal(loaded, 1) and "transfer 7H" in legal(loaded, 1)


def test_v18_nothing_to_show_without_a_trump() -> None:
    rules = RuleSet(transfer=True, transfer_by_trump=True, no_trump=True)  # V11
    g = position(rules, ["6S 9D", "6H KS KC", "8D 9C JH"], trump="AH", attacker=0)
    g = play(g, "0 attack 6S")
    assert "show 6H" not in legal(g, 1)
    assert why_illegal(g, 1, parse_action("show 6H"))[0] == "V18"
    g = play(g, "1 transfer 6H")
    assert SIX not in cards_of(g.hands[1])  # played, as V1 plays it


# --- logs written before the show was its own action (issue #33) -----------------------------


def _old_style_game(seats: int, seed: int) -> GameState:
    """A V18 game played as the engine played it before issue #33: a transfer with a trump that
    could be shown was always a show (so no such trump is ever played)."""
    rng = random.Random(seed)
    s = new_game(SHOW_RULES, seats, seed=seed)
    while not s.finished:
        moves = [
            (seat, a)
            for seat, a in s.legal_moves()
            if not (a.kind == TRANSFER and s.can(seat, show(a.card)))  # type: ignore[attr-defined]
        ]
        s, _ = s.apply(*rng.choice(moves))
    return s


def _old_spelling(moves: list[str]) -> list[str]:
    return [m.replace(" show ", " transfer ") for m in moves]


def _old_style_game_with_shows() -> tuple[GameState, int]:
    for seed in range(100):
        g = _old_style_game(2, seed)
        if any(a.kind == SHOW for _, a in g.log):
            return g, seed
    raise AssertionError("no show in 100 games")


def test_v18_a_state_saved_before_issue_33_loads_as_it_was_played() -> None:
    g, _ = _old_style_game_with_shows()
    for cut in range(1, len(g.log) + 1):  # every moment of the game, as then saved
        moment = replay(SHOW_RULES, 2, seed=g.seed, actions=g.log[:cut])
        data = json.loads(moment.to_json())
        data["log"] = _old_spelling(data["log"])
        assert state_from_json(json.dumps(data)) == moment


def test_v18_a_record_of_before_issue_33_verifies_and_reviews() -> None:
    g, seed = _old_style_game_with_shows()
    log = GameLog.of(g, seed=seed)
    old = log.replace(actions=_old_spelling(list(log.actions)))
    assert old.actions != log.actions
    assert verify_game(log).ok and not reads_legacy_shows(log)
    assert verify_game(old).ok and reads_legacy_shows(old)
    shows = [d.chosen for seat in range(2) for d in decisions(old, (), seat)]
    assert any(a.kind == SHOW for a in shows)  # reviewed as the shows they were
