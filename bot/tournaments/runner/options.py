"""The table options every table of a tournament shares, stored with it (``NewTournament.options``):
the rules (the match length in losses is V17's ``series_losses``), the turn timer, the language
of the public messages."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bot.tables.table import MatchOf
from bot.tournaments.logic import Format, MatchKind, TournamentSettings
from durak_core import RuleSet


@dataclass(frozen=True, slots=True)
class TableOptions:
    rules: RuleSet
    turn_timer: int
    language: str

    @classmethod
    def made(
        cls, rules: RuleSet, turn_timer: int, language: str, settings: TournamentSettings
    ) -> TableOptions:
        """The options for ``settings``: a match to N losses is a V17 series to N losses; a
        match of N games is an open series cut after N games."""
        losses = settings.match.count if settings.match.kind is MatchKind.LOSSES else 0
        return cls(rules.with_options(series_losses=losses), turn_timer, language)

    def stored(self) -> dict[str, object]:
        return {
            "rules": self.rules.options(),
            "turn_timer": self.turn_timer,
            "language": self.language,
        }

    @classmethod
    def of(cls, stored: dict[str, Any]) -> TableOptions:
        return cls(
            RuleSet.from_options(stored["rules"]),
            int(stored["turn_timer"]),
            str(stored.get("language") or "en"),
        )


def match_of(
    settings: TournamentSettings,
    tournament_id: str,
    round: int,
    table: int,
    deciding: int | None = None,
) -> MatchOf:
    """The match a tournament table plays. ``deciding``: the seats of the deciding table of
    joint leaders (``bot.tournaments.logic.decider``): one game, played again after a draw at two
    seats."""
    if deciding is not None:
        return MatchOf(tournament_id, round, table, 1, deciding == 2)
    games = settings.match.count if settings.match.kind is MatchKind.GAMES else 0
    decisive = settings.format is Format.SINGLE_ELIMINATION
    return MatchOf(tournament_id, round, table, games, decisive)
