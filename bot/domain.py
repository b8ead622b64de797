"""Values of the bot's domain that are stored by value (database rows, saved-table JSON), declared
once. ``StrEnum``: a member is its stored string (``TableStatus.RUNNING == "running"``), so
saved data reads and writes exactly as before. (The AI level is the engine's:
``durak_core.ai.Level``.)"""

from __future__ import annotations

from enum import StrEnum
from typing import Final

#: The longest turn timer a table may have, in seconds (0 = none): the one limit of the
#: settings' default, `/durak new`, tournaments and the Activity's open form.
MAX_TURN_TIMER: Final = 600


class TableStatus(StrEnum):
    LOBBY = "lobby"
    RUNNING = "running"
    #: The game ended; the table waits for a rematch.
    FINISHED = "finished"
    #: Cancelled, or closed after no human acted for ``ABANDON_AFTER_MINUTES``.
    ABANDONED = "abandoned"


#: The channel's one table: a lobby or a game in progress.
ACTIVE_STATUSES = frozenset({TableStatus.LOBBY, TableStatus.RUNNING})
