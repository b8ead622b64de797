"""What Hard's search is worth over Normal, and what it would be worth with perfect information.

Plays mirrored two-seat deals (classic rules, every deal once per seating) of

- ``normal-normal``: the baseline;
- ``hard-normal``: Hard as shipped (told what the table shows: which seat is which level);
- ``blind-easy``: Hard not told which seat is Easy (so it does not play that seat by Easy's rules);
- ``oracle-normal``: the same Hard, except that its search is handed the true state (every hand
  and the talon order) instead of sampled deals. A measuring device, never a player: it shows
  how much of Hard's gap to a target is the hidden information and how much is the search;
- ``handoracle-normal``: Hard that sees the other hands but not the talon order (its search
  reshuffles the face-down talon): the most any inference about hands could give.

Hard runs on a fixed number of playouts per decision (``--iterations``), so the figures do not
depend on how busy the machine is. For every game it also records the exact value, from the
measured player's side, of the position at the moment the talon empties with two players left
(the endgame solver's proof: +1 won, 0 drawn, -1 lost with best play from there, or "?" when
the proof needs more than 200,000 nodes): that separates the mid-game (who enters the endgame
ahead) from the endgame (who converts it). It counts as well the games in which the measured
player enters that endgame with fewer trumps than the other (one of the lapses of issue #34).

    python benchmarks/ai_ceiling.py [--deals 30] [--iterations 150] [--jobs 2] [--seed 1]
        [--only normal-normal,hard-normal,oracle-normal,hard-easy]

``--only`` takes any pairs ``a-b`` of ``oracle``, ``handoracle``, ``hard``, ``blind``, ``normal``,
``easy``, ``random``.

Prints one line per matchup and JSON on the last line.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import platform
import random
import sys
import time
from collections import Counter
from typing import Any

from bot.cli.arena import wilson
from bot.cli.progress import add_progress_flag, progress_bar, show_progress
from durak_core import RuleSet, new_game
from durak_core.ai import Budget, make_player
from durak_core.ai.base import Player
from durak_core.ai.cardinfo import card_table
from durak_core.ai.determinize import Deals
from durak_core.ai.endgame import EndgameSolver, OutOfBudget
from durak_core.ai.hard import HardPlayer
from durak_core.ai.memory import Memory
from durak_core.ai.schedule import next_actor
from durak_core.cards import Suit
from durak_core.events import Event, visible_to
from durak_core.state import GameState
from durak_core.views import SeatView

MATCHUPS = ("normal-normal", "hard-normal", "oracle-normal")
SIDES = ("oracle", "handoracle", "hard", "blind", "normal", "easy", "random")
PROOF_NODES = 200_000


class _Truth:
    """The true state, always: the 'deals' of the perfect-information oracle; with ``rng``
    the face-down talon is reshuffled each time (the hands stay true)."""

    def __init__(self, state: GameState, rng: random.Random | None = None) -> None:
        self.state = state
        self.rng = rng
        self.exact = rng is None

    def next(self) -> GameState:
        s = self.state.copy()
        if self.rng is not None and s.talon:
            rest = list(s.talon[1:])  # the face-up trump stays at the bottom
            self.rng.shuffle(rest)
            s.talon = (s.talon[0], *rest)
        return s


class OracleHard(HardPlayer):
    """Hard whose search sees the true state (set :attr:`truth` before each decision). A
    subclass of Hard, so it runs on the pure-Python source only (compiled classes cannot be
    subclassed): ``DURAK_PURE_PYTHON=1 pip install -e .``, or PYTHONPATH at a copy without
    the ``.so`` files."""

    name = "oracle"
    truth: GameState | None = None
    talon_known = True

    def _deals(self, view: SeatView, mem: Memory, rng: random.Random, weighted: bool) -> Deals:
        assert self.truth is not None
        return _Truth(self.truth, None if self.talon_known else rng)


class HandOracleHard(OracleHard):
    """Sees every hand, not the talon order."""

    name = "handoracle"
    talon_known = False


def _player(level: str, seed: int, iterations: int, seats: tuple[str, ...] = ()) -> Player:
    budget = Budget(None, iterations=iterations)
    if level == "blind":  # Hard not told what the table shows (which seat is Easy)
        return HardPlayer(seed, budget)
    if level == "oracle":
        return OracleHard(seed, budget, seats)
    if level == "handoracle":
        return HandOracleHard(seed, budget, seats)
    return make_player(level, seed=seed, budget=budget, seats=seats)  # type: ignore[arg-type]


def _entry_value(s: GameState, me: int) -> str:
    """The exact value of ``s`` for ``me`` (a two-player endgame), or '?'."""
    trump = None if s.trump_suit < 0 else Suit(s.trump_suit)
    solver = EndgameSolver(me, card_table(s.rules, trump), None, PROOF_NODES)
    try:
        value, _, exact = solver.prove(s.copy())
    except OutOfBudget:
        return "?"
    return {1.0: "+1", 0.0: "0", -1.0: "-1"}[value] if exact else "?"


def _trumps(s: GameState, me: int) -> str:
    """Whether ``me`` holds fewer, as many or more trumps than the other seat."""
    strong = card_table(s.rules, None if s.trump_suit < 0 else Suit(s.trump_suit)).strong
    mine, theirs = ((s.hands[t] & strong).bit_count() for t in (me, 1 - me))
    return "fewer" if mine < theirs else "more" if mine > theirs else "equal"


def _deal(args: tuple[str, int, int, int]) -> list[tuple[str, str, str]]:
    """Both seatings of one deal: per game (outcome, endgame-entry value, trumps at the entry
    against the other's) of the first player."""
    matchup, deal, seed, iterations = args
    first, second = matchup.split("-")
    out = []
    for seat_of_first in (0, 1):
        seats = (first, second) if seat_of_first == 0 else (second, first)
        measured = _player(first, seed * 7919 + deal * 31, iterations, seats)
        opponent = _player(second, seed * 7919 + deal * 31 + 1, iterations, seats)
        players = [measured, opponent] if seat_of_first == 0 else [opponent, measured]
        s = new_game(RuleSet(), 2, seed=seed * 1_000_003 + deal)
        histories: list[list[Event]] = [[], []]
        entry = trumps = "none"  # the game ended before the talon did
        while not s.finished:
            if entry == "none" and not s.talon:
                entry = _entry_value(s, seat_of_first)
                trumps = _trumps(s, seat_of_first)
            seat = next_actor(s)
            assert seat is not None
            player = players[seat]
            if isinstance(player, OracleHard):
                player.truth = s
            action = player.choose(s.view(seat), tuple(histories[seat]))
            s, events = s.apply(seat, action)
            for t in (0, 1):
                histories[t].extend(visible_to(events, t))
        r = s.result
        assert r is not None
        outcome = "draw" if r.is_draw else "durak" if seat_of_first in r.losers else "win"
        out.append((outcome, entry, trumps))
    return out


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--deals", type=int, default=30)
    ap.add_argument("--iterations", type=int, default=150, help="Hard's playouts per decision")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--only", default=",".join(MATCHUPS))
    add_progress_flag(ap)
    a = ap.parse_args(argv)
    names = [x for x in a.only.split(",") if x]
    bad = [x for x in names if len(x.split("-")) != 2 or not set(x.split("-")) <= set(SIDES)]
    if bad:
        print(f"--only: pairs a-b of {', '.join(SIDES)} (got {', '.join(bad)})", file=sys.stderr)
        return 2
    out: dict[str, Any] = {
        "deals": a.deals,
        "iterations": a.iterations,
        "seed": a.seed,
        "machine": f"{platform.machine()}, python {platform.python_version()}",
        "date": time.strftime("%Y-%m-%d"),
        "matchups": {},
    }
    tasks = [(m, d, a.seed, a.iterations) for m in names for d in range(a.deals)]
    ctx = multiprocessing.get_context("spawn")
    bar = progress_bar(len(tasks), desc="deals", unit="deal", enabled=show_progress(a.progress))
    with ctx.Pool(a.jobs) as pool, bar:
        results = []
        for deal in pool.imap(_deal, tasks):  # in task order: results pair with tasks below
            results.append(deal)
            bar.update()
    for name in names:
        games = [g for (m, *_), deal in zip(tasks, results, strict=True) if m == name for g in deal]
        n = len(games)
        outcomes = Counter(o for o, _, _ in games)
        entries = Counter(e for _, e, _ in games)
        by_entry = Counter(f"{e} {o}" for o, e, _ in games)
        trumps = Counter(t for _, _, t in games)
        lo, hi = wilson(outcomes["win"], n)
        rep: dict[str, Any] = {
            "games": n,
            "win_rate": outcomes["win"] / n,
            "win_ci95": [lo, hi],
            "durak_rate": outcomes["durak"] / n,
            "draw_rate": outcomes["draw"] / n,
            "endgame_entry": dict(sorted(entries.items())),
            "entry_then_outcome": dict(sorted(by_entry.items())),
            "entry_trumps": dict(sorted(trumps.items())),
        }
        out["matchups"][name] = rep
        print(
            f"{name:<14} {n} games  win {100 * rep['win_rate']:.1f}% [{100 * lo:.1f}, "
            f"{100 * hi:.1f}]  durak {100 * rep['durak_rate']:.1f}%  "
            f"enters the endgame: {rep['endgame_entry']}, with trumps: {rep['entry_trumps']}",
            flush=True,
        )
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
