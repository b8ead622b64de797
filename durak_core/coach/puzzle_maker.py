"""Making puzzles from AI self-play (``durak puzzles generate``; docs/ai.md, "Puzzles: how they
are made").

Seeded two-seat games between the AI players run until the talon is empty; every later bout's
start with few enough cards in hand is a candidate. The solver, within a node budget per
candidate (a deterministic limit, not a time: the same seed makes the same set on any machine),
keeps a candidate only if it is a forced win for the attacker with exactly one winning first
move and a solution of at least two of the player's moves, and only one of each shape
(:func:`~.puzzle_shape.shape`: the same puzzle with other suits or ranks is skipped); the grade
counts the real decisions on the solution (:func:`~.puzzle_shape.grade_of`). Pure: the only
randomness is a ``random.Random`` of the caller's seed. A run can resume from the puzzles an
earlier run of the same settings found (``games`` of them played): it plays those games again
to know the positions met, without judging them, so it makes the same set as one run.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

from ..ai import Level, make_player
from ..ai.endgame import OutOfBudget
from ..ai.schedule import next_actor
from ..cards import Card
from ..events import Event, visible_to
from ..rules import RuleSet
from ..state import GameState, new_game
from .puzzle_shape import decisions, grade_of, shape
from .puzzles import (
    PLAYER,
    Puzzle,
    judge,
    player_moves,
    rules,
    solution_line,
    solver_for,
    winning_moves,
)

#: Which AI plays each seat of a self-play game, by game number: Normal's endgames, Easy's
#: cruder ones, and the two mixed, for positions of different kinds.
PAIRINGS = ((Level.NORMAL, Level.NORMAL), (Level.EASY, Level.NORMAL), (Level.EASY, Level.EASY))


@dataclass(frozen=True)
class MakerSettings:
    seed: int
    count: int
    #: Cards in both hands together: candidates outside are skipped (the solver's cost grows
    #: steeply past twelve).
    min_cards: int = 5
    max_cards: int = 12
    #: Solver nodes per candidate; a candidate that needs more is skipped.
    node_limit: int = 30_000
    #: Stop after this many games even if ``count`` is not reached.
    max_games: int = 100_000


@dataclass
class MakerStats:
    games: int = 0
    candidates: int = 0
    over_budget: int = 0
    not_won: int = 0
    not_unique: int = 0
    too_short: int = 0
    #: Candidates of a shape met before (another puzzle's, or one judged already).
    same_shape: int = 0


Key = tuple[int, ...]


def endgame_starts(rules_: RuleSet, seed: int, levels: tuple[Level, Level]) -> Iterator[GameState]:
    """The bout starts of one seeded self-play game once the talon is empty (both seats still
    in), each a copy."""
    rng = random.Random(seed)
    players = [make_player(level, rng.getrandbits(32)) for level in levels]
    state = new_game(rules_, 2, seed=rng.getrandbits(64))
    histories: list[list[Event]] = [[], []]
    while not state.finished:
        if not state.talon and not state.att and state.active == 0b11:
            yield state.copy()
        seat = next_actor(state)
        assert seat is not None
        action = players[seat].choose(state.view(seat), tuple(histories[seat]))
        state, events = state.apply(seat, action)
        for t in (0, 1):
            histories[t].extend(visible_to(events, t))


def as_puzzle(s: GameState, number: int) -> tuple[Puzzle, Key]:
    """A bout start as a puzzle position: its attacker becomes seat 0; the puzzle's identity
    (``Key``) is its :func:`~.puzzle_shape.shape`."""
    a, d = s.attacker, s.defender
    hands = [sorted(_cards(s.hands[seat]), key=lambda c: c.index) for seat in (a, d)]
    trump = Card.from_index(s.trump_card)
    text = [" ".join(str(c) for c in h) for h in hands]
    puzzle = Puzzle(number, text[0], text[1], str(trump), "", ())
    return puzzle, shape(puzzle)


def _cards(mask: int) -> list[Card]:
    return [Card.from_index(i) for i in range(mask.bit_length()) if mask >> i & 1]


def examine(puzzle: Puzzle, settings: MakerSettings, stats: MakerStats) -> Puzzle | None:
    """The puzzle with its solution and grade, or None (counted in ``stats``) if the position
    is not one."""
    start = puzzle.start()
    solver = solver_for(start, settings.node_limit)
    try:
        value, _ = judge(solver, start)
        if value != 1.0:
            stats.not_won += 1
            return None
        winning = winning_moves(solver, start)
        if len(winning) != 1:
            stats.not_unique += 1
            return None
        solver.node_limit = None  # the line follows proven positions: cheap
        line = solution_line(solver, start)
        found = decisions(Puzzle(puzzle.number, puzzle.attacker, puzzle.defender,
                                 puzzle.trump, "", line))  # fmt: skip
    except OutOfBudget:
        stats.over_budget += 1
        return None
    assert line and line[0] == f"{PLAYER} {winning[0]}"
    moves = player_moves(line)
    if moves < 2:
        stats.too_short += 1
        return None
    grade = grade_of(found.real, found.traps)
    return Puzzle(puzzle.number, puzzle.attacker, puzzle.defender, puzzle.trump, grade, line)


def make_puzzles(
    settings: MakerSettings,
    progress: Callable[[int, MakerStats], None] | None = None,
    resume: Sequence[Puzzle] = (),
    games: int = 0,
    checkpoint: Callable[[list[Puzzle], MakerStats], None] | None = None,
) -> tuple[list[Puzzle], MakerStats]:
    """Up to ``settings.count`` puzzles, in the order found, numbered from 1. ``resume``: the
    puzzles of an earlier run of these settings after its first ``games`` games (its
    ``stats.games``, all of whose candidates it judged): they are kept and the run goes on
    from there. ``checkpoint(found, stats)`` after each game judged to its end: what such a
    resume needs."""
    rng = random.Random(settings.seed)
    stats = MakerStats()
    seen: set[Key] = set()
    found: list[Puzzle] = list(resume)
    base = rules()
    while len(found) < settings.count and stats.games < settings.max_games:
        levels = PAIRINGS[stats.games % len(PAIRINGS)]
        game_seed = rng.getrandbits(64)
        replaying = stats.games < games  # judged by the earlier run: only note the shapes
        stats.games += 1
        for s in endgame_starts(base, game_seed, levels):
            cards = sum(h.bit_count() for h in s.hands)
            if not settings.min_cards <= cards <= settings.max_cards:
                continue
            candidate, key = as_puzzle(s, len(found) + 1)
            if key in seen:
                stats.same_shape += 1
                continue
            seen.add(key)
            if replaying:
                continue
            stats.candidates += 1
            puzzle = examine(candidate, settings, stats)
            if puzzle is not None:
                found.append(puzzle)
                if progress is not None:
                    progress(len(found), stats)
                if len(found) >= settings.count:
                    break
        else:
            if checkpoint is not None and not replaying:
                checkpoint(found, stats)
    return found, stats
