# Compiled with mypyc at install (.build/backend.py): after an edit its group runs as Python
# until the next install (durak_core/compiled_sources.py).
"""Hard: card memory, determinized Monte Carlo search with heuristic playouts, exact deal
enumeration near the end of the talon, and an exact endgame solver for two seats.

One decision:

1. A single legal action is returned at once (no search).
2. Two seats left and an empty talon: every card's place is known, so
   :class:`~durak_core.ai.endgame.EndgameSolver` searches the game tree: first one full-depth
   narrow-window pass that tries to prove the result (a proven win or draw is played at once),
   then, if that does not finish or proves a loss, iterative deepening (alpha-beta,
   transposition table, cheapest-first ordering) with the rest of the budget.
3. Otherwise: determinized Monte Carlo with statistics shared at the root. Each round deals
   the hidden cards consistently with the view (:class:`~durak_core.ai.determinize.Determinizer`;
   every possible placement when there are few, e.g. near the end of the talon), weighting
   against cards a seat is inferred to lack (it took or passed, :mod:`~durak_core.ai.memory`), and
   plays every competing root action out on that deal with the Normal heuristics for every
   seat (paired comparison); in a two-seat game a playout stops where the endgame starts and
   scores a model fitted to the exact solver (:mod:`~durak_core.ai.endgame_value`; the
   heuristics' own end of the game matches the exact result in only ~81%); weak actions
   are dropped by successive halving, and Normal's choice is replaced only by an action with
   a clear paired advantage.
4. A seat the table shows as Easy (``seats``, public) is played by Easy's published,
   deterministic rules inside the search: in the playouts, and in the endgame solver, which
   then follows Easy's one reply instead of assuming the best one. Against a seat shown as
   Normal, an endgame not won against the best replies is first searched for a trap
   (Normal's endgame look-ahead is deterministic, :meth:`HardPlayer._trap`).

The budget (:class:`~durak_core.ai.base.Budget`) is checked between iterations and inside the
solver. ``choose`` is a plain synchronous CPU-bound function: the bot should run it in a worker
thread (``asyncio.to_thread``; it releases the loop, though the GIL means one search at a time
per process) or a process pool for several simultaneous searches.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Final

from ..actions import ATTACK, DEFEND, Action
from ..events import Event
from ..fast import apply_unchecked, legal_actions
from ..move_kinds import SPENDS_CARD
from ..state import GameState
from ..views import SeatView
from .base import Budget
from .base_impl import decision_rng
from .cardinfo import CardTable
from .determinize import Deals, Determinizer
from .endgame import EndgameSolver, OutOfBudget, outcome
from .endgame_value import EndgameModel, endgame_model
from .keep import keep_weights
from .memory import Memory, remember
from .normal import endgame_reply, normal_choice
from .playout import playout_value
from .root_stats import clear_gain, halve, halvings
from .schedule import next_actor

#: By kind: the action spends a card of the hand (the table of move kinds, read per candidate).
_SPENDS_CARD: Final = SPENDS_CARD
#: Iterations per decision when the budget has seconds but no clock to measure them.
DEFAULT_ITERATIONS = 200
#: Root actions searched at most (cheapest first, plus Normal's choice, take and pass).
MAX_CANDIDATES = 6
#: Solver nodes allowed per budget iteration when the budget counts iterations.
NODES_PER_ITERATION = 100
#: Talon size from which the game counts as early for :func:`lapse` (a 36-card two-seat game
#: starts with 24).
EARLY_TALON = 10
#: Rounds before the first halving of the root candidates may come (the budget sets when).
HALVING_ROUNDS = 8
#: Relative weight of dealing a hidden card to a seat presumed to lack it (it took while a
#: card it would beat stood unbeaten, or passed while its rank lay on the table), and the
#: weight for a trump-like card: players keep those on purpose (Normal takes a cheap table
#: rather than spend a high trump), so that inference is weaker.
LACK_WEIGHT = 0.25
STRONG_LACK_WEIGHT = 0.6
#: Relative weight of dealing a seat a card it passed over: it beat a lone card with a dearer
#: one although this card would have beaten it (most players answer with their cheapest card).
PASSED_OVER_WEIGHT = 0.4
#: Share of the endgame budget for the attempt to prove the result outright, and the point
#: by which a search for a trap against a seat shown as Normal must have finished.
PROVE_SHARE = 0.6
TRAP_SHARE = 0.85
#: Share of the budget for proving a win at the last draw (:meth:`HardPlayer._last_draw`).
LAST_DRAW_SHARE = 0.8


class HardPlayer:
    name = "hard"

    def __init__(self, seed: int, budget: Budget | None = None, seats: Sequence[str] = ()) -> None:
        self.seed = seed
        self.budget = budget or Budget()
        #: What the table shows for every seat (public): an AI level, or e.g. "human".
        self.seats = tuple(seats)
        #: Statistics of the last decision (for benchmarks and debugging).
        self.last_iterations = 0
        self.last_mode = ""
        #: Playouts run when each halving of the root candidates came, in the last search.
        self.last_cuts: tuple[int, ...] = ()
        #: The share of the search's time gone at each of those halvings (empty without a clock).
        self.last_cut_shares: tuple[float, ...] = ()
        self._start: float | None = None
        self._deadline: float | None = None

    def __reduce__(self) -> tuple[type[HardPlayer], tuple[int, Budget, tuple[str, ...]]]:
        # The bot sends players to worker processes; a compiled class unpickles through
        # __init__, so give its arguments (the statistics stay behind).
        return (HardPlayer, (self.seed, self.budget, self.seats))

    def _stop_after(self, share: float) -> Callable[[], bool] | None:
        """A stop test for ``share`` of the time budget (None without a clock)."""
        b = self.budget
        clock = b.clock
        if b.seconds is None or clock is None:
            return None
        start = self._start if self._start is not None else clock()
        deadline = start + b.seconds * 0.93 * share

        def stop() -> bool:
            return clock() >= deadline

        return stop

    def _prover(
        self, seat: int, ct: CardTable, share: float, nodes: int | None, easy: int
    ) -> EndgameSolver:
        """A solver for ``seat`` limited to ``share`` of the time budget and of ``nodes``."""
        limit = None if nodes is None else int(nodes * share)
        return EndgameSolver(seat, ct, self._stop_after(share), limit, easy)

    def _limits(self) -> tuple[Callable[[], bool], int | None]:
        b = self.budget
        iterations = b.iterations
        clock = b.clock
        if b.seconds is not None and clock is not None:
            # Stop a little early: the last iteration and the answer still take time.
            self._start = clock()
            deadline = self._deadline = self._start + b.seconds * 0.93

            def stop() -> bool:
                return clock() >= deadline

            return stop, iterations
        self._start = self._deadline = None
        if iterations is None:
            iterations = DEFAULT_ITERATIONS
        return (lambda: False), iterations

    def choose(self, view: SeatView, history: Sequence[Event]) -> Action:
        legal = view.legal_actions
        if not legal:
            raise ValueError("choose() needs a seat with legal actions")
        if len(legal) == 1:
            self.last_mode, self.last_iterations = "single", 0
            return legal[0]
        stop, iterations = self._limits()
        rng = decision_rng(self.seed, view)
        mem = remember(view, history)
        easy = self._shown_as(view, "easy")
        fallback = normal_choice(view, history, lookahead=False)
        if view.talon_size == 0 and len(view.active) == 2:
            normal = self._shown_as(view, "normal")  # the one other seat left, or none
            return self._endgame(view, mem, rng, fallback, iterations, easy, normal)
        if len(view.active) == 2:
            won = self._last_draw(view, mem, rng, iterations, easy)
            if won is not None:
                return won
        opening = not view.table
        if lapse(fallback, legal, mem.ct, view.talon_size, opening):
            # Normal's own lead is one of the lapses (a high card led early): Normal's choice
            # among the other actions is the reference instead.
            kept = [a for a in legal if not lapse(a, legal, mem.ct, view.talon_size, opening)]
            if kept:
                fallback = normal_choice(view, history, lookahead=False, legal=kept)
        det = self._deals(view, mem, rng, weighted=True)
        # The learned endgame value assumes best play, which a seat shown as Easy does not.
        model = None if easy or view.seats != 2 else endgame_model(view.rules)
        return self._monte_carlo(view, mem.ct, det, fallback, stop, iterations, easy, model)

    def _shown_as(self, view: SeatView, level: str) -> int:
        """The other seats still in the game that the table shows as ``level`` (a bit mask).
        Easy's and Normal's rules are published and deterministic, so the search can play
        them by those rules."""
        if not self.seats:
            return 0
        if len(self.seats) != view.seats:
            raise ValueError(f"seats has {len(self.seats)} labels for a {view.seats}-seat game")
        return sum(1 << t for t in view.active if self.seats[t] == level and t != view.seat)

    def _deals(self, view: SeatView, mem: Memory, rng: random.Random, weighted: bool) -> Deals:
        """Where the hidden cards may lie, dealt consistently with the view. The one place the
        search learns about hidden cards; ``benchmarks/ai_ceiling.py`` overrides it with the
        true state to measure what perfect information would be worth."""
        if not weighted:
            return Determinizer(view, mem, rng)
        normal = self._shown_as(view, "normal")
        prior = None
        # What a Normal hand keeps was measured in two-seat games (benchmarks/keep_prior.py).
        if normal and view.talon_size and len(view.active) == 2:
            full = mem.ct.deck.bit_count() - view.seats * view.rules.hand_size
            keep = keep_weights(mem.ct, view.talon_size, full)
            prior = [keep if normal >> t & 1 else {} for t in range(view.seats)]
        return Determinizer(
            view, mem, rng, LACK_WEIGHT, STRONG_LACK_WEIGHT, PASSED_OVER_WEIGHT, prior
        )

    def _endgame(
        self,
        view: SeatView,
        mem: Memory,
        rng: random.Random,
        fallback: Action,
        iterations: int | None,
        easy: int,
        normal: int,
    ) -> Action:
        """Two seats, empty talon: first try to prove the result with one full-depth
        narrow-window pass (:meth:`EndgameSolver.prove`) within :data:`PROVE_SHARE` of the
        budget; a proven win or draw is played at once. Otherwise (no proof in time, or a
        proven loss, where the deepening search's move keeps the best practical chances)
        iterative deepening uses the rest of the budget. Seats in ``easy`` play Easy's one
        move in the search (their best reply is assumed otherwise). Against a seat in
        ``normal``, a position not proven won is first searched for a trap (:meth:`_trap`)."""
        legal = view.legal_actions
        state = self._deals(view, mem, rng, weighted=False).next()  # exactly one placement
        nodes = None if iterations is None else iterations * NODES_PER_ITERATION
        prover = self._prover(view.seat, mem.ct, PROVE_SHARE, nodes, easy)
        used = 0
        try:
            value, action, exact = prover.prove(state.copy())
            used = prover.nodes
            if exact and value < 1.0 and normal:
                trap = self._trap(state, mem.ct, legal, value, nodes)
                if trap is not None:
                    self.last_mode, self.last_iterations = "endgame-trap", used
                    return trap
            if exact and value > -1.0 and action in legal:
                self.last_mode, self.last_iterations = "endgame-proven", prover.nodes
                return action
        except OutOfBudget:
            used = prover.nodes
        stop = self._stop_after(1.0)
        solver = EndgameSolver(
            view.seat,
            mem.ct,
            stop,
            None if nodes is None else max(nodes - used, 256),
            easy,
        )
        try:
            _, action, exact = solver.solve(state)
        except OutOfBudget:
            self.last_mode, self.last_iterations = "endgame-timeout", used + solver.nodes
            return fallback
        self.last_mode = "endgame-exact" if exact else "endgame-deepening"
        self.last_iterations = used + solver.nodes
        return action if action in legal else fallback

    def _last_draw(
        self,
        view: SeatView,
        mem: Memory,
        rng: random.Random,
        iterations: int | None,
        easy: int,
    ) -> Action | None:
        """A proven win before the talon is empty, where every card's place is already known
        (two seats, the last card to draw is the face-up trump), or None. The playouts there
        replay the one possible deal with the heuristics, the same game every round, and can
        prefer a proven loss to a proven win (issue #34); a proven win wins against any reply,
        so it is played at once. A draw or a loss is left to the search, whose practical chances
        may be better. The search needs few rounds on one deal, so the proof gets
        :data:`LAST_DRAW_SHARE` of the budget."""
        if view.talon_size != 1:
            return None
        deals = self._deals(view, mem, rng, weighted=False)
        if not isinstance(deals, Determinizer) or deals.count != 1:
            return None
        nodes = None if iterations is None else iterations * NODES_PER_ITERATION
        prover = self._prover(view.seat, mem.ct, LAST_DRAW_SHARE, nodes, easy)
        try:
            value, action, exact = prover.prove(deals.next())
        except OutOfBudget:
            return None
        if exact and value == 1.0 and action in view.legal_actions:
            self.last_mode, self.last_iterations = "last-draw-proven", prover.nodes
            return action
        return None

    def _trap(
        self,
        state: GameState,
        ct: CardTable,
        legal: Sequence[Action],
        value: float,
        nodes: int | None,
    ) -> Action | None:
        """A move that does better than ``value`` (the proven result against the best replies)
        against a seat shown as Normal: Normal's endgame move is its fixed look-ahead
        (:func:`~durak_core.ai.normal.endgame_reply`), deterministic and computable from the
        state, so each of our moves is followed by Normal's actual replies until it is our turn
        again, and that position is proven against the best replies from there. The first move
        whose proven result beats ``value`` is returned (None: no such move found in time)."""
        me = next_actor(state)
        assert me is not None
        stop = self._stop_after(TRAP_SHARE)
        for action in legal:
            if stop is not None and stop():
                return None
            s = state.copy()
            apply_unchecked(s, me, action)
            while not s.finished:
                seat = next_actor(s)
                assert seat is not None
                if seat == me:
                    break
                options = legal_actions(s, seat)
                reply = options[0] if len(options) == 1 else endgame_reply(s, seat, ct)
                if stop is not None and stop():
                    return None  # out of time
                if reply is None:
                    break  # Normal would use its heuristics here: no prediction
                apply_unchecked(s, seat, reply)
            else:
                if outcome(s, me) > value:
                    return action
                continue
            if next_actor(s) != me:
                continue
            prover = EndgameSolver(me, ct, stop, None if nodes is None else nodes // 8)
            try:
                v, _, exact = prover.prove(s)
            except OutOfBudget:
                continue
            if exact and v > value:
                return action
        return None

    def _expected(self, played: int, iterations: int | None) -> float:
        """How many playouts this decision will run in all, from the ``played`` so far: the
        iteration limit, or the rate so far extended to the deadline, whichever is less."""
        clock = self.budget.clock
        if self._start is None or self._deadline is None or clock is None:
            return float(iterations if iterations is not None else played)
        rate = played / max(clock() - self._start, 1e-9)
        by_time = rate * (self._deadline - self._start)
        return by_time if iterations is None else min(by_time, float(iterations))

    def _record(self, mode: str, iterations: int, cuts: list[tuple[int, float]]) -> None:
        self.last_mode = mode
        self.last_iterations = iterations
        self.last_cuts = tuple(n for n, _ in cuts)
        self.last_cut_shares = tuple(share for _, share in cuts if share >= 0)

    def _share_gone(self) -> float:
        """The share of the search's time (start to deadline) gone now, or -1 without a clock."""
        clock = self.budget.clock
        if self._start is None or self._deadline is None or clock is None:
            return -1.0
        return (clock() - self._start) / max(self._deadline - self._start, 1e-9)

    def _monte_carlo(
        self,
        view: SeatView,
        ct: CardTable,
        det: Deals,
        fallback: Action,
        stop: Callable[[], bool],
        iterations: int | None,
        easy: int,
        model: EndgameModel | None,
    ) -> Action:
        """Rounds of paired playouts: each round deals one determinization and plays every
        still-competing root action out on it (common random numbers: the luck of the deal
        cancels in the comparison). Statistics are shared across determinizations at the root;
        the weaker half is dropped at even shares of the budget (sequential halving: each
        stage gets as many playouts, so the finalists are chosen on as much evidence as they
        are compared on). The action with the largest paired advantage over Normal's choice
        replaces it only when that advantage is clearly positive."""
        me = view.seat
        cands = candidates(view.legal_actions, fallback, ct, view.talon_size, not view.table)
        k = len(cands)
        alive = list(range(k))
        total = [0.0] * k
        diff_sum = [0.0] * k
        diff_sq = [0.0] * k
        rounds = [0] * k
        n = 0
        cuts = halvings(k)
        cut_at: list[tuple[int, float]] = []  # playouts run, share of the time gone
        while iterations is None or n < iterations:
            if n and stop():
                break
            base = det.next()
            results: dict[int, float] = {}
            for i in alive:
                s = base.copy()
                apply_unchecked(s, me, cands[i])
                results[i] = playout_value(s, ct, me, easy, model)
                n += 1
            r0 = results.get(0)
            for i, r in results.items():
                total[i] += r
                rounds[i] += 1
                if r0 is not None:
                    d = r - r0
                    diff_sum[i] += d
                    diff_sq[i] += d * d
            done = cuts - halvings(len(alive))
            if (
                done < cuts
                and rounds[0] >= HALVING_ROUNDS
                and n >= self._expected(n, iterations) * (done + 1) / (cuts + 1)
            ):
                alive = halve(alive, total, rounds)
                cut_at.append((n, self._share_gone()))
        self._record("exact-deals" if det.exact else "sampled-deals", n, cut_at)
        return cands[clear_gain(rounds, diff_sum, diff_sq)]


def candidates(
    legal: Sequence[Action],
    preferred: Action,
    ct: CardTable,
    talon: int = 0,
    opening: bool = False,
) -> list[Action]:
    """The root actions worth searching: Normal's choice, take, pass, then the cheapest card
    plays, at most :data:`MAX_CANDIDATES`, without the known lapses (:func:`lapse`): a search
    comparing several actions picks, now and then, one whose advantage is only the luck of its
    playouts, and these are the ones that cost games (issue #34)."""
    value = ct.value

    def cost(a: Action) -> tuple[int, int]:
        if a is preferred:
            return (-1, 0)
        if _SPENDS_CARD[a.kind]:  # a card's worth; a show spends none (V18)
            return (1 + value[a.c], a.code)
        return (0, a.code)

    kept = [a for a in legal if a is preferred or not lapse(a, legal, ct, talon, opening)]
    ordered = sorted(kept, key=cost)[:MAX_CANDIDATES]
    return ordered  # ordered[0] is ``preferred``


def lapse(a: Action, legal: Sequence[Action], ct: CardTable, talon: int, opening: bool) -> bool:
    """Whether ``a`` is one of Hard's known lapses (issue #34):

    * beating a card with a dearer card of the same kind (a trump, or a plain card) than
      another that beats it too: the ace of trumps on a plain jack while holding the jack of
      trumps (the cheaper one does the same now and keeps the stronger for later);
    * early in the game (at least :data:`EARLY_TALON` cards in the talon), leading a trump or a
      high plain card (not among the ``cheap`` ones) while a cheap plain lead is there: a high
      pair led early, or a trump spent on a lead;
    * early in the game, throwing in a trump (the Normal heuristics never do while the talon
      lasts)."""
    strong = ct.strong
    value = ct.value
    if a.kind == DEFEND:
        kind = strong >> a.c & 1
        for b in legal:
            same = b.kind == DEFEND and b.a == a.a and strong >> b.c & 1 == kind
            if same and value[b.c] < value[a.c]:
                return True
        return False
    if a.kind != ATTACK or talon < EARLY_TALON:
        return False
    if not opening:
        return bool(strong >> a.c & 1)
    if ct.cheap >> a.c & 1:
        return False
    return any(b.kind == ATTACK and ct.cheap >> b.c & 1 for b in legal)
