"""durak_core: the rules of Durak (``docs/rules.md``, R1–R25 and V1–V18), pure and typed.

No Discord, no I/O, no clock, no global random source. Start with :func:`new_game`, ask a state
for :meth:`~GameState.legal_actions`, :meth:`~GameState.apply` actions, and hand players only
:meth:`~GameState.view`. See ``docs/engine.md``.
"""

# ruff: noqa: E402 - the compiled-sources check must run before any submodule is imported
from pathlib import Path as _Path

from .compiled_sources import run_fresh_sources as _run_fresh_sources

#: Sources edited since the engine was compiled: then its compiled group runs as Python, with a
#: warning, until the next install (:mod:`durak_core.compiled_sources`). Before any submodule.
EDITED_SINCE_BUILD: list[str] = _run_fresh_sources(_Path(__file__).parent)

from . import engine as _engine
from .actions import (
    NUM_ACTION_CODES,
    Action,
    Attack,
    Defend,
    ExchangeTrump,
    Pass,
    Show,
    Take,
    Transfer,
    parse_action,
)
from .cards import Card, Suit, parse_cards
from .deck import order_from_hands, seed_commitment, shuffled_deck
from .engine import can, legal_actions, legal_moves, verify
from .errors import (
    ActionNotationError,
    CardNotationError,
    DurakError,
    GameOverError,
    IllegalActionError,
    ReplayError,
    RulesError,
    SeatError,
    StateFormatError,
)
from .events import Event, visible_to
from .result import GameResult, SeatPoints
from .rules import PRESETS, RuleSet, parse_rules, preset
from .serialize import parse_move, position, replay, replay_json, state_from_json
from .series import Series
from .state import GameState, apply, new_game, step
from .views import PublicView, SeatView, public_view, seat_view

#: Whether the engine's hot modules run compiled (mypyc, see .build/backend.py) or as pure
#: Python. Both follow the same rules; compiled is several times faster (docs/performance.md).
COMPILED: bool = not _engine.__file__.endswith(".py")

__all__ = [
    "COMPILED",
    "NUM_ACTION_CODES",
    "PRESETS",
    "Action",
    "ActionNotationError",
    "Attack",
    "Card",
    "CardNotationError",
    "Defend",
    "DurakError",
    "Event",
    "ExchangeTrump",
    "GameOverError",
    "GameResult",
    "GameState",
    "IllegalActionError",
    "Pass",
    "PublicView",
    "ReplayError",
    "RuleSet",
    "RulesError",
    "SeatError",
    "SeatPoints",
    "SeatView",
    "Series",
    "Show",
    "StateFormatError",
    "Suit",
    "Take",
    "Transfer",
    "apply",
    "can",
    "legal_actions",
    "legal_moves",
    "new_game",
    "order_from_hands",
    "parse_action",
    "parse_cards",
    "parse_move",
    "parse_rules",
    "position",
    "preset",
    "public_view",
    "replay",
    "replay_json",
    "seat_view",
    "seed_commitment",
    "shuffled_deck",
    "state_from_json",
    "step",
    "verify",
    "visible_to",
]
