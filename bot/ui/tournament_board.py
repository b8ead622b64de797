"""A plain standings embed: each player's rank and points, the round being played, the champion
at the end. (The full standings message with its picture replaces it: ``_standings`` in
``tournament_host`` is the one place that picks.)"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

import discord

from bot.storage import EntrantRecord, StoredRound, TournamentRecord, TournamentStatus
from bot.text import t
from bot.tournaments import PlayedGame, rounds_from_games, standings

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
    records = rounds_from_games([r.pairing for r in rounds], games, s.match)
    table = standings([e.entrant for e in entrants], s.table_size, records)
    embed = discord.Embed(title=t("tournament.standings.title", loc, name=s.name), colour=COLOUR)
    total = s.rounds_for(len(entrants))
    if tr.status is TournamentStatus.FINISHED:
        head = t("tournament.standings.final", loc)
    elif tr.status is TournamentStatus.CANCELLED:
        head = t("tournament.status.cancelled", loc)
    else:
        head = t("tournament.standings.round", loc, round=max(1, len(rounds)), rounds=total)
    lines = [head, ""]
    for row in table.rows[:MAX_ROWS]:
        lines.append(
            t(
                "tournament.standings.row",
                loc,
                rank=row.rank,
                player=mention(row.player, loc),
                points=points_text(row.points),
            )
        )
    if tr.status is TournamentStatus.FINISHED and table.rows:
        lines += [
            "",
            t("tournament.standings.champion", loc, player=mention(table.rows[0].player, loc)),
        ]
    embed.description = "\n".join(lines)[:4096]
    return embed
