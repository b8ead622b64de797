"""A plain standings embed: each player's rank and points, the round being played, the champion
at the end. (The full standings message with its picture replaces it: ``_standings`` in
``tournament_host`` is the one place that picks.)"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

import discord

from bot.events.formats import bracket_of
from bot.storage import EntrantRecord, StoredRound, TournamentRecord, TournamentStatus
from bot.text import t
from bot.tournaments import Format, PlayedGame, places, rounds_from_games, standings

from .tournament_signup import COLOUR, mention

MAX_ROWS = 40  # 40 short lines stay far below the description's 4096 characters


def points_text(points: Fraction) -> str:
    whole, half = divmod(points * 2, 2)
    return f"{int(whole)}½" if half else str(int(whole))


def standings_board(
    tr: TournamentRecord,
    entrants: Sequence[EntrantRecord],
    rounds: Sequence[StoredRound],
    games: Sequence[PlayedGame],
    loc: str | None,
) -> discord.Embed:
    s = tr.settings
    ranked: list[tuple[int, int, str | None]]
    if s.format is Format.SINGLE_ELIMINATION:
        ranked = [
            (place.first, player, None) for player, place in places(bracket_of(s, entrants, games))
        ]
    else:
        records = rounds_from_games([r.pairing for r in rounds], games, s.match)
        table = standings([e.entrant for e in entrants], s.table_size, records)
        ranked = [(row.rank, row.player, points_text(row.points)) for row in table.rows]
    embed = discord.Embed(title=t("tournament.standings.title", loc, name=s.name), colour=COLOUR)
    total = s.rounds_for(len(entrants))
    if tr.status is TournamentStatus.FINISHED:
        head = t("tournament.standings.final", loc)
    elif tr.status is TournamentStatus.CANCELLED:
        head = t("tournament.status.cancelled", loc)
    else:
        head = t("tournament.standings.round", loc, round=max(1, len(rounds)), rounds=total)
    lines = [head, ""]
    for rank, player, points in ranked[:MAX_ROWS]:
        who = mention(player, loc)
        lines.append(
            t("tournament.standings.place", loc, rank=rank, player=who)
            if points is None
            else t("tournament.standings.row", loc, rank=rank, player=who, points=points)
        )
    if tr.status is TournamentStatus.FINISHED and ranked:
        champion = mention(ranked[0][1], loc)
        lines += ["", t("tournament.standings.champion", loc, player=champion)]
    embed.description = "\n".join(lines)[:4096]
    return embed
