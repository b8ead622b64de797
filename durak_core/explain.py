"""Why an action is illegal: the rule id and a sentence, for error messages.

The answer comes from the checks that decide legality (:mod:`durak_core.legality`); this module
only keeps the name the bot and the tests call.
"""

from __future__ import annotations

from .actions import Action
from .board import Board
from .legality import refusal


def why_illegal(s: Board, seat: int, action: Action) -> tuple[str, str]:
    """(rule id, message) for an action :func:`~durak_core.engine.verify` rejects."""
    why = refusal(s, seat, action)
    if why is None:
        raise ValueError(f"seat {seat} may play {action}: nothing to explain")
    return why
