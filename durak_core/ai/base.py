"""The AI player protocol: a seat's view and its observed history in, one legal action out.

An AI never receives a :class:`~durak_core.state.GameState` (R25): only the
:class:`~durak_core.views.SeatView` of its seat and the events that seat observed
(:func:`durak_core.events.visible_to`). Time is injected (``clock``), so the package stays free
of wall-clock reads; a caller that wants a time budget passes ``time.perf_counter``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol

from ..actions import Action
from ..events import Event
from ..views import SeatView

Clock = Callable[[], float]


@dataclass(frozen=True, slots=True)
class Budget:
    """How long one decision may think: ``seconds`` measured with ``clock``, and/or at most
    ``iterations`` search iterations (deterministic, for tests). None = no limit of that kind.
    """

    seconds: float | None = 1.0
    iterations: int | None = None
    clock: Clock | None = None


class Player(Protocol):
    """One AI seat. ``choose`` is synchronous and may take up to its budget: the bot runs it in
    a worker thread (``asyncio.to_thread``) so it never blocks the event loop."""

    name: str

    def choose(self, view: SeatView, history: Sequence[Event]) -> Action:
        """One of ``view.legal_actions`` (which must not be empty)."""
        ...


class DeterministicPlayer:
    """A player whose choice follows from the view and the history alone (Easy, Normal): the
    seed is kept for the common interface, and a single legal action needs no thought."""

    name = ""

    def __init__(self, seed: int) -> None:
        self.seed = seed

    def choose(self, view: SeatView, history: Sequence[Event]) -> Action:
        forced = forced_action(view)
        return forced if forced is not None else self.decide(view, history)

    def decide(self, view: SeatView, history: Sequence[Event]) -> Action:
        """The choice among two or more legal actions."""
        raise NotImplementedError

    def quick(self, view: SeatView) -> bool:
        """Whether deciding ``view`` takes microseconds (no search): less than sending it to
        another process, so the bot decides it on its event loop."""
        return True


def forced_action(view: SeatView) -> Action | None:
    """The seat's only legal action, if it has one choice; None if it has several."""
    legal = view.legal_actions
    if not legal:
        raise ValueError("choose() needs a seat with legal actions")
    return legal[0] if len(legal) == 1 else None
