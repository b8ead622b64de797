"""Reviewing one decision: how much winning chance the chosen action gave away.

The input is what the seat knew when it acted, never the hidden cards: its
:class:`~durak_core.views.SeatView` and the events it saw (R24, R25), exactly what Hard decides
from. Two ways to score an action:

* **Estimate** (mid-game): Hard's determinized search. Each round deals the hidden cards
  consistently with the view (the same weighted :class:`~durak_core.ai.determinize.Determinizer`
  Hard uses) and plays every candidate action (Hard's root candidates and the chosen action)
  out on that deal with the Normal heuristics (paired: the luck of the deal cancels in the
  comparison). An action's winning chance is the share of playouts in which the seat does not
  end as the Durak (a draw counts half). Half the deals pick the best candidate; fresh deals
  then measure the chosen action against it alone, so the loss is not the luck of the best of
  several noisy estimates.
* **Proof** (two seats, the talon empty or holding only the face-up trump): every card's place
  is known, so the endgame solver proves each legal action's result exactly: 100 (a forced
  win), 50 (a forced draw) or 0 (a forced loss). If the proof does not fit the node budget the
  estimate is used, and says so.

A review is deterministic: the deals come from a generator seeded by the review's seed and the
position (:func:`~durak_core.ai.base_impl.decision_rng`), and the budget counts deals and
solver nodes, not seconds (no clock), so the same decision always gets the same review.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from math import sqrt

from ..actions import ATTACK, DEFEND, PASS, TAKE, Action
from ..ai.base_impl import decision_rng
from ..ai.cardinfo import CardTable
from ..ai.determinize import Determinizer
from ..ai.endgame import EndgameSolver, OutOfBudget, outcome
from ..ai.hard import LACK_WEIGHT, PASSED_OVER_WEIGHT, STRONG_LACK_WEIGHT, candidates
from ..ai.memory import Memory, beat_chance, remember
from ..ai.normal import normal_choice
from ..ai.playout import playout
from ..ai.schedule import next_actor
from ..cards import SAME_RANK, Card
from ..events import Event
from ..fast import apply_unchecked
from ..move_kinds import SPENDS_CARD, move_kind
from ..state import GameState
from ..views import SeatView

#: Winning chance (in points, 0-100) lost by a mistake and by a blunder.
MISTAKE_POINTS = 10
BLUNDER_POINTS = 25
#: Standard errors an estimated loss must clear: a sampled loss is graded on itself less
#: this many (about a 95 % one-sided bound).
SURE_ERRORS = 2.0
#: A decision within this many points of the best counts as accurate.
ACCURATE_POINTS = 5
#: The beat chance below which a card counts as one the defender probably cannot answer.
UNANSWERED = 0.5

#: Why the better action is better (the bot words each one in every language). The first
#: two come from the endgame proof, the rest from the heuristics' own reasons, and
#: ``search`` when none of them applies (the search simply found it wins more often).
REASONS = (
    "proven",
    "keeps_trump",
    "unanswered",
    "pair",
    "defend",
    "take",
    "transfer",
    "show",
    "pass",
    "cheaper",
    "search",
)


@dataclass(frozen=True, slots=True)
class ReviewBudget:
    """The work allowed for one decision: ``deals`` determinizations, each playing every
    candidate out once; ``solver_nodes`` for proving one endgame action."""

    deals: int = 400
    solver_nodes: int = 60_000

    def scaled(self, factor: int) -> ReviewBudget:
        return ReviewBudget(self.deals * factor, self.solver_nodes * factor)


@dataclass(frozen=True, slots=True)
class DecisionReview:
    """One reviewed decision. Chances are from the reviewed seat's side, 0.0-1.0."""

    #: The move's number in the game's log (1-based).
    number: int
    chosen: Action
    best: Action
    chosen_chance: float
    best_chance: float
    #: Both chances are proven endgame results (0, 0.5 or 1), not estimates.
    exact: bool
    #: One of :data:`REASONS` ("" when the chosen action was the best).
    reason: str
    #: The card the reason is about, if any.
    card: Card | None
    #: How many legal actions the seat had and how many were scored.
    options: int
    scored: int
    #: Either chance proven on its own while the other is an estimate (``exact`` is both).
    chosen_proven: bool = False
    best_proven: bool = False
    #: How far the loss may be overstated, as a chance (0.0-1.0): 0 when both values are
    #: proven; for sampled estimates two standard errors of the paired playouts' difference;
    #: where every card is known but a value is not proven, what the proofs leave open.
    margin: float = 0.0

    @property
    def loss(self) -> int:
        """Points of winning chance given away (0-100), as estimated."""
        return max(0, round((self.best_chance - self.chosen_chance) * 100))

    @property
    def sure_loss(self) -> int:
        """The points given away for certain: the loss less its :attr:`margin`."""
        return max(0, round((self.best_chance - self.chosen_chance - self.margin) * 100))

    @property
    def grade(self) -> str:
        """ "blunder" (≥ 25 points), "mistake" (≥ 10), "inaccuracy" (> 5) or "good", of the
        :attr:`sure_loss`: the uncertainty of an estimate never makes a grade worse."""
        loss = self.sure_loss
        if loss >= BLUNDER_POINTS:
            return "blunder"
        if loss >= MISTAKE_POINTS:
            return "mistake"
        if loss > ACCURATE_POINTS:
            return "inaccuracy"
        return "good"


@dataclass(frozen=True, slots=True)
class DecisionTask:
    """A decision to review, as sent to a worker process: ``run(view, history)`` is its
    review (the view and the history travel beside it, as for an AI decision)."""

    number: int
    chosen: Action
    budget: ReviewBudget
    seed: int

    def run(self, view: SeatView, history: Sequence[Event]) -> DecisionReview:
        return review_decision(view, history, self.chosen, self.number, self.budget, self.seed)


def escaped(s: GameState, me: int) -> float:
    """1.0 if ``me`` (or its team, V7) is not the Durak, 0.5 for a draw (R20), 0.0 for the
    Durak. A playout cut short counts by hand sizes."""
    if not s.finished:
        mine = s.hands[me].bit_count()
        others = [s.hands[t].bit_count() for t in range(s.n) if t != me and s.active >> t & 1]
        if not others:
            return 0.5
        return 0.5 + 0.5 * (min(others) > mine) - 0.5 * (mine > max(others))
    return 0.5 + 0.5 * outcome(s, me)


def review_decision(
    view: SeatView,
    history: Sequence[Event],
    chosen: Action,
    number: int = 0,
    budget: ReviewBudget | None = None,
    seed: int = 0,
) -> DecisionReview:
    """Score ``chosen`` against the best action from the seat's information only."""
    legal = view.legal_actions
    if chosen not in legal:
        raise ValueError(f"{chosen} is not one of the seat's legal actions")
    budget = budget or ReviewBudget()
    mem = remember(view, history)
    if len(legal) == 1:
        return DecisionReview(number, chosen, chosen, 0.5, 0.5, False, "", None, 1, 1)
    if view.talon_size <= 1 and len(view.active) == 2:  # every card's place may be known
        proven = _prove(view, mem, chosen, number, budget, seed)
        if proven is not None:
            return proven
    return _estimate(view, history, mem, chosen, number, budget, seed)


def _prove(
    view: SeatView,
    mem: Memory,
    chosen: Action,
    number: int,
    budget: ReviewBudget,
    seed: int,
) -> DecisionReview | None:
    """Every card's place is known (two seats, the talon empty or holding only the face-up
    trump): the position's proven value and the chosen action's, or failing a proof within
    the budget, :func:`_bounded`. None when a card's place is not known (the last card to draw
    is not the face-up trump)."""
    me = view.seat
    deals = Determinizer(view, mem, decision_rng(seed, view))
    if deals.count != 1:
        return None
    state = deals.next()  # the one placement
    nodes = budget.solver_nodes * len(view.legal_actions)
    # One solver throughout: its table of proven positions serves every proof.
    solver = EndgameSolver(me, mem.ct, None, nodes)
    top = _top(solver, state, me, view.legal_actions, chosen)
    mine = None if top is None or top[1] != chosen else top[0]
    if mine is None:  # after a proven root the table holds most of it: cheap
        mine = _proof(solver, state, me, chosen, nodes if top is not None else nodes // 4)
    n = len(view.legal_actions)
    if top is not None and mine is not None:
        best = chosen if mine >= top[0] else top[1]
        worse = top[0] > mine
        return DecisionReview(
            number, chosen, best, 0.5 + 0.5 * mine, 0.5 + 0.5 * max(mine, top[0]), True,
            "proven" if worse else "", None, n, n,
        )  # fmt: skip
    if mine == 1.0:  # a forced win: nothing is better
        return DecisionReview(number, chosen, chosen, 1.0, 1.0, True, "", None, n, n)
    return _bounded(view, mem, state, solver, chosen, number, top, mine, budget)


def _top(
    solver: EndgameSolver, state: GameState, me: int, legal: Sequence[Action], chosen: Action
) -> tuple[float, Action] | None:
    """The position's proven value for ``me`` and an action reaching it, or None. One proof of
    the position when ``me`` is the seat to move in the simulations' order; otherwise (the
    other seat could act first there) a proof of each action in turn, as the budget allows."""
    if next_actor(state) == me:
        try:
            value, action, exact = solver.prove(state.copy())
        except OutOfBudget:
            return None
        return (value, action) if exact else None
    values: dict[Action, float] = {}
    share = (solver.node_limit or 0) // len(legal)
    for action in legal:
        proven = _proof(solver, state, me, action, share)
        if proven is None:
            return None
        values[action] = proven
    best = _best(values, chosen)
    return values[best], best


def _proof(
    solver: EndgameSolver, state: GameState, me: int, action: Action, nodes: int
) -> float | None:
    """``action``'s proven value (-1, 0, +1) within ``nodes`` more nodes, or None."""
    s = state.copy()
    apply_unchecked(s, me, action)
    if s.finished:
        return outcome(s, me)
    solver.nodes, solver.node_limit = 0, nodes
    try:
        value, _, exact = solver.prove(s)
    except OutOfBudget:
        return None
    return value if exact else None


def _bounded(
    view: SeatView,
    mem: Memory,
    state: GameState,
    solver: EndgameSolver,
    chosen: Action,
    number: int,
    top: tuple[float, Action] | None,
    mine: float | None,
    budget: ReviewBudget,
) -> DecisionReview:
    """Every card is known but not every value is proven within the budget: each action not
    proven gets the solver's depth-limited estimate (fewer and stronger cards score better; a
    win it finds is proven), and the review keeps what the proofs bound. The root's proven
    value caps every action's; a proven action's value floors the best one's. The loss is
    certain only down to that floor less that cap (:attr:`DecisionReview.margin`)."""
    me = view.seat
    proven: dict[Action, float] = {}
    guess: dict[Action, float] = {}
    if top is not None:
        proven[top[1]] = top[0]
    if mine is not None:
        proven[chosen] = mine
    share = max(1, budget.solver_nodes // 8)  # a shallow look: the proofs had their turn
    for action in view.legal_actions:
        if action in proven:
            continue
        s = state.copy()
        apply_unchecked(s, me, action)
        if s.finished:
            proven[action] = outcome(s, me)
            continue
        solver.nodes, solver.node_limit = 0, share
        try:
            value, _, exact = solver.solve(s)
        except OutOfBudget:
            guess[action] = 0.0  # not even a shallow pass: nothing known
            continue
        (proven if exact else guess)[action] = value
    values = guess | proven
    best = _best(values, chosen)
    cap = top[0] if top is not None else 1.0  # no action beats the position's value
    floor = max(proven.values(), default=-1.0)  # the best is at least the best proven
    chance = {a: 0.5 + 0.5 * v for a, v in values.items()}
    sure = max(0.0, 0.5 * (floor - proven.get(chosen, cap)))
    margin = max(0.0, chance[best] - chance[chosen] - sure)
    both = chosen in proven and best in proven
    reason, card = ("", None)
    if best is not chosen:
        reason, card = ("proven", None) if both and sure > 0 else why(view, mem, chosen, best)
    n = len(view.legal_actions)
    return DecisionReview(
        number, chosen, best, chance[chosen], chance[best], not guess, reason, card, n, n,
        chosen in proven, best in proven, 0.0 if not guess else margin,
    )  # fmt: skip


def _best(values: dict[Action, float], chosen: Action) -> Action:
    """The highest value; the chosen action among equals (no better action to show)."""
    top = max(values.values())
    if values[chosen] >= top:
        return chosen
    return min((a for a, v in values.items() if v == top), key=lambda a: a.code)


def _estimate(
    view: SeatView,
    history: Sequence[Event],
    mem: Memory,
    chosen: Action,
    number: int,
    budget: ReviewBudget,
    seed: int,
) -> DecisionReview:
    me = view.seat
    rng = decision_rng(seed, view)
    ct = mem.ct
    reference = normal_choice(view, history, lookahead=False)
    cands = candidates(view.legal_actions, reference, ct, view.talon_size, not view.table)
    if chosen not in cands:
        cands.append(chosen)
    det = Determinizer(view, mem, rng, LACK_WEIGHT, STRONG_LACK_WEIGHT, PASSED_OVER_WEIGHT)
    # Two phases, so that the loss is not inflated by picking the luckiest of several noisy
    # estimates: the first half of the deals finds the best candidate, then fresh deals (as
    # many playouts again, shared by two actions only) measure the chosen action against it.
    first = max(1, budget.deals // 2)
    totals = _play(det, me, ct, cands, first)
    chance = {a: v / first for a, v in totals.items()}
    best = _best(chance, chosen)
    if best is chosen:
        return DecisionReview(
            number, chosen, chosen, chance[chosen], chance[chosen], False, "", None,
            len(view.legal_actions), len(cands),
        )  # fmt: skip
    second = max(first, first * len(cands) // 2)
    again, spread = _paired(det, me, ct, chosen, best, second)
    mine = (totals[chosen] + again[chosen]) / (first + second)
    gain = (again[best] - again[chosen]) / second  # paired: the deals' luck cancels
    if gain <= 0.0:  # not confirmed on fresh deals: no better action to show
        return DecisionReview(
            number, chosen, chosen, mine, mine, False, "", None,
            len(view.legal_actions), len(cands),
        )  # fmt: skip
    reason, card = why(view, mem, chosen, best)
    n = len(view.legal_actions)
    return DecisionReview(
        number, chosen, best, mine, min(1.0, mine + gain), False, reason, card, n, len(cands),
        margin=SURE_ERRORS * spread / sqrt(second),
    )  # fmt: skip


def _play(
    det: Determinizer, me: int, ct: CardTable, actions: Sequence[Action], rounds: int
) -> dict[Action, float]:
    """Each round deals once and plays every action out on that deal: their summed scores."""
    totals = dict.fromkeys(actions, 0.0)
    for _ in range(rounds):
        base = det.next()
        for action in actions:
            s = base.copy()
            apply_unchecked(s, me, action)
            playout(s, ct)
            totals[action] += escaped(s, me)
    return totals


def _paired(
    det: Determinizer, me: int, ct: CardTable, chosen: Action, best: Action, rounds: int
) -> tuple[dict[Action, float], float]:
    """:func:`_play` for two actions, and the standard deviation of their difference per
    deal (what the loss's standard error is made of)."""
    totals = {chosen: 0.0, best: 0.0}
    squares = 0.0
    for _ in range(rounds):
        base = det.next()
        scores = []
        for action in (chosen, best):
            s = base.copy()
            apply_unchecked(s, me, action)
            playout(s, ct)
            scores.append(escaped(s, me))
            totals[action] += scores[-1]
        squares += (scores[1] - scores[0]) ** 2
    mean = (totals[best] - totals[chosen]) / rounds
    return totals, sqrt(max(0.0, squares / rounds - mean * mean))


def _plays(a: Action) -> bool:
    """Does ``a`` put its card on the table (a show keeps it in the hand, V18)?"""
    return SPENDS_CARD[a.kind]


def why(view: SeatView, mem: Memory, chosen: Action, best: Action) -> tuple[str, Card | None]:
    """One line of why ``best`` beats ``chosen``, from the heuristics' own reasons (Normal's
    play, :mod:`~durak_core.ai.heuristics`): keep trumps while the talon lasts, lead what the
    defender probably cannot beat, lead a rank you can throw in again, defend rather than take
    a cheap table, take rather than spend trumps, pass the attack on (or show the trump, V18),
    spend the cheaper card."""
    ct: CardTable = mem.ct
    strong = ct.strong
    value = ct.value

    def card_of(a: Action) -> Card | None:
        return Card.from_index(a.c) if a.c >= 0 else None

    spends = _plays(chosen) and bool(strong >> chosen.c & 1)
    keeps = not _plays(best) or not strong >> best.c & 1
    if view.talon_size and spends and keeps:
        return "keeps_trump", card_of(chosen)
    reason = move_kind(best).reason  # passing the attack on (V1, V18)
    if reason is not None:
        return reason, card_of(best)
    if best.kind == DEFEND and chosen.kind == TAKE:
        return "defend", card_of(best)
    if best.kind == TAKE and chosen.kind == DEFEND:
        return "take", card_of(chosen)
    if best.kind == PASS and chosen.kind == ATTACK:
        return "pass", card_of(chosen)
    if best.kind == ATTACK and view.seat != view.defender:
        p_beat = beat_chance(view, mem, view.defender)
        if p_beat[best.c] < UNANSWERED and (chosen.c < 0 or p_beat[chosen.c] >= UNANSWERED):
            return "unanswered", card_of(best)
        pairs = not view.table and (mem.hand & SAME_RANK[best.c]).bit_count() > 1
        if pairs and (chosen.c < 0 or (mem.hand & SAME_RANK[chosen.c]).bit_count() < 2):
            return "pair", card_of(best)
    if _plays(best) and _plays(chosen) and value[best.c] < value[chosen.c]:
        return "cheaper", card_of(best)
    return "search", card_of(best)
