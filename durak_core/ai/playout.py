# Compiled with mypyc at install (.build/backend.py): after an edit its group runs as Python
# until the next install (durak_core/compiled_sources.py).
"""Playouts for Hard's search: a determinized game played with the Normal heuristics (not random
moves), on the engine's unchecked fast path, to its end or to the start of a two-seat endgame,
which a model fitted to the exact solver scores (:mod:`.endgame_value`)."""

from __future__ import annotations

from ..cards import Suit
from ..fast import apply_unchecked
from ..state import GameState
from .cardinfo import CardTable, card_table
from .endgame_value import EndgameModel
from .heuristics import easy_choice, smart_choice
from .schedule import next_turn


class ExactBeat:
    """In a determinization the defender's hand is 'known': 1.0 where it can beat a card.
    Computed per lookup: a playout asks about a few cards only."""

    __slots__ = ("beaters", "hand")

    def __init__(self, hand: int, beaters: tuple[int, ...]) -> None:
        self.hand = hand
        self.beaters = beaters

    def __getitem__(self, c: int) -> float:
        return 1.0 if self.hand & self.beaters[c] else 0.0


def playout(
    s: GameState,
    ct: CardTable,
    easy_seats: int = 0,
    max_actions: int = 600,
    until_endgame: bool = False,
) -> GameState:
    """Play ``s`` (mutated in place) to the end with the heuristic policy; the seats in the
    bit mask ``easy_seats`` play Easy's rules instead (a seat known to be an Easy AI). With
    ``until_endgame``, stop where a two-seat endgame starts (:func:`endgame_start`)."""
    trump = s.trump_suit
    p_beat = ExactBeat(0, ct.beaters)  # one object, its hand updated per decision
    teams = s.teams if s.rules.team_size else None
    for _ in range(max_actions):
        if s.trump_suit != trump:  # V14: the trump changed during the playout
            trump = s.trump_suit
            ct = card_table(s.rules, None if trump < 0 else Suit(trump))
            p_beat.beaters = ct.beaters
        if until_endgame and endgame_start(s):
            break
        turn = next_turn(s)
        if turn is None:
            break
        seat, legal = turn
        if len(legal) == 1:
            action = legal[0]
        elif easy_seats >> seat & 1:
            action = easy_choice(legal, s.hands[seat], s.att, s.dfn, ct)
        else:
            p_beat.hand = s.hands[s.defender]
            if teams is None:  # every other active seat is an opponent
                opponents = s.active.bit_count() - 1
            else:
                opponents = sum(
                    1 for t in range(s.n) if s.active >> t & 1 and teams[t] != teams[seat]
                )
            action = smart_choice(
                legal,
                s.hands[seat],
                s.att,
                s.dfn,
                s.taken,
                len(s.talon),
                ct,
                p_beat,
                opponents,
            )
        apply_unchecked(s, seat, action)
    return s


def endgame_start(s: GameState) -> bool:
    """The talon is empty, two seats are left, and the next bout has not begun."""
    return not s.talon and not s.att and s.active.bit_count() == 2


def playout_value(
    s: GameState, ct: CardTable, me: int, easy_seats: int = 0, model: EndgameModel | None = None
) -> float:
    """``me``'s score (:func:`reward`) of a playout of ``s`` (mutated in place); with a
    ``model``, a playout that reaches the start of a two-seat endgame stops there and scores
    the model's value instead."""
    if model is None:
        playout(s, ct, easy_seats)
        return reward(s, me)
    playout(s, ct, easy_seats, until_endgame=True)
    return model.value(s, me, ct) if endgame_start(s) else reward(s, me)


def reward(s: GameState, me: int) -> float:
    """1 for going out first, 0.7 for escaping otherwise, 0.5 for a draw (R20), 0 for being
    the Durak (or on the Durak's team, V7). A game cut short is scored by hand sizes."""
    if not s.finished:
        mine = s.hands[me].bit_count()
        others = [s.hands[t].bit_count() for t in range(s.n) if t != me and s.active >> t & 1]
        return (
            0.5 if not others else (0.5 + 0.4 * (min(others) > mine) - 0.4 * (mine > max(others)))
        )
    remaining = [t for t in range(s.n) if s.active >> t & 1]
    if not remaining:
        return 0.5
    if s.teams[remaining[0]] == s.teams[me]:
        return 0.0
    return 1.0 if s.teams[s.out[0]] == s.teams[me] else 0.7
