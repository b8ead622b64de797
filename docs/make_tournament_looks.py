"""Draws the pictures of docs/tournaments.md, "What people look at": the standings message's
picture of a finished 16-player Swiss, the same of a 12-player Swiss at 6-seat tables (places
for marks, Buchholz in decimals), the bracket of a 12-player single elimination in its
semi-finals, a Swiss with a late entrant (issue #47: the half bye), and a round before and
after the organiser takes a table's result back, exactly as the bot draws them
(``standings_message``).

Run ``python docs/make_tournament_looks.py`` after changing the pictures. Nothing is random
but seeded: the events are played by the core's pairing and bracket with results from a seeded
``random.Random`` (tests/bot/tournaments/tournament_stored.py).
"""

from __future__ import annotations

import sys
from dataclasses import replace
from pathlib import Path

DOCS = Path(__file__).resolve().parent
sys.path.insert(0, str(DOCS.parent))  # the tests' tournament builder

from make_game_looks import small  # noqa: E402

from bot.tournaments.logic import OverrideKind  # noqa: E402
from bot.tournaments.messages.tournament_standings import standings_message  # noqa: E402
from bot.tournaments.messages.tournament_text import translator_for  # noqa: E402
from bot.tournaments.storage.tournament_models import TableOverride  # noqa: E402
from tests.bot.tournaments.tournament_stored import WHEN, Stored, elimination, swiss  # noqa: E402

STANDINGS_PNG, BRACKET_PNG = "tournament_standings.png", "tournament_bracket.png"
SIX_SEATS_PNG = "tournament_standings_six.png"
LATE_PNG = "tournament_late_join.png"
UNDO_BEFORE_PNG, UNDO_AFTER_PNG = "tournament_undo_before.png", "tournament_undo_after.png"


def picture(s: Stored) -> bytes:
    m = standings_message(s.t, s.entrants, s.rounds, s.games, s.names, translator_for("en"))
    return small(m.picture)


def overridden(s: Stored) -> Stored:
    """``s`` (its last round's last table still playing) with that table decided by the
    organiser: its first seat wins, without a game."""
    last = s.rounds[-1]
    table = last.tables[-1]
    winner = next(p for p in table.seats if p is not None)
    decided = TableOverride(kind=OverrideKind.WINNER, player=winner, by=1000, at=WHEN)
    tables = (*last.tables[:-1], table.model_copy(update={"override": decided}))
    rounds = [*s.rounds[:-1], last.model_copy(update={"tables": tables})]
    return replace(s, rounds=rounds)


def pictures() -> dict[str, bytes]:
    undone = swiss(8, 2, played=2, open_tables=1, rounds=3, seed=11)
    return {
        STANDINGS_PNG: picture(swiss(16, 2, seed=3)),
        SIX_SEATS_PNG: picture(swiss(12, 6, seed=5)),
        BRACKET_PNG: picture(elimination(12, played=2, open_matches=1, seed=7)),
        LATE_PNG: picture(swiss(9, 2, played=3, rounds=4, late=1, seed=9)),
        UNDO_BEFORE_PNG: picture(overridden(undone)),
        UNDO_AFTER_PNG: picture(undone),
    }


def main() -> None:
    for name, png in pictures().items():
        (DOCS / "img" / name).write_bytes(png)


if __name__ == "__main__":
    main()
