"""The deciding game of a Swiss or a round robin (``bot.tournaments.logic.decider``), as the runner
stores it: the ``decider`` option (set at creation, on by default) asks for it, and the
``decider_round`` option remembers which stored round is the deciding table once it is paired
(it is no round of the standings: its games add no points). The standings of such a
tournament are :func:`swiss_table`'s, for the messages, the export and the runner alike."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from bot.tournaments.logic import (
    Format,
    Pairing,
    PlayedGame,
    Standings,
    TableResult,
    TournamentSettings,
    rounds_from_games,
    standings,
)
from bot.tournaments.logic.decider import (
    decided_standings,
    decider_pairing,
    decider_result,
    joint_leaders,
)
from bot.tournaments.storage import EntrantRecord, StoredRound, TournamentRecord

#: The tournament options: whether joint leaders play a deciding game, and its round.
DECIDER = "decider"
DECIDER_ROUND = "decider_round"


def wants_decider(options: Mapping[str, object], settings: TournamentSettings) -> bool:
    """A Swiss or a round robin whose organiser did not turn the deciding game off."""
    return settings.format is not Format.SINGLE_ELIMINATION and options.get(DECIDER) is not False


def decider_round(t: TournamentRecord) -> int | None:
    value = t.options.get(DECIDER_ROUND)
    return value if isinstance(value, int) else None


def swiss_table(
    settings: TournamentSettings,
    decider: int | None,
    entrants: Sequence[EntrantRecord],
    rounds: Sequence[StoredRound],
    games: Sequence[PlayedGame],
) -> Standings:
    """The standings of the rounds played (finished matches only), the joint leaders ordered
    by the deciding table once it is over."""
    ordered = sorted(rounds, key=lambda r: r.number)
    regular = [r for r in ordered if r.number != decider]
    overrides = {key: o for r in regular for key, o in r.overrides().items()}
    played = [g for g in games if g.round != decider]
    records = rounds_from_games([r.pairing for r in regular], played, settings.match, overrides)
    st = standings([e.entrant for e in entrants], settings.table_size, records)
    deciding = next((r for r in ordered if r.number == decider), None)
    if deciding is None:
        return st
    return decided_standings(st, deciding_result(deciding, games, entrants))


def deciding_result(
    deciding: StoredRound, games: Sequence[PlayedGame], entrants: Sequence[EntrantRecord]
) -> TableResult | None:
    """The deciding table's result once it is over: by its games, the organiser's word, or
    the withdrawal of all its players but one."""
    override = next(iter(deciding.overrides().values()), None)
    withdrawn = {e.user_id for e in entrants if e.withdrawn}
    return decider_result(deciding.pairing, games, override, withdrawn)


def deciding_pairing(
    settings: TournamentSettings,
    entrants: Sequence[EntrantRecord],
    rounds: Sequence[StoredRound],
    games: Sequence[PlayedGame],
) -> Pairing | None:
    """The deciding table after the last round, if first place is still shared after every
    tie-break (among two to six leaders still in); None when it is not."""
    st = swiss_table(settings, None, entrants, rounds, games)
    withdrawn = {e.user_id for e in entrants if e.withdrawn}
    leaders = joint_leaders(st, withdrawn, settings.table_size)
    if not leaders:
        return None
    return decider_pairing(len(rounds) + 1, leaders, [e.entrant for e in entrants])
