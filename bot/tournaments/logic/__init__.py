"""Tournaments: the pure core that the bot drives (docs/tournaments.md).

No Discord, no I/O, no clock, no random source: settings and sign-up are values, a Swiss round's
seating and the standings are functions of the stored results, and a single-elimination bracket
is a value rebuilt from its stored games. Every refusal is a :class:`TournamentError` (a
``ValueError``) with a ``code`` for the bot's catalogue.
"""

from .bracket import (
    Bracket,
    BracketMatch,
    Withdrawal,
    new_bracket,
    pending,
    places,
    record_result,
    record_winner,
    replay_bracket,
    withdraw,
)
from .configuration import Format, MatchKind, MatchLength, TournamentSettings, check_deadline
from .errors import PairingError, ResultError, SettingsError, SignupError, TournamentError
from .fit import SeatingFit, seating_fit
from .override import Override, OverrideKind
from .results import Place, PlayedGame, Seat, TableResult, bye_points, half_bye_points
from .round_robin import round_robin_round
from .rounds import Pairing, RoundRecord, SeatedTable, rounds_from_games
from .signup import Entrant, Signup, check_start, join, leave, seed_order, start
from .standings import (
    RoundEntry,
    RoundLine,
    SeatLine,
    StandingRow,
    Standings,
    TableLine,
    standings,
)
from .swiss import pair_round

__all__ = [
    "Bracket",
    "BracketMatch",
    "Entrant",
    "Format",
    "MatchKind",
    "MatchLength",
    "Override",
    "OverrideKind",
    "Pairing",
    "PairingError",
    "Place",
    "PlayedGame",
    "ResultError",
    "RoundEntry",
    "RoundLine",
    "RoundRecord",
    "Seat",
    "SeatLine",
    "SeatedTable",
    "SeatingFit",
    "SettingsError",
    "Signup",
    "SignupError",
    "StandingRow",
    "Standings",
    "TableLine",
    "TableResult",
    "TournamentError",
    "TournamentSettings",
    "Withdrawal",
    "bye_points",
    "check_deadline",
    "check_start",
    "half_bye_points",
    "join",
    "leave",
    "new_bracket",
    "pair_round",
    "pending",
    "places",
    "record_result",
    "record_winner",
    "replay_bracket",
    "round_robin_round",
    "rounds_from_games",
    "seating_fit",
    "seed_order",
    "standings",
    "start",
    "withdraw",
]
