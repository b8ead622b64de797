"""A saved state is checked against its own log (docs/engine.md, "Playing to the end, results,
replay, JSON").

Every tampered snapshot below was accepted before loading replayed the log; each is refused now,
with a :class:`StateFormatError` that names the field that differs or the log entry that fails.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given, settings

from durak_core import (
    DurakError,
    GameState,
    ReplayError,
    RuleSet,
    SeatError,
    StateFormatError,
    new_game,
    replay,
    replay_json,
)
from durak_core.actions import PASS
from durak_core.board import FIELDS
from durak_core.serialize import state_from_json, state_to_json, state_to_model
from durak_core.snapshot import SnapshotWriter

from .helpers import deal_exact
from .strategies import games, random_playthrough

Saved = dict[str, Any]


def states(seats: int = 3, seed: int = 11) -> list[GameState]:
    """Every state of one random game, from the deal to the end."""
    rng = random.Random(seed)
    s = new_game(RuleSet(), seats, seed=seed)
    out = [s]
    while not s.finished:
        s, _ = s.apply(*rng.choice(s.legal_moves()))
        out.append(s)
    return out


def saved(where: Callable[[GameState], bool], seats: int = 3) -> Saved:
    """The JSON of the first state of a random game where ``where`` holds."""
    for seed in range(11, 40):
        for s in states(seats, seed):
            if where(s):
                d: Saved = json.loads(s.to_json())
                assert state_from_json(json.dumps(d)) == s  # untouched, it loads
                return d
    raise AssertionError("no such state")


def refused(d: Saved, *named: str) -> str:
    """Load ``d``; it must be refused with a message naming every one of ``named``."""
    with pytest.raises(StateFormatError) as info:
        state_from_json(json.dumps(d))
    message = str(info.value)
    for word in named:
        assert word in message, message
    return message


def mid_bout(s: GameState) -> bool:
    return bool(s.att) and s.talon != () and not s.finished


# --- a card twice ---------------------------------------------------------------------------


def test_a_card_twice_in_a_hand_is_refused() -> None:
    d = saved(mid_bout)
    d["hands"][1].append(d["hands"][1][0])
    refused(d, "hands[1] (seat 1)")


def test_a_card_twice_in_the_discard_is_refused() -> None:
    d = saved(lambda s: bool(s.discard) and not s.finished)
    d["discard"].append(d["discard"][0])
    refused(d, "discard")


def test_a_card_twice_in_the_known_cards_is_refused() -> None:
    # R8: the lowest trump was shown, so its holder has a known card
    d = saved(lambda s: any(s.known) and not s.finished)
    seat = next(t for t, k in enumerate(d["known"]) if k)
    d["known"][seat].append(d["known"][seat][0])
    refused(d, f"known[{seat}]")


# --- every card present once, but moved -------------------------------------------------------


def test_a_talon_card_moved_into_a_hand_is_refused() -> None:
    d = saved(lambda s: len(s.talon) > 2 and s.version == 0)
    d["hands"][0].append(d["talon"].pop(0))  # a seventh card
    assert len(d["hands"][0]) == 7
    message = refused(d, "hands[0] (seat 0)")
    assert d["hands"][0][-1] not in message  # the secret card is not told


def test_a_card_moved_from_hand_to_hand_is_refused() -> None:
    d = saved(lambda s: s.version == 0)
    d["hands"][1].append(d["hands"][0].pop())
    refused(d, "hands[0] (seat 0)")


def test_a_talon_card_moved_to_the_discard_is_refused() -> None:
    d = saved(lambda s: len(s.talon) > 2 and s.version > 0)
    d["discard"].append(d["talon"].pop(0))
    refused(d, "talon")


# --- roles and the bout -----------------------------------------------------------------------


def test_r9_a_defender_not_next_after_the_attacker_is_refused() -> None:
    d = saved(mid_bout)
    d["defender"] = 3 - d["attacker"] - d["defender"]  # the third seat
    refused(d, "defender is")


def test_r13_taken_with_nothing_unbeaten_is_refused() -> None:
    d = saved(lambda s: bool(s.att) and not s.unbeaten and not s.taken)
    d["taken"] = True
    refused(d, "taken is True")


def test_r15_the_defender_in_passed_is_refused() -> None:
    d = saved(mid_bout)
    d["passed"] = sorted({*d["passed"], d["defender"]})
    refused(d, "passed is")


def test_r15_a_seat_that_does_not_exist_in_passed_is_refused() -> None:
    d = saved(mid_bout)
    d["passed"] = [*d["passed"], 7]
    refused(d, "passed is")


def test_r12_a_limit_above_what_the_defender_held_is_refused() -> None:
    d = saved(lambda s: 0 < s.limit < 6 and not s.finished)
    d["limit"] = 6
    refused(d, "limit is 6", "replays to")


@pytest.mark.parametrize("field", ["bout", "version"])
def test_a_negative_count_is_refused(field: str) -> None:
    d = saved(mid_bout)
    d[field] = -1
    refused(d, field)


# --- the log --------------------------------------------------------------------------------


def test_a_cut_log_is_refused() -> None:
    d = saved(lambda s: s.version > 10)
    d["log"].pop()
    refused(d, "version is", f"log of {len(d['log'])} actions")


def test_a_changed_log_is_refused_naming_the_entry() -> None:
    d = saved(lambda s: s.version > 10)
    d["log"][4] = "9 pass"  # no such seat
    message = refused(d, "log entry 4", "'9 pass'")
    assert "R3" in message


def test_a_log_changed_to_another_legal_move_is_refused() -> None:
    # The last move swapped for another legal one: the log replays, the snapshot differs.
    for s in states(3, 12)[5:]:
        before = replay(s.rules, s.n, seed=s.seed, actions=s.log[:-1])
        others = [m for m in before.legal_moves() if m != s.log[-1]]
        if others:
            d: Saved = json.loads(s.to_json())
            seat, action = others[0]
            d["log"][-1] = f"{seat} {action}"
            refused(d, "does not match its log")
            return
    raise AssertionError("no state with a choice")


def test_an_order_with_a_card_twice_is_refused() -> None:
    d = saved(lambda s: s.version > 3)
    d["order"][1] = d["order"][0]
    refused(d, "order differs")


def test_an_explicit_order_with_a_card_twice_is_refused() -> None:
    g = deal_exact(["6S 7S 8S 9S 10S JS", "6H 7H 8H 9H 10H JH"], "AD")
    d: Saved = json.loads(g.to_json())
    assert d["seed"] is None
    d["order"][1] = d["order"][0]
    refused(d, "R1", "twice")


# --- the replay a caller can restore from ------------------------------------------------------


def test_replay_json_gives_the_logs_state_and_the_difference() -> None:
    s = states(3, 13)[20]
    d: Saved = json.loads(s.to_json())
    d["defender"] = d["attacker"]
    restored, problem = replay_json(json.dumps(d))
    assert restored == s and restored.to_json() == s.to_json()
    assert problem is not None and "defender" in problem
    assert replay_json(s.to_json()) == (s, None)


def test_replay_names_the_entry_that_fails() -> None:
    s = states(2, 5)[12]
    moves = [f"{t} {a}" for t, a in s.log]
    moves[7] = "0 attack 6S" if moves[7] != "0 attack 6S" else "1 attack 6S"
    with pytest.raises(ReplayError) as info:
        replay(s.rules, s.n, seed=s.seed, actions=moves)
    assert info.value.index == 7 and info.value.move == moves[7]
    assert f"log entry 7 ({moves[7]!r})" in str(info.value)


# --- small ones -----------------------------------------------------------------------------


def test_r3_view_of_a_seat_that_does_not_exist_is_a_durak_error() -> None:
    g = new_game(RuleSet(), 3, seed=1)
    for bad in (7, -1, True, "0", 1.0):
        with pytest.raises(SeatError, match="R3"):
            g.view(bad)
    assert issubclass(SeatError, DurakError) and issubclass(SeatError, ValueError)
    assert g.view(1).seat == 1


def test_r10_the_main_attacker_may_not_pass_before_the_opening_card() -> None:
    g = new_game(RuleSet(), 3, seed=1)
    with pytest.raises(DurakError, match=r"^R10: .*must open the bout"):
        g.apply(g.attacker, "pass")
    assert not any(a.kind == PASS for a in g.legal_actions(g.attacker))


def test_copy_carries_every_field() -> None:
    s = states(3, 14)[30]
    t = s.copy()
    working = {"hands", "att", "dfn"}  # the engine's working lists: the copy's own
    for name in FIELDS:
        if name in working:
            assert getattr(t, name) == getattr(s, name) and getattr(t, name) is not getattr(s, name)
        elif name != "_legal":
            value = getattr(s, name)
            assert getattr(t, name) == value, name
            if isinstance(value, tuple):  # immutable: shared, not copied (a compiled int is
                assert getattr(t, name) is value, name  # boxed anew on each read: no `is`)
    assert t == s and t is not s
    assert {n for n in FIELDS if type(getattr(s, n)) is list} - {"_legal"} == working


def test_the_json_names_no_field_the_state_lacks() -> None:
    # Every snapshot field is either a state field or spelled from them (seats, table, log).
    from durak_core.serialize import StateModel

    spelled = {"schema_version", "seats", "table", "log"}
    missing = set(StateModel.model_fields) - spelled - set(FIELDS)
    assert not missing, missing


def test_v11_no_trump_is_none_in_the_state_and_its_views() -> None:
    plain = new_game(RuleSet(), 2, seed=4)
    assert plain.trump is not None and plain.trump == plain.view(0).trump
    bare = new_game(RuleSet(no_trump=True), 2, seed=4)
    assert bare.trump is None and bare.view(0).trump is None and bare.public_view().trump is None


@settings(max_examples=40, deadline=None)
@given(games())
@pytest.mark.slow
def test_the_direct_json_is_the_models_json(game: tuple[RuleSet, int, int, int]) -> None:
    """``to_json`` writes the snapshot directly (it runs on every saved action): the text is
    the schema's own, ``StateModel``'s, at every moment of games of every preset."""
    for s in random_playthrough(*game):
        assert state_to_json(s) == state_to_model(s).model_dump_json()


# No deadline: two whole games per example, whose length varies fivefold (pure Python under
# load took 353 ms for one, over hypothesis's default of 200 ms).
@pytest.mark.slow  # over a second: out of the quick subset
@settings(deadline=None)
@given(games(), games())
def test_the_snapshot_writer_writes_what_to_json_writes(
    first: tuple[RuleSet, int, int, int], second: tuple[RuleSet, int, int, int]
) -> None:
    """A table's ``SnapshotWriter`` keeps its log's text between saves: at every moment of a
    game, then of another game at the same table (a rematch: a shorter log), then of an
    earlier state again (a restore), its text is the state's own snapshot."""
    write = SnapshotWriter()
    played = list(random_playthrough(*first))
    for s in [*played, *random_playthrough(*second), played[len(played) // 2], played[-1]]:
        assert write(s) == state_to_json(s)
