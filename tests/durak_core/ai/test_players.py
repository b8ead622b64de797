"""Every AI level plays only legal actions (R25: it gets the view and its history, nothing else)
across every preset and seat count; the factory and the protocol."""

from __future__ import annotations

import pickle

import pytest

from durak_core import PRESETS, RuleSet, new_game
from durak_core.ai import LEVELS, Budget, Level, Player, make_player
from durak_core.ai.match import play_game

from .helpers import valid_seat_counts

CASES = [(name, n) for name, rules in PRESETS.items() for n in valid_seat_counts(rules)]


@pytest.mark.slow
@pytest.mark.parametrize(("preset_name", "seats"), CASES)
def test_every_level_plays_legally_in_every_preset(preset_name: str, seats: int) -> None:
    # play_game applies each choice with the checked API: an illegal action raises (R10-R16).
    rules = PRESETS[preset_name]
    levels = [LEVELS[(seats + k) % len(LEVELS)] for k in range(seats)]
    budget = Budget(None, iterations=4)
    players = [make_player(lv, seed=k, budget=budget) for k, lv in enumerate(levels)]
    rec = play_game(rules, players, seed=seats * 101 + len(preset_name))
    assert rec.result.finishing_order or rec.result.durak is not None


@pytest.mark.parametrize("level", LEVELS)
def test_each_level_finishes_two_seat_games(level: Level) -> None:
    budget = Budget(None, iterations=6)
    for seed in range(2):
        players = [make_player(level, seed, budget), make_player(Level.EASY, seed)]
        play_game(RuleSet(), players, seed=seed)


def test_factory_rejects_unknown_levels() -> None:
    with pytest.raises(ValueError, match="unknown AI level"):
        make_player("godlike", 1)  # type: ignore[arg-type]


def test_players_satisfy_the_protocol() -> None:
    for level in LEVELS:
        p: Player = make_player(level, 3)
        assert p.name == level


def test_same_view_history_and_seed_give_the_same_decision_even_after_other_calls() -> None:
    """The bot may restart and re-create players: a decision depends only on (view, history,
    seed), not on earlier calls."""
    from durak_core import new_game

    g = new_game(RuleSet(), 3, seed=11)
    v = g.view(g.starter)
    budget = Budget(None, iterations=30)
    fresh = make_player(Level.HARD, 5, budget).choose(v, [])
    used = make_player(Level.HARD, 5, budget)
    other = new_game(RuleSet(), 2, seed=2)
    used.choose(other.view(other.starter), [])
    assert used.choose(v, []) is fresh


@pytest.mark.parametrize("level", LEVELS)
def test_each_level_survives_pickling(level: Level) -> None:
    # The bot hands players to worker processes by pickle (Hard's class may be compiled).
    g = new_game(RuleSet(), 2, seed=11)
    view = g.view(g.starter)
    labels = ("human", "easy")
    player = make_player(level, 5, Budget(None, iterations=8), seats=labels)
    copy = pickle.loads(pickle.dumps(player, pickle.HIGHEST_PROTOCOL))
    assert type(copy) is type(player)
    assert getattr(copy, "seats", labels) == labels  # Hard keeps what the table shows
    assert copy.choose(view, []) is player.choose(view, [])
