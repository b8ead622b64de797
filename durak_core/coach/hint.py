"""A practice table's hint: Hard's suggested action for a seat, and one reason why.

The hint is the game review's question asked before the move instead of after it
(:mod:`.review`): the action Normal's heuristics would play stands in for the player's, and
Hard's search (a proof in a two-seat endgame, otherwise paired playouts on deals consistent
with the view) scores it against Hard's candidates. The suggestion is the best of them; its
reason is the review's reason why it beats the heuristic move, or none when the heuristic move
is itself the best (the search found nothing better). Like a review, a hint sees only the
seat's :class:`~durak_core.views.SeatView` and the events it saw (R24, R25), and is
deterministic: the same position, seed and budget give the same hint.

>>> from durak_core import RuleSet, new_game
>>> s = new_game(RuleSet(), 2, seed=4)
>>> seat = s.starter
>>> hint = HintTask(ReviewBudget(deals=8, solver_nodes=500), seed=1).run(s.view(seat), ())
>>> hint.best in s.legal_actions(seat)
True
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..ai.normal import normal_choice
from ..events import Event
from ..views import SeatView
from .review import DecisionReview, ReviewBudget, review_decision

#: A hint's work: a fraction of a reviewed decision's (``ReviewBudget``), so that it answers
#: within about two seconds on a shared machine.
HINT_BUDGET = ReviewBudget(deals=100, solver_nodes=15_000)


@dataclass(frozen=True, slots=True)
class HintTask:
    """A hint to compute, as sent to a worker process: ``run(view, history)`` is the hint (the
    view and the history travel beside it, as for a reviewed decision). The answer is a
    :class:`~.review.DecisionReview` whose ``best`` is the suggestion and whose ``reason``
    (with ``card``) says why it beats ``chosen``, the heuristic move ("": nothing better)."""

    budget: ReviewBudget = HINT_BUDGET
    seed: int = 0

    def run(self, view: SeatView, history: Sequence[Event]) -> DecisionReview:
        return hint(view, history, self.budget, self.seed)


def hint(
    view: SeatView,
    history: Sequence[Event],
    budget: ReviewBudget = HINT_BUDGET,
    seed: int = 0,
) -> DecisionReview:
    """Hard's suggestion for ``view.seat`` now; raises ``ValueError`` without a choice (fewer
    than two legal actions: nothing to suggest)."""
    if len(view.legal_actions) < 2:
        raise ValueError("a hint needs a choice of at least two legal actions")
    heuristic = normal_choice(view, history, lookahead=False)
    return review_decision(view, history, heuristic, 0, budget, seed)
