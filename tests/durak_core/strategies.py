"""Hypothesis strategies: random games of every preset and seat count."""

from __future__ import annotations

import random
from collections.abc import Iterator

from hypothesis import reject
from hypothesis import strategies as st

from durak_core import PRESETS, GameState, RulesError, RuleSet, new_game
from durak_core.rules import MAX_SEATS, MIN_SEATS, OPTIONS

MAX_ACTIONS = 3000  # far above any real game; a game that does not end fails the test


def _tables() -> list[tuple[str, int]]:
    out = []
    for name, rules in PRESETS.items():
        for seats in range(2, 7):
            try:
                rules.check_seats(seats)
            except RulesError:
                continue
            out.append((name, seats))
    return out


TABLES = _tables()


@st.composite
def games(draw: st.DrawFn) -> tuple[RuleSet, int, int, int]:
    """(rules, seats, deal seed, play seed)."""
    name, seats = draw(st.sampled_from(TABLES))
    seed = draw(st.integers(min_value=0, max_value=2**256 - 1))
    play_seed = draw(st.integers(min_value=0, max_value=2**32))
    return PRESETS[name], seats, seed, play_seed


def random_playthrough(
    rules: RuleSet, seats: int, seed: int, play_seed: int
) -> Iterator[GameState]:
    """Every state of one random game, from the deal to the end (public API, checked)."""
    rng = random.Random(play_seed)
    s = new_game(rules, seats, seed=seed)
    yield s
    for _ in range(MAX_ACTIONS):
        if s.finished:
            return
        moves = s.legal_moves()
        assert moves, f"nobody can act in a running game: {s!r}"
        seat, action = rng.choice(moves)
        s, _ = s.apply(seat, action)
        yield s
    raise AssertionError("the game did not end")


@st.composite
def option_tables(draw: st.DrawFn) -> tuple[RuleSet, int]:
    """(rules, seats): any combination of the declared rule options that the rules allow, at a
    seat count it allows. Each option is drawn from its declaration (not from the presets), so
    a new option joins every test that uses this."""
    values: dict[str, object] = {}
    for option in OPTIONS:
        # off three times in four, so that combinations stay valid often enough to draw
        off = st.just(option.off)
        values[option.field] = draw(
            st.one_of(off, off, off, st.sampled_from([v for v in option.takes if v != option.off]))
        )
    for option in OPTIONS:  # what a set option needs is set too (V18: V1)
        if option.is_set(values[option.field]):
            values |= {
                OPTIONS.by_rule[rule].field: OPTIONS.by_rule[rule].on for rule in option.needs
            }
    for option, other in OPTIONS.clashes(values):  # of a conflicting pair, the declaring one goes
        if other.rule in option.conflicts:
            values[option.field] = option.off
    try:
        rules = RuleSet.from_options(values)
    except RulesError:  # what the declarations do not say (V15 needs 52 cards, …)
        reject()
    fits = []
    for seats in range(MIN_SEATS, MAX_SEATS + 1):
        try:
            rules.check_seats(seats)
        except RulesError:
            continue
        fits.append(seats)
    if not fits:
        reject()
    return rules, draw(st.sampled_from(fits))
