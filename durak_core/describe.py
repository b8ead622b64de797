"""Plain-text rendering of states, for debugging, doctests and the terminal."""

from __future__ import annotations

from .board import Board
from .cards import cards_of


def describe_state(s: Board) -> str:
    """A one-glance summary of the full state (it shows every hand: never show it to players)."""
    hands = " | ".join(
        f"{t}:{' '.join(str(c) for c in cards_of(h))}" for t, h in enumerate(s.hands)
    )
    table = " ".join(
        f"{cards_of(1 << a)[0]}/{cards_of(1 << d)[0] if d >= 0 else '-'}"
        for a, d in zip(s.att, s.dfn, strict=True)
    )
    status = "finished" if s.finished else f"bout {s.bout} {s.attacker}->{s.defender}"
    return (
        f"<GameState v{s.version} {status} trump={cards_of(1 << s.trump_card)[0]} "
        f"talon={len(s.talon)} table=[{table}] hands=[{hands}]>"
    )
