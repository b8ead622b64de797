"""How well a determinized deal fits everything a seat saw happen: an experiment of issue #34,
measured and *not* used by Hard (CHANGELOG.md, "Experiments on Hard").

A deal fixes the hidden hands and the talon *now*; the history fixes what every seat played
and took and how many cards it drew. Walking the history backwards from the deal, a hand before
a draw is the hand after it without the drawn cards: the seat's own draws are known, another
seat's are chosen at random among the cards it held then that were not publicly known to be
there before. That gives one whole past (the first hands and every draw), which the engine
replays forward, checking two things:

* the rules: every bout must end where it ended. A bout ends by itself once no attacker holds a
  card of the table's ranks (R15, R16), so a deal under which an attacker could still have
  thrown in is impossible (a certainty :mod:`durak_core.ai.memory` does not use: it resets a
  seat's inferences when the seat draws, which follows nearly every bout);
* a seat shown as Normal: Normal's published rules are deterministic, so at each of its past
  decisions (two or more legal actions) its move on the replayed past is compared with what it
  did; each different move multiplies the weight by ``mismatch`` (soft: the random past is one
  guess at what that seat drew when).

The weight of a deal is the mean over a few random pasts; 0 when the rules exclude them all.
Only the seat's own view and history go in; the deal is one of the search's determinizations.
``benchmarks/inference_quality.py`` measures what the weights are worth.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from durak_core import events
from durak_core.actions import ATTACK, DEFEND, SHOW, TRANSFER
from durak_core.ai.normal import normal_choice
from durak_core.bits import set_bits
from durak_core.board import set_roles
from durak_core.cards import Card, mask_of
from durak_core.deck import order_from_hands
from durak_core.fast import apply_unchecked, legal_actions
from durak_core.state import GameState, new_game
from durak_core.views import SeatView

#: The factor per past decision of a seat shown as Normal that the replayed past does not
#: reproduce (the best of 1, 0.5, 0.3, 0.15, 0.05 and 0.01 by benchmarks/inference_quality.py).
MISMATCH = 0.3
#: Random pasts per deal.
TRIES = 4

# Backward steps (kind, seat, cards, number, known before).
_PLAY = 0
_TAKE = 1
_DRAWN = 2  # cards known (the seat's own draw)
_DRAW = 3  # cards unknown: ``number`` of them, ``cards`` = the face-up trump if drawn


class HistoryFit:
    """The history of one decision, prepared once; :meth:`weight` scores a deal."""

    def __init__(self, view: SeatView, history: Sequence[events.Event], normal: int) -> None:
        self.view = view
        self.history = tuple(history)
        #: Seats shown as Normal (bit mask): their past decisions are checked too.
        self.normal = normal
        self.usable = True
        self.steps: list[tuple[int, int, int, int, int]] = []
        #: Per event index of an action: whether a bout (or the game) ended right after it.
        self.ends: dict[int, bool] = {}
        self.opener = -1
        self._prepare()

    def _prepare(self) -> None:
        n = self.view.seats
        known = [0] * n
        history = self.history
        pending: list[list[int]] = [[] for _ in range(n)]
        received: dict[int, int] = {}
        steps: list[tuple[int, int, int, int, int]] = []
        last_action = -1
        for i, e in enumerate(history):
            if isinstance(e, events.ActionTaken):
                if self.opener < 0:
                    self.opener = e.seat
                a = e.action
                if a.kind in (ATTACK, DEFEND, TRANSFER):
                    known[e.seat] &= ~(1 << a.c)
                    steps.append((_PLAY, e.seat, 1 << a.c, 0, 0))
                elif a.kind == SHOW:
                    known[e.seat] |= 1 << a.c
                self.ends[i] = False
                last_action = i
            elif isinstance(e, events.BoutStarted):
                if self.opener < 0:
                    self.opener = e.attacker
            elif isinstance(e, (events.BoutEnded, events.GameOver)):
                if last_action >= 0:
                    self.ends[last_action] = True
                if isinstance(e, events.BoutEnded) and not e.defended:
                    cards = mask_of(e.cards)
                    known[e.defender] |= cards
                    steps.append((_TAKE, e.defender, cards, 0, 0))
            elif isinstance(e, events.CardsDrawn):
                if e.number:
                    if e.seat == self.view.seat:
                        pending[e.seat].append(len(steps))
                        steps.append((_DRAWN, e.seat, 0, e.number, 0))
                    else:
                        trump = 0 if e.trump is None else 1 << e.trump.index
                        steps.append((_DRAW, e.seat, trump, e.number, known[e.seat]))
            elif isinstance(e, events.CardsReceived):
                if not pending[e.seat]:
                    self.usable = False
                    return
                received[pending[e.seat].pop(0)] = mask_of(e.cards)
            elif isinstance(e, (events.TrumpExchanged, events.TrumpRevealed)):
                self.usable = False  # V8 and V14 move cards outside this model
                return
        for k, mask in received.items():
            kind, seat, _, number, _ = steps[k]
            steps[k] = (kind, seat, mask, number, 0)
        if any(pending) or self.opener < 0:
            self.usable = False
        self.steps = steps

    def weight(
        self, deal: GameState, rng: random.Random, tries: int = TRIES, mismatch: float = MISMATCH
    ) -> float:
        """The mean over ``tries`` random pasts of ``mismatch`` to the number of Normal's
        decisions the past does not reproduce; 0 for a past the rules exclude."""
        total = 0.0
        for _ in range(tries):
            past = self._past(deal, rng)
            if past is None:
                continue
            m = self.mismatches(deal, past[0], past[1])
            if m >= 0:
                total += mismatch**m
        return total / tries

    def _past(self, deal: GameState, rng: random.Random) -> tuple[list[int], list[int]] | None:
        """The first hands and the cards of every draw (in order), or None."""
        hands = list(deal.hands)
        draws: list[int] = []
        for kind, seat, cards, number, known in reversed(self.steps):
            if kind == _PLAY:
                hands[seat] |= cards
            elif kind == _TAKE:
                hands[seat] &= ~cards
            else:
                d = cards  # _DRAWN: the cards; _DRAW: the face-up trump if it was drawn
                if kind == _DRAW:
                    pool = set_bits(hands[seat] & ~known & ~cards)
                    k = number - cards.bit_count()
                    if len(pool) < k:
                        return None
                    for c in rng.sample(pool, k):
                        d |= 1 << c
                if d & ~hands[seat]:
                    return None  # e.g. the face-up trump was drawn but is not there
                hands[seat] &= ~d
                draws.append(d)
        size = self.view.rules.hand_size
        if any(h.bit_count() != size for h in hands):
            return None
        draws.reverse()
        return hands, draws

    def mismatches(self, deal: GameState, hands: list[int], draws: list[int]) -> int:
        """Mismatches of Normal's decisions on this past, or -1 if the rules exclude it."""
        view = self.view
        n = view.seats
        cards = [[Card.from_index(c) for c in set_bits(h)] for h in hands]
        drawn = [Card.from_index(c) for d in draws for c in set_bits(d)]
        rest = [Card.from_index(c) for c in reversed(deal.talon[1:])]  # top first, no trump
        order = order_from_hands(cards, Card.from_index(deal.trump_card), drawn + rest, view.dealer)
        # new_game deals as the engine did: R8's shown lowest trump included.
        s = new_game(view.rules, n, order=order, dealer=view.dealer)
        if s.attacker != self.opener:
            # Not R8's starter in this past: a later game of a series (V10), where nothing
            # was shown, or an impossible past of a first game (kept: the seat cannot tell).
            s.known = (0,) * n
            set_roles(s, self.opener)
        mismatches = 0
        history = self.history
        normal = self.normal
        for i, e in enumerate(history):
            if not isinstance(e, events.ActionTaken):
                continue
            seat = e.seat
            if normal >> seat & 1:
                options = legal_actions(s, seat)
                if e.action not in options:
                    return -1
                if len(options) > 1:
                    move = normal_choice(s.view(seat), history[:i], lookahead=False)
                    mismatches += move != e.action
            bout = s.bout
            apply_unchecked(s, seat, e.action)
            if (s.bout != bout or s.finished) != self.ends[i]:
                return -1
        return mismatches
