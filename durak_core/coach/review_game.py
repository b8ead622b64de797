"""Reviewing a whole game for one seat: its decisions, replayed from the game's record, and
the summary of their reviews (docs/ai.md, "Reading a review").

:func:`decisions` replays a recorded game (:class:`~durak_core.verify.GameLog`, with the
series' earlier games for the dealer, R22) and stops at each of the seat's moves that had a
choice: the seat's view at that moment, the events it had seen, the action it took. Only those
go to the review (:func:`~durak_core.coach.review.review_decision`), never the full state.

>>> from durak_core import RuleSet, new_game
>>> from durak_core.verify import GameLog
>>> s = new_game(RuleSet(), 2, seed=5)
>>> while not s.finished:
...     seat = next(p for p in range(2) if s.legal_actions(p))
...     s, _ = s.apply(seat, s.legal_actions(seat)[0])
>>> found = decisions(GameLog.of(s, seed=5), (), seat=0)
>>> all(len(d.view.legal_actions) > 1 and d.chosen in d.view.legal_actions for d in found)
True
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ..actions import Action
from ..errors import DurakError
from ..events import Event, visible_to
from ..rules import RuleSet
from ..serialize import legacy_move, parse_move
from ..series import Series
from ..state import GameState, new_game
from ..verify import GameLog, reads_legacy_shows
from ..views import SeatView
from .review import ACCURATE_POINTS, DecisionReview, DecisionTask, ReviewBudget

#: The biggest swings a summary lists.
SWINGS = 3


class BadRecord(ValueError):
    """The record does not replay (a corrupt or foreign log): nothing to review."""


@dataclass(frozen=True, slots=True)
class Decision:
    """One of the seat's moves with a choice, as the seat saw it."""

    number: int  # the move's number in the log, 1-based
    view: SeatView
    history: tuple[Event, ...]
    chosen: Action

    def task(self, budget: ReviewBudget, seed: int) -> DecisionTask:
        return DecisionTask(self.number, self.chosen, budget, seed)


def _start(log: GameLog, earlier: Sequence[GameLog], legacy: bool) -> GameState:
    """The game as dealt: the seed's deck, with the dealer the series' earlier games fix."""
    try:
        rules = RuleSet.from_options(log.rules)
        series = Series(rules, log.seats)
        for past in earlier:
            s = _replay(past, rules, series, legacy)
            assert s.result is not None
            series.record(s.result, s.dealer)
        return new_game(
            rules,
            log.seats,
            seed=int(log.seed, 16),
            dealer=series.next_dealer(),
            first_game=series.first_game,
        )
    except (DurakError, TypeError, ValueError, AssertionError) as exc:
        raise BadRecord(str(exc)) from exc


def _replay(log: GameLog, rules: RuleSet, series: Series, legacy: bool) -> GameState:
    s = new_game(
        rules,
        log.seats,
        seed=int(log.seed, 16),
        dealer=series.next_dealer(),
        first_game=series.first_game,
    )
    for text in log.actions:
        seat, action = parse_move(text)
        s, _ = s.apply(seat, legacy_move(s, seat, action) if legacy else action)
    if not s.finished:
        raise BadRecord("the log does not finish the game")
    return s


def decisions(log: GameLog, earlier: Sequence[GameLog], seat: int) -> list[Decision]:
    """The seat's moves that had a choice (two or more legal actions), each with the seat's
    view and visible history just before it. Raises :class:`BadRecord` if the log does not
    replay."""
    if not 0 <= seat < log.seats:
        raise BadRecord(f"seat {seat} is not in a {log.seats}-seat game")
    legacy = reads_legacy_shows(log, earlier)  # a V18 record of before issue #33
    s = _start(log, earlier, legacy)
    events: list[Event] = []
    out: list[Decision] = []
    for number, text in enumerate(log.actions, start=1):
        try:
            mover, action = parse_move(text)
            if legacy:
                action = legacy_move(s, mover, action)
            if mover == seat:
                view = s.view(seat)
                if len(view.legal_actions) > 1:
                    history = tuple(visible_to(events, seat))
                    out.append(Decision(number, view, history, action))
            s, new = s.apply(mover, action)
        except (DurakError, ValueError, IndexError) as exc:
            raise BadRecord(f"move {number} ({text}): {exc}") from exc
        events.extend(new)
    return out


@dataclass(frozen=True, slots=True)
class GameReview:
    """The reviews of one seat's decisions in one game, in order."""

    seat: int
    reviews: tuple[DecisionReview, ...]

    @property
    def accuracy(self) -> float:
        """The share of decisions within :data:`ACCURATE_POINTS` of the best (1.0 if none)."""
        if not self.reviews:
            return 1.0
        return sum(r.loss <= ACCURATE_POINTS for r in self.reviews) / len(self.reviews)

    @property
    def swings(self) -> tuple[DecisionReview, ...]:
        """The biggest losses (at most :data:`SWINGS`, each above the accurate margin), in
        the game's order."""
        big = sorted(
            (r for r in self.reviews if r.loss > ACCURATE_POINTS),
            key=lambda r: (-r.loss, r.number),
        )[:SWINGS]
        return tuple(sorted(big, key=lambda r: r.number))

    def count(self, grade: str) -> int:
        return sum(r.grade == grade for r in self.reviews)

    @property
    def flagged(self) -> tuple[DecisionReview, ...]:
        """Mistakes and blunders, in the game's order."""
        return tuple(r for r in self.reviews if r.grade in ("mistake", "blunder"))

    @property
    def curve(self) -> tuple[float, ...]:
        """The winning chance after each decision (the chosen action's), for the chart."""
        return tuple(r.chosen_chance for r in self.reviews)


def review_game(
    found: Sequence[Decision],
    seat: int,
    budget: ReviewBudget | None = None,
    seed: int = 0,
    progress: Callable[[int, int], None] | None = None,
) -> GameReview:
    """Review every decision in turn (here, in this process; the bot sends each decision to
    its workers instead). ``progress(done, total)`` after each."""
    budget = budget or ReviewBudget()
    out: list[DecisionReview] = []
    for i, d in enumerate(found, start=1):
        out.append(d.task(budget, seed).run(d.view, d.history))
        if progress is not None:
            progress(i, len(found))
    return GameReview(seat, tuple(out))
