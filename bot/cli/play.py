"""``durak play``: a game against AIs in the terminal, showing only what your seat may see
(R23–R25). Enter an action by its number or in notation (``attack 7H``, ``defend 7H 9H``,
``take``, ``pass``); ``help`` lists them again, ``quit`` leaves."""

from __future__ import annotations

import secrets
import sys
import time
from collections.abc import Callable, Sequence

from durak_core import (
    Action,
    ActionNotationError,
    Event,
    GameState,
    new_game,
    parse_action,
)
from durak_core.ai import LEVELS, Budget, Level, Player, make_player
from durak_core.ai.schedule import next_actor
from durak_core.events import (
    ActionTaken,
    BoutEnded,
    BoutStarted,
    CardsDrawn,
    CardsReceived,
    GameOver,
    PlayerOut,
    TrumpExchanged,
    visible_to,
)
from durak_core.views import SeatView

from .options import add_rules, parser, rules_or_none

HUMAN = 0


def _cards(cards: Sequence[object]) -> str:
    return " ".join(c.unicode() for c in cards) or "-"  # type: ignore[attr-defined]


def describe_view(v: SeatView, names: Sequence[str]) -> str:
    """The human's screen: public facts plus their own hand, nothing else."""
    where = "under the talon" if v.trump_in_talon else "drawn"
    lines = [
        f"Trump {v.trump_card.unicode()} ({where}) | talon {v.talon_size} | "
        f"discarded {v.discard_size}",
    ]
    for t in range(v.seats):
        if t == v.seat:
            continue
        role = " (attacking)" if t == v.attacker else " (defending)" if t == v.defender else ""
        state = "out" if t not in v.active else f"{v.hand_sizes[t]} cards"
        known = f", known: {_cards(sorted(v.known[t]))}" if v.known[t] else ""
        lines.append(f"  {names[t]}: {state}{role}{known}")
    if v.table:
        pairs = [f"{a.unicode()}→{d.unicode() if d else '?'}" for a, d in v.table]
        extra = " (taken)" if v.taken else ""
        lines.append(f"Table: {'  '.join(pairs)}{extra} | limit {v.limit}")
    you = (
        " (you attack)"
        if v.seat == v.attacker
        else (" (you defend)" if v.seat == v.defender else "")
    )
    lines.append(f"Your hand{you}: {_cards(v.hand)}")
    return "\n".join(lines)


def describe_event(e: Event, names: Sequence[str]) -> str | None:
    if isinstance(e, ActionTaken):
        return f"{names[e.seat]}: {e.action}"
    if isinstance(e, BoutEnded):
        how = "beaten off (discarded)" if e.defended else f"taken by {names[e.defender]}"
        return f"Bout over: {how}"
    if isinstance(e, CardsDrawn):
        trump = f" (incl. the trump {e.trump.unicode()})" if e.trump else ""
        return f"{names[e.seat]} drew {e.number}{trump}"
    if isinstance(e, CardsReceived):
        return f"You drew: {_cards(e.cards)}"
    if isinstance(e, PlayerOut):
        return f"{names[e.seat]} is out (place {e.place})"
    if isinstance(e, BoutStarted):
        return f"New bout: {names[e.attacker]} → {names[e.defender]} (limit {e.limit})"
    if isinstance(e, TrumpExchanged):
        return f"{names[e.seat]} exchanged {e.given.unicode()} for {e.taken.unicode()}"
    if isinstance(e, GameOver):
        return "Game over: " + (f"{names[e.durak]} is the Durak" if e.durak is not None else "draw")
    return None


def read_action(
    v: SeatView, ask: Callable[[str], str], say: Callable[[str], None]
) -> Action | None:
    """Prompt until a legal action (None: the player quit)."""
    legal = list(v.legal_actions)
    menu = "\n".join(f"  {i}) {a}" for i, a in enumerate(legal, 1))
    say(f"Your options:\n{menu}")
    while True:
        text = ask("> ").strip()
        if text.lower() in ("quit", "exit", "q"):
            return None
        if text.lower() in ("help", "?", ""):
            say(f"Type a number 1-{len(legal)} or an action, e.g. '{legal[0]}'.\n{menu}")
            continue
        if text.isdigit():
            k = int(text)
            if 1 <= k <= len(legal):
                return legal[k - 1]
            say(f"No option {k}: choose 1-{len(legal)}.")
            continue
        try:
            action = parse_action(text)
        except ActionNotationError as exc:
            say(f"Not understood: {exc}")
            continue
        if action in legal:
            return action
        say(f"'{action}' is not legal now. Choose one of the options (1-{len(legal)}).")


def run_game(
    state: GameState,
    players: Sequence[Player | None],
    names: Sequence[str],
    ask: Callable[[str], str],
    say: Callable[[str], None],
) -> GameState | None:
    """Play until the game ends (None if the human quit). ``players[HUMAN]`` is None."""
    n = state.n
    histories: list[list[Event]] = [[] for _ in range(n)]
    while not state.finished:
        seat = next_actor(state)
        assert seat is not None
        view = state.view(seat)
        player = players[seat]
        if player is None:
            say("")
            say(describe_view(view, names))
            action = read_action(view, ask, say)
            if action is None:
                return None
        else:
            action = player.choose(view, tuple(histories[seat]))
        state, events = state.apply(seat, action)
        for t in range(n):
            histories[t].extend(visible_to(events, t))
        for e in visible_to(events, HUMAN):
            line = describe_event(e, names)
            if line:
                say(line)
    return state


def main(argv: Sequence[str], ask: Callable[[str], str] = input) -> int:
    ap = parser("durak play", __doc__)
    ap.add_argument(
        "--opponents",
        default="normal",
        help=f"comma-separated AI levels, 1-5 of: {', '.join(LEVELS)} (default normal)",
    )
    add_rules(ap)
    ap.add_argument(
        "--seed", type=int, default=None, help="the deal's seed, to replay a deal (default: random)"
    )
    ap.add_argument("--think-ms", type=float, default=1000.0, help="Hard's budget per decision")
    a = ap.parse_args(list(argv))
    levels = [x.strip().lower() for x in a.opponents.split(",") if x.strip()]
    if not levels or any(x not in LEVELS for x in levels) or len(levels) > 5:
        print(f"--opponents: 1-5 of {', '.join(LEVELS)}", file=sys.stderr)
        return 2
    rules = rules_or_none(a.rules, len(levels) + 1)
    if rules is None:
        return 2
    seed = a.seed if a.seed is not None else secrets.randbits(64)
    budget = Budget(a.think_ms / 1000, clock=time.perf_counter)
    players: list[Player | None] = [None]
    names = ["You"]
    shown = ["human", *levels]  # every seat's label, as the names below show it
    for i, lv in enumerate(levels, 1):
        players.append(make_player(Level(lv), seed=seed + i, budget=budget, seats=shown))
        names.append(f"{lv.capitalize()}({i})")
    state = new_game(rules, len(players), seed=seed)
    print(f"Durak, {rules.describe()}; deal seed {seed}. You are seat 0.")
    try:
        end = run_game(state, players, names, ask, print)
    except (EOFError, KeyboardInterrupt):
        print("\nbye")
        return 1
    if end is None:
        print("bye")
        return 1
    return 0
