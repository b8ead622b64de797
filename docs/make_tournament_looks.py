"""Draws the pictures of docs/tournaments.md, "What people look at": the standings message's
picture of a finished 16-player Swiss, the same of a 12-player Swiss at 6-seat tables (places
for marks, Buchholz in decimals), and the bracket of a 12-player single elimination in its
semi-finals, exactly as the bot draws them (``standings_message``).

Run ``python docs/make_tournament_looks.py`` after changing the pictures. Nothing is random
but seeded: the events are played by the core's pairing and bracket with results from a seeded
``random.Random`` (tests/bot/tournament_stored.py).
"""

from __future__ import annotations

import sys
from pathlib import Path

DOCS = Path(__file__).resolve().parent
sys.path.insert(0, str(DOCS.parent))  # the tests' tournament builder

from make_game_looks import small  # noqa: E402

from bot.tournaments.messages.tournament_standings import standings_message  # noqa: E402
from bot.tournaments.messages.tournament_text import translator_for  # noqa: E402
from tests.bot.tournament_stored import Stored, elimination, swiss  # noqa: E402

STANDINGS_PNG, BRACKET_PNG = "tournament_standings.png", "tournament_bracket.png"
SIX_SEATS_PNG = "tournament_standings_six.png"


def picture(s: Stored) -> bytes:
    m = standings_message(s.t, s.entrants, s.rounds, s.games, s.names, translator_for("en"))
    return small(m.picture)


def pictures() -> dict[str, bytes]:
    return {
        STANDINGS_PNG: picture(swiss(16, 2, seed=3)),
        SIX_SEATS_PNG: picture(swiss(12, 6, seed=5)),
        BRACKET_PNG: picture(elimination(12, played=2, open_matches=1, seed=7)),
    }


def main() -> None:
    for name, png in pictures().items():
        (DOCS / "img" / name).write_bytes(png)


if __name__ == "__main__":
    main()
