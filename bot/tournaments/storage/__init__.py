"""The stored tournament: its records and its queries, written once for SQLite and PostgreSQL
and run in a :class:`~bot.storage.Storage`'s transactions; the schema is ``bot.storage``'s one
(``migrations.py``). See docs/storage.md, "Tournaments".

``TournamentStore(storage)`` holds every query; an unknown tournament id raises
``TournamentNotFound``, a refused sign-up step a ``SignupRefused`` with the core's ``code``.
"""

from .errors import (
    AlreadyJoined,
    LeaveClosed,
    SignupClosed,
    SignupRefused,
    TournamentFull,
    TournamentNotFound,
)
from .tournament_entrants import TournamentEntrants
from .tournament_models import (
    EntrantRecord,
    NewTournament,
    PairedTable,
    RoundStatus,
    StoredRound,
    TableOverride,
    TournamentRecord,
    TournamentStatus,
)
from .tournament_overrides import TournamentOverrides
from .tournament_queries import TournamentQueries


class TournamentStore(TournamentQueries, TournamentEntrants, TournamentOverrides):
    """Every query of the stored tournaments, over one storage (``TournamentStore(storage)``:
    cheap, it holds nothing else)."""


__all__ = [
    "AlreadyJoined",
    "EntrantRecord",
    "LeaveClosed",
    "NewTournament",
    "PairedTable",
    "RoundStatus",
    "SignupClosed",
    "SignupRefused",
    "StoredRound",
    "TableOverride",
    "TournamentFull",
    "TournamentNotFound",
    "TournamentRecord",
    "TournamentStatus",
    "TournamentStore",
]
