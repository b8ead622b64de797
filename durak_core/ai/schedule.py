# Compiled with mypyc at install (.build/backend.py): after an edit its group runs as Python
# until the next install (durak_core/compiled_sources.py).
"""Who acts next when a simulation (arena, terminal game, search) must pick one seat.

Durak has no turn order within a bout (R11): several seats may have legal actions at once. A
simulation needs one order, and this is the one every tool here uses: the main attacker opens
(R10); while a card is unbeaten and nobody took, the defender answers (R13); otherwise the
attackers clockwise from the main attacker throw in or pass (R14, R15).

>>> from durak_core import RuleSet, new_game
>>> g = new_game(RuleSet(), 3, seed=1)
>>> next_actor(g) == g.attacker
True
"""

from __future__ import annotations

from ..actions import Action
from ..fast import legal_actions
from ..state import GameState


def next_actor(s: GameState) -> int | None:
    """The seat to act now, or None when the game is over."""
    turn = next_turn(s)
    return None if turn is None else turn[0]


def next_turn(s: GameState) -> tuple[int, list[Action]] | None:
    """The seat to act now and its legal actions (one generation, for playouts), or None when
    the game is over."""
    if s.finished:
        return None
    if not s.att:
        seat = s.attacker
        return seat, legal_actions(s, seat)
    if s.unbeaten and not s.taken:
        seat = s.defender
        return seat, legal_actions(s, seat)
    n = s.n
    attackers = s.attackers
    for k in range(n):
        t = (s.attacker + k) % n
        if attackers >> t & 1:
            legal = legal_actions(s, t)
            if legal:
                return t, legal
    # The engine ends a bout as soon as no attacker can act (R15, R16): unreachable.
    raise AssertionError("a running game where nobody can act")
