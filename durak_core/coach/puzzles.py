"""Endgame puzzles: a two-seat position with an empty talon, where the side to move wins by
force with exactly one first move (docs/ai.md, "Puzzles: how they are made").

Everything here is pure: the shipped set is text the caller reads (:func:`parse_puzzles`), a
play-through is a value changed only by :meth:`PuzzlePlay.play`, and the daily choice is a
function of numbers the caller supplies (:func:`daily_number`), never of a clock.

Seat 0 is the player and attacks first; seat 1 defends. Both seats know every card (the talon
is empty, everything else is in the discard pile, R23), so the exact solver
(:class:`~durak_core.ai.endgame.EndgameSolver`) plays the defence and judges each move. Turns
follow the one order every simulation here uses (:mod:`durak_core.ai.schedule`).

>>> from durak_core import parse_action
>>> line = ("0 attack AS", "1 take", "0 attack 6S", "1 defend 6S 7S")
>>> play = PuzzlePlay(Puzzle(1, "AS 6S", "7S", "6H", "easy", line))
>>> [str(a) for a in play.choices()]
['attack 6S', 'attack AS']
>>> play.play(parse_action("attack AS")).status
'playing'
>>> play.play(parse_action("attack 6S")).status
'solved'
>>> [f"{seat} {a}" for seat, a in play.moves] == list(line)
True
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Final, Literal

from ..actions import PASS, TAKE, Action
from ..ai.cardinfo import card_table
from ..ai.endgame import EndgameSolver, OutOfBudget, outcome, position_key
from ..ai.schedule import next_actor
from ..cards import Card, Suit, parse_cards
from ..errors import DurakError
from ..fast import apply_unchecked
from ..rules import RuleSet
from ..serialize import parse_move, position
from ..state import GameState
from ..views import SeatView

#: The version of the data file's layout; :func:`parse_puzzles` refuses any other.
PUZZLE_FORMAT: Final = 1
#: The grades, by the real decisions on the solution (:mod:`.puzzle_shape`).
GRADES: Final = ("easy", "medium", "hard")
#: The player's seat (it attacks first) and the solver's (it defends first).
PLAYER: Final = 0
DEFENCE: Final = 1
#: Nodes the solver may search per move while a puzzle is played: a shipped puzzle's whole
#: proof took at most the generator's budget (30 000), and every later position is smaller.
PLAY_NODE_LIMIT: Final = 1_000_000

Status = Literal["playing", "solved", "failed"]


class PuzzleFormatError(DurakError):
    """A puzzle, or the data file holding them, that cannot be loaded (a ``ValueError``)."""


class PuzzleOverError(DurakError):
    """A move after the puzzle was solved or failed."""


def rules() -> RuleSet:
    """Puzzles are played under the shipped rules (classic, seeds/004)."""
    return RuleSet(name="classic")


@dataclass(frozen=True)
class Puzzle:
    """One puzzle: the hands (notation, R2), the trump card (played: no talon is left), its
    grade, and its solution — the solver's line from the start, ``"SEAT ACTION"`` each."""

    number: int
    attacker: str
    defender: str
    trump: str
    grade: str
    line: tuple[str, ...]

    def start(self) -> GameState:
        """The position, at the start of a bout with seat 0 to attack."""
        return position(rules(), [self.attacker, self.defender], trump=self.trump, attacker=0)

    @property
    def first_move(self) -> Action:
        """The one winning first move."""
        return parse_move(self.line[0])[1]

    @property
    def cards(self) -> int:
        return len(self.attacker.split()) + len(self.defender.split())


def player_moves(line: Sequence[str]) -> int:
    """How many of a line's moves are the player's (a puzzle needs two or more)."""
    return sum(1 for m in line if parse_move(m)[0] == PLAYER)


# -- the data file ------------------------------------------------------------------------------


def dump_puzzles(puzzles: Sequence[Puzzle], meta: dict[str, object]) -> str:
    """The data file's text: one JSON document, one puzzle per line (diffs stay readable)."""
    head = json.dumps({"format": PUZZLE_FORMAT, "meta": meta}, sort_keys=True)
    rows = [
        json.dumps(
            {
                "number": p.number,
                "attacker": p.attacker,
                "defender": p.defender,
                "trump": p.trump,
                "grade": p.grade,
                "line": list(p.line),
            }
        )
        for p in puzzles
    ]
    return head[:-1] + ', "puzzles": [\n' + ",\n".join(rows) + "\n]}\n"


def parse_puzzles(text: str) -> tuple[Puzzle, ...]:
    """The puzzles of a data file, numbered 1, 2, … in order; anything malformed raises
    :class:`PuzzleFormatError` naming the puzzle and what is wrong. Each line is replayed
    through the engine (legal, and won by the player); the proof that it is forced and that
    the first move is the only winning one is the generator's and the tests' (:func:`verify`)."""
    try:
        doc = json.loads(text)
    except ValueError as exc:
        raise PuzzleFormatError(f"the puzzle file is not JSON: {exc}") from None
    if not isinstance(doc, dict) or doc.get("format") != PUZZLE_FORMAT:
        raise PuzzleFormatError(f"the puzzle file is not of format {PUZZLE_FORMAT}")
    raw = doc.get("puzzles")
    if not isinstance(raw, list) or not raw:
        raise PuzzleFormatError("the puzzle file has no list of puzzles")
    out = []
    for i, item in enumerate(raw, 1):
        out.append(_puzzle(i, item))
    return tuple(out)


def _puzzle(number: int, item: object) -> Puzzle:
    where = f"puzzle {number}"
    if not isinstance(item, dict):
        raise PuzzleFormatError(f"{where} is not an object")
    if item.get("number") != number:
        raise PuzzleFormatError(f"{where} is numbered {item.get('number')!r}")
    texts = [item.get(k) for k in ("attacker", "defender", "trump", "grade")]
    line = item.get("line")
    if not all(isinstance(x, str) for x in texts) or not isinstance(line, list):
        raise PuzzleFormatError(f"{where}: attacker, defender, trump, grade and line are needed")
    if not line or not all(isinstance(m, str) for m in line):
        raise PuzzleFormatError(f"{where}: the line must be a non-empty list of moves")
    attacker, defender, trump, grade = (str(x) for x in texts)
    if grade not in GRADES:
        raise PuzzleFormatError(f"{where}: grade {grade!r} is not one of {', '.join(GRADES)}")
    puzzle = Puzzle(number, attacker, defender, trump, grade, tuple(str(m) for m in line))
    try:
        hands = [parse_cards(attacker), parse_cards(defender)]
        trump_card = Card.parse(trump)
        if not hands[0] or not hands[1]:
            raise PuzzleFormatError(f"{where}: both seats need cards")
        held = hands[0] + hands[1]
        if len(set(held)) != len(held) or trump_card.suit is None:
            raise PuzzleFormatError(f"{where}: a card is held twice, or the trump has no suit")
        s = puzzle.start()
        for move in puzzle.line:
            seat, action = parse_move(move)
            if seat != next_actor(s):
                raise PuzzleFormatError(f"{where}: {move!r} is out of turn")
            s, _ = s.apply(seat, action)
    except PuzzleFormatError:
        raise
    except DurakError as exc:
        raise PuzzleFormatError(f"{where}: {exc}") from None
    if not s.finished or outcome(s, PLAYER) != 1.0:
        raise PuzzleFormatError(f"{where}: the line does not end in the player's win")
    return puzzle


# -- proving --------------------------------------------------------------------------------------


def solver_for(s: GameState, node_limit: int | None) -> EndgameSolver:
    """A solver scoring from the player's side; its table is kept between judgements."""
    trump = None if s.trump_suit < 0 else Suit(s.trump_suit)
    return EndgameSolver(PLAYER, card_table(s.rules, trump), node_limit=node_limit)


def judge(solver: EndgameSolver, s: GameState) -> tuple[float, Action | None]:
    """The exact value of ``s`` for the player (+1 a forced win, 0 a draw, -1 a loss) and the
    move the solver plays there (None when the game is over). Raises ``OutOfBudget``."""
    if s.finished:
        return outcome(s, PLAYER), None
    value, action, exact = solver.prove(s.copy())
    if not exact:  # a full-depth pass cuts nothing off; this would be a solver bug
        raise OutOfBudget
    return value, action


def winning_moves(solver: EndgameSolver, s: GameState) -> list[Action]:
    """Every first move of the seat to move (the player) that keeps a forced win."""
    seat = next_actor(s)
    assert seat == PLAYER
    out = []
    for a in s.legal_actions(seat):
        child = s.copy()
        apply_unchecked(child, seat, a)
        if judge(solver, child)[0] == 1.0:
            out.append(a)
    return out


def ordered(solver: EndgameSolver, s: GameState, seat: int) -> list[Action]:
    """``seat``'s legal actions cheapest first (done before any card, taking last): the fixed
    order in which ties are broken, so a line never depends on what the solver searched
    before."""
    value = solver.ct.value

    def cost(a: Action) -> int:
        if a.kind == PASS:
            return -1
        if a.kind == TAKE:
            return 10_000
        return value[a.c]

    return sorted(s.legal_actions(seat), key=lambda a: (cost(a), a.code))


#: A position's identity (:func:`~durak_core.ai.endgame.position_key`).
Key = tuple[object, ...]


def resistance(solver: EndgameSolver, s: GameState, memo: dict[Key, int]) -> int:
    """How many moves a forced win ``s`` lasts when the player plays its first winning move in
    :func:`ordered` order and the defence the move that makes this longest: the longest
    resistance against that player. ``memo`` keeps each position's count (pass the same dict
    for positions of one puzzle)."""
    if s.finished:
        return 0
    key = position_key(s)
    found = memo.get(key)
    if found is not None:
        return found
    seat = next_actor(s)
    assert seat is not None
    best = -1
    for a in ordered(solver, s, seat):
        child = s.copy()
        apply_unchecked(child, seat, a)
        if seat == PLAYER:
            if judge(solver, child)[0] == 1.0:
                best = 1 + resistance(solver, child, memo)
                break
        else:
            best = max(best, 1 + resistance(solver, child, memo))
    assert best > 0, "not a forced win"
    memo[key] = best
    return best


def best_move(solver: EndgameSolver, s: GameState, memo: dict[Key, int]) -> tuple[int, Action]:
    """The seat to move and its move: the player's first winning move in :func:`ordered`
    order; the defence's best result — a win, else a draw, else, every move losing, the
    longest resistance (:func:`resistance`); ties go to the first in that order."""
    seat = next_actor(s)
    assert seat is not None
    best: tuple[float, Action] | None = None
    losing: list[tuple[GameState, Action]] = []
    for a in ordered(solver, s, seat):
        child = s.copy()
        apply_unchecked(child, seat, a)
        value = judge(solver, child)[0]
        if seat == PLAYER:
            value = -value  # the player wants the highest, the defence the lowest
        elif value == 1.0:
            losing.append((child, a))
        if best is None or value < best[0]:
            best = (value, a)
        if value == -1.0:  # nothing is better
            break
    assert best is not None
    if seat != PLAYER and best[0] == 1.0:  # every reply loses: resist longest
        longest = max(losing, key=lambda pair: resistance(solver, pair[0], memo))
        return seat, longest[1]
    return seat, best[1]


def solution_line(solver: EndgameSolver, s: GameState) -> tuple[str, ...]:
    """Both seats' best moves (:func:`best_move`) from a forced win to the end."""
    s = s.copy()
    memo: dict[Key, int] = {}
    line = []
    while not s.finished:
        seat, action = best_move(solver, s, memo)
        line.append(f"{seat} {action}")
        apply_unchecked(s, seat, action)
    return tuple(line)


@dataclass(frozen=True)
class Verdict:
    """What the solver says of a position as a puzzle."""

    forced_win: bool
    winning: tuple[Action, ...]


def verify(puzzle: Puzzle, node_limit: int | None = None) -> Verdict:
    """Prove a puzzle again: is the start a forced win, and which first moves win?"""
    s = puzzle.start()
    solver = solver_for(s, node_limit)
    value, _ = judge(solver, s)
    return Verdict(value == 1.0, tuple(winning_moves(solver, s)))


# -- playing --------------------------------------------------------------------------------------


@dataclass
class PuzzlePlay:
    """A puzzle being played: the player clicks one legal action at a time; the solver answers
    for the defence until the player is to move again. A move that gives up the forced win
    fails the puzzle at once; a game won solves it."""

    puzzle: Puzzle
    node_limit: int | None = PLAY_NODE_LIMIT
    state: GameState = field(init=False)
    #: Every move so far, both seats', ``(seat, action)``.
    moves: list[tuple[int, Action]] = field(default_factory=list, init=False)
    status: Status = field(default="playing", init=False)
    _solver: EndgameSolver = field(init=False, repr=False)
    #: :func:`resistance` of the positions met so far (the defence's choices).
    _lengths: dict[Key, int] = field(default_factory=dict, init=False, repr=False)

    def __post_init__(self) -> None:
        self.state = self.puzzle.start()
        self._solver = solver_for(self.state, self.node_limit)

    def view(self) -> SeatView:
        """What the player sees now (the bot shows only this and :func:`their_cards`)."""
        return self.state.view(PLAYER)

    def choices(self) -> tuple[Action, ...]:
        """The player's legal actions now (none once the puzzle is over)."""
        if self.status != "playing":
            return ()
        return self.state.legal_actions(PLAYER)

    def play(self, action: Action) -> PuzzlePlay:
        """The player's move, checked by the engine (an illegal one raises
        :class:`~durak_core.errors.IllegalActionError`), then the solver's replies. Raises
        ``OutOfBudget`` if the solver cannot judge within ``node_limit`` nodes for this move,
        and :class:`PuzzleOverError` once the puzzle is over; either way nothing changes."""
        if self.status != "playing":
            raise PuzzleOverError(f"puzzle {self.puzzle.number} is {self.status} already")
        state, _ = self.state.apply(PLAYER, action)
        self._solver.nodes = 0  # the budget is per move
        value, _ = judge(self._solver, state)
        moves = [(PLAYER, action)]
        if value == 1.0:
            while not state.finished and next_actor(state) == DEFENCE:
                _, reply = best_move(self._solver, state, self._lengths)
                state, _ = state.apply(DEFENCE, reply)
                moves.append((DEFENCE, reply))
        self.state = state
        self.moves += moves
        if value < 1.0:
            self.status = "failed"
        elif state.finished:
            self.status = "solved"  # every move kept the forced win, so the player won
        return self


def their_cards(v: SeatView) -> list[Card]:
    """The other seat's hand as the player knows it by memory: with the talon empty, every
    card of the deck not in this hand, on the table or seen going to the discard pile."""
    seen = set(v.hand) | set(v.discarded)
    for attack, defence in v.table:
        seen.add(attack)
        if defence is not None:
            seen.add(defence)
    return [c for c in v.rules.deck() if c not in seen]


# -- the daily puzzle -----------------------------------------------------------------------------


def daily_number(guild_id: int, day: int, count: int) -> int:
    """The puzzle (1..count) of a server on a day (days since 1970-01-01, UTC): the same for
    everyone there that day, and spread evenly over the set by a hash of both."""
    if count < 1:
        raise ValueError("no puzzles to choose from")
    digest = hashlib.sha256(f"durak-puzzle:{guild_id}:{day}".encode()).digest()
    return int.from_bytes(digest[:8], "big") % count + 1


__all__ = [
    "DEFENCE",
    "GRADES",
    "PLAYER",
    "PUZZLE_FORMAT",
    "Puzzle",
    "PuzzleFormatError",
    "PuzzleOverError",
    "PuzzlePlay",
    "Verdict",
    "best_move",
    "daily_number",
    "dump_puzzles",
    "judge",
    "ordered",
    "parse_puzzles",
    "player_moves",
    "resistance",
    "solution_line",
    "solver_for",
    "their_cards",
    "verify",
    "winning_moves",
]
