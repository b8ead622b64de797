"""What each format says about the rounds, from the stored games: whether the current round is
over, and the next round's pairing (None: the tournament is over). Swiss pairs by the standings
(``pair_round``); single elimination plays the bracket's next round, replayed from its games."""

from __future__ import annotations

from collections.abc import Sequence

from bot.storage import EntrantRecord, StoredRound
from bot.tournaments import (
    Bracket,
    Format,
    Pairing,
    PairingError,
    PlayedGame,
    SeatedTable,
    TournamentSettings,
    Withdrawal,
    pair_round,
    replay_bracket,
    round_robin_round,
    rounds_from_games,
    seed_order,
)


def bracket_events(
    entrants: Sequence[EntrantRecord], games: Sequence[PlayedGame]
) -> list[PlayedGame | Withdrawal]:
    """The stored games in the order played, each withdrawal right after the withdrawn player's
    last game (before any, if they played none): they played no game after leaving, and the
    forfeit it causes is of their next match, which no game before it needed."""
    last: dict[int, int] = {}
    for i, g in enumerate(games):
        for p in g.seats:
            if p is not None:
                last[p] = i
    out: list[PlayedGame | Withdrawal] = []
    gone = sorted(e.user_id for e in entrants if e.withdrawn)
    out.extend(Withdrawal(p) for p in gone if p not in last)
    for i, g in enumerate(games):
        out.append(g)
        out.extend(Withdrawal(p) for p in gone if last.get(p) == i)
    return out


def bracket_of(
    settings: TournamentSettings,
    entrants: Sequence[EntrantRecord],
    games: Sequence[PlayedGame],
) -> Bracket:
    """The bracket as its games and withdrawals decided it (the standings message replays the
    same events: what it shows is what the runner plays)."""
    return replay_bracket(
        [e.entrant for e in entrants], bracket_events(entrants, games), settings.match
    )


def round_over(
    settings: TournamentSettings,
    entrants: Sequence[EntrantRecord],
    rounds: Sequence[StoredRound],
    games: Sequence[PlayedGame],
) -> bool:
    """Whether every match of the last stored round is over (decided, in a bracket)."""
    current = rounds[-1]
    if settings.format is not Format.SINGLE_ELIMINATION:
        records = rounds_from_games([r.pairing for r in rounds], games, settings.match)
        return records[-1].complete
    matches = bracket_of(settings, entrants, games).matches(current.number)
    return all(matches[t.number - 1].winner is not None for t in current.tables)


def next_pairing(
    settings: TournamentSettings,
    entrants: Sequence[EntrantRecord],
    rounds: Sequence[StoredRound],
    games: Sequence[PlayedGame],
) -> Pairing | None:
    """The next round, or None when the tournament is over (every round played, a champion,
    or too few players left to seat)."""
    number = len(rounds) + 1
    if settings.format is Format.ROUND_ROBIN:  # the schedule of the whole field, as seeded
        field = [e.player for e in seed_order(e.entrant for e in entrants)]
        if number > settings.rounds_for(len(field)):
            return None
        withdrawn = frozenset(e.user_id for e in entrants if e.withdrawn)
        return round_robin_round(field, number, withdrawn)
    if settings.format is Format.SWISS:
        records = rounds_from_games([r.pairing for r in rounds], games, settings.match)
        withdrawn = frozenset(e.user_id for e in entrants if e.withdrawn)
        try:
            return pair_round(settings, [e.entrant for e in entrants], records, withdrawn)
        except PairingError:
            return None
    b = bracket_of(settings, entrants, games)
    if b.champion() is not None or number > b.rounds:
        return None
    matches = b.matches(number)
    ready = [m for m in matches if m.ready]
    if not ready:
        return None
    byes = tuple(
        m.winner for m in matches if m.winner is not None and None in m.players and number == 1
    )
    return Pairing(
        number,
        tuple(SeatedTable(m.number, m.players) for m in ready),
        tuple(p for p in byes if p is not None),
    )
