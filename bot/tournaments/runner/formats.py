"""What each format says about the rounds, from the stored games: whether the current round is
over, and the next round's pairing (None: the tournament is over). Swiss pairs by the standings
(``pair_round``); single elimination plays the bracket's next round, replayed from its games."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from bot.tournaments.logic import (
    Bracket,
    Format,
    Override,
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
from bot.tournaments.storage import EntrantRecord, StoredRound

from .deciding import deciding_pairing, deciding_result


def field_size(entrants: Iterable[EntrantRecord]) -> int:
    """The entrants the rounds are counted for: those there from the start (late entrants
    add no round)."""
    return sum(e.joined_round == 1 for e in entrants)


def overrides_of(rounds: Iterable[StoredRound]) -> dict[tuple[int, int], Override]:
    """The organiser's results of the stored rounds' tables, by (round, table)."""
    return {key: o for r in rounds for key, o in r.overrides().items()}


def bracket_events(
    entrants: Sequence[EntrantRecord],
    games: Sequence[PlayedGame],
    overrides: Iterable[Override] = (),
) -> list[PlayedGame | Withdrawal | Override]:
    """The stored games in the order played, each withdrawal right after the withdrawn player's
    last game (before any, if they played none): they played no game after leaving, and the
    forfeit it causes is of their next match, which no game before it needed. The organiser's
    results of a round come after its games (a later round's games need them), before any
    game of a later round."""
    last: dict[int, int] = {}
    for i, g in enumerate(games):
        for p in g.seats:
            if p is not None:
                last[p] = i
    out: list[PlayedGame | Withdrawal | Override] = []
    gone = sorted(e.user_id for e in entrants if e.withdrawn)
    out.extend(Withdrawal(p) for p in gone if p not in last)
    decided = sorted(overrides, key=lambda o: (o.round, o.table))
    for i, g in enumerate(games):
        while decided and decided[0].round < g.round:
            out.append(decided.pop(0))
        out.append(g)
        out.extend(Withdrawal(p) for p in gone if last.get(p) == i)
    out.extend(decided)
    return out


def bracket_of(
    settings: TournamentSettings,
    entrants: Sequence[EntrantRecord],
    rounds: Sequence[StoredRound],
    games: Sequence[PlayedGame],
) -> Bracket:
    """The bracket as its games, withdrawals and the organiser's results decided it (the
    standings message replays the same events: what it shows is what the runner plays)."""
    events = bracket_events(entrants, games, overrides_of(rounds).values())
    return replay_bracket([e.entrant for e in entrants], events, settings.match)


def round_over(
    settings: TournamentSettings,
    entrants: Sequence[EntrantRecord],
    rounds: Sequence[StoredRound],
    games: Sequence[PlayedGame],
    decider: int | None = None,
) -> bool:
    """Whether every match of the last stored round is over (decided, in a bracket; the
    deciding table, round ``decider``, by its own length)."""
    current = rounds[-1]
    if current.number == decider:
        return deciding_result(current, games, entrants) is not None
    if settings.format is not Format.SINGLE_ELIMINATION:
        records = rounds_from_games(
            [r.pairing for r in rounds], games, settings.match, overrides_of(rounds)
        )
        return records[-1].complete
    matches = bracket_of(settings, entrants, rounds, games).matches(current.number)
    return all(matches[t.number - 1].winner is not None for t in current.tables)


def match_decided(
    settings: TournamentSettings,
    entrants: Sequence[EntrantRecord],
    rounds: Sequence[StoredRound],
    games: Sequence[PlayedGame],
    table: int,
    decider: int | None = None,
) -> bool:
    """Whether the match at ``table`` of the last stored round is over (decided, in a
    bracket: a withdrawal decides it too)."""
    number = rounds[-1].number
    if number == decider:
        return deciding_result(rounds[-1], games, entrants) is not None
    if settings.format is not Format.SINGLE_ELIMINATION:
        records = rounds_from_games(
            [r.pairing for r in rounds], games, settings.match, overrides_of(rounds)
        )
        return table not in records[-1].pending_tables()
    matches = bracket_of(settings, entrants, rounds, games).matches(number)
    return matches[table - 1].winner is not None


def next_pairing(
    settings: TournamentSettings,
    entrants: Sequence[EntrantRecord],
    rounds: Sequence[StoredRound],
    games: Sequence[PlayedGame],
    decider: int | None = None,
) -> Pairing | None:
    """The next round, or None when the tournament is over (every round played, a champion,
    or too few players left to seat). The deciding table (round ``decider``) is the last:
    after it there is none; paired but not stored yet (a restart), it is paired again."""
    number = len(rounds) + 1
    if decider is not None:
        return deciding_pairing(settings, entrants, rounds, games) if decider == number else None
    if settings.format is Format.ROUND_ROBIN:  # the schedule of the whole field, as seeded
        on_time = [e.entrant for e in entrants if not e.entrant.late]
        late = sorted((e.entrant for e in entrants if e.entrant.late), key=lambda e: e.order)
        field = [e.player for e in (*seed_order(on_time), *late)]  # a late one: the free place
        if number > settings.rounds_for(len(on_time)):
            return None
        withdrawn = frozenset(e.user_id for e in entrants if e.withdrawn)
        return round_robin_round(field, number, withdrawn)
    if settings.format is Format.SWISS:
        records = rounds_from_games(
            [r.pairing for r in rounds], games, settings.match, overrides_of(rounds)
        )
        withdrawn = frozenset(e.user_id for e in entrants if e.withdrawn)
        try:
            return pair_round(settings, [e.entrant for e in entrants], records, withdrawn)
        except PairingError:
            return None
    b = bracket_of(settings, entrants, rounds, games)
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
