"""Leaderboard pages, player stats and channel history as embeds."""

from __future__ import annotations

import discord

from bot.storage import GameSummary, LeaderboardPage, PlayerStats
from bot.text import t
from bot.text.names import shown_name

from .buttons import BoardButton

SORTS = ("wins", "win_rate", "rating")


def render_board(
    page: LeaderboardPage, sort: str, loc: str | None = None
) -> tuple[discord.Embed, discord.ui.View]:
    embed = discord.Embed(title=t("board.title", loc, sort=t(f"sort.{sort}", loc)), colour=0xF9A825)
    lines = [
        t(
            "board.line",
            loc,
            rank=e.rank,
            name=shown_name(e.display_name),
            wins=t("board.wins", loc, n=e.wins),
            games=t("board.games", loc, n=e.games),
            rate=round(100 * e.win_rate),
            rating=f"{e.rating:.1f}",
        )
        for e in page.entries
    ]
    embed.description = "\n".join(lines) if lines else t("board.empty", loc)
    embed.set_footer(
        text=t(
            "board.footer",
            loc,
            page=page.page,
            pages=max(page.pages, 1),
            players=t("board.players", loc, n=page.total),
        )
    )
    view = discord.ui.View(timeout=None)
    view.add_item(
        BoardButton(sort, page.page - 1, label=t("btn.prev", loc), disabled=page.page <= 1)
    )
    view.add_item(
        BoardButton(sort, page.page + 1, label=t("btn.next", loc), disabled=page.page >= page.pages)
    )
    for other in SORTS:
        if other != sort:
            view.add_item(BoardButton(other, 1, label=t(f"sort.{other}", loc)))
    return embed, view


def render_stats(stats: PlayerStats, name: str, loc: str | None = None) -> discord.Embed:
    embed = discord.Embed(title=t("stats.title", loc, name=name), colour=0xF9A825)
    rating = f"{stats.rating:.1f}" if stats.rating is not None else t("stats.no_rating", loc)
    for key, value in (
        ("stats.games", stats.games),
        ("stats.wins", stats.wins),
        ("stats.losses", stats.losses),
        ("stats.draws", stats.draws),
        ("stats.rate", f"{round(100 * stats.win_rate)}%"),
        ("stats.streak", f"{stats.current_streak} ({stats.best_streak})"),
        ("stats.series", f"{stats.series_won}/{stats.series_lost}"),
        ("stats.rating", rating),
    ):
        embed.add_field(name=t(key, loc), value=str(value))
    if stats.assisted_games:  # practice games count in none of the fields above
        embed.add_field(name=t("stats.assisted", loc), value=str(stats.assisted_games))
    return embed


def render_history(games: list[GameSummary], loc: str | None = None) -> discord.Embed:
    """Recent games with their ids (for `/durak verify`)."""
    embed = discord.Embed(title=t("history.title", loc), colour=0x6D4C41)
    lines = []
    for g in games:
        names = {s.seat: shown_name(s.display_name) for s in g.seats}
        first = names.get(g.finishing_order[0], "?") if g.finishing_order else "-"
        loser = (
            t("history.draw", loc)
            if g.durak_seat is None
            else t("history.durak", loc, name=names.get(g.durak_seat, "?"))
        )
        when = f"<t:{int(g.ended_at.timestamp())}:R>"
        words = {"winner": first, "loser": loser, "game": g.game_number, "id": g.game_id}
        line = t("history.line", loc, when=when, **words)
        if g.tournament is not None:  # counted like any game, and marked as the event's
            line += t("history.tournament", loc, round=g.tournament.round, table=g.tournament.table)
        if g.assisted:  # a practice table's game: hints were on offer, nobody was rated
            line += t("history.assisted", loc)
        lines.append(line)
    embed.description = "\n".join(lines)[:4000] if lines else t("history.empty", loc)
    return embed
