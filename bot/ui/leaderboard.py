"""Leaderboard pages, player stats and channel history as embeds."""

from __future__ import annotations

import discord

from bot.storage import GameSummary, LeaderboardPage, PlayerStats
from bot.text import t

from .buttons import BoardButton

SORTS = ("wins", "win_rate", "rating")


def render_board(page: LeaderboardPage, sort: str) -> tuple[discord.Embed, discord.ui.View]:
    embed = discord.Embed(title=t("board.title", sort=t(f"sort.{sort}")), colour=0xF9A825)
    lines = [
        t(
            "board.line",
            rank=e.rank,
            name=e.display_name,
            wins=e.wins,
            games=e.games,
            rate=round(100 * e.win_rate),
            rating=f"{e.rating:.1f}",
        )
        for e in page.entries
    ]
    embed.description = "\n".join(lines) if lines else t("board.empty")
    embed.set_footer(
        text=t("board.footer", page=page.page, pages=max(page.pages, 1), total=page.total)
    )
    view = discord.ui.View(timeout=None)
    view.add_item(BoardButton(sort, page.page - 1, label=t("btn.prev"), disabled=page.page <= 1))
    view.add_item(
        BoardButton(sort, page.page + 1, label=t("btn.next"), disabled=page.page >= page.pages)
    )
    for other in SORTS:
        if other != sort:
            view.add_item(BoardButton(other, 1, label=t(f"sort.{other}")))
    return embed, view


def render_stats(stats: PlayerStats, name: str) -> discord.Embed:
    embed = discord.Embed(title=t("stats.title", name=name), colour=0xF9A825)
    rating = f"{stats.rating:.1f}" if stats.rating is not None else t("stats.no_rating")
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
        embed.add_field(name=t(key), value=str(value))
    return embed


def render_history(games: list[GameSummary]) -> discord.Embed:
    embed = discord.Embed(title=t("history.title"), colour=0x6D4C41)
    lines = []
    for g in games:
        names = {s.seat: s.display_name for s in g.seats}
        first = names.get(g.finishing_order[0], "?") if g.finishing_order else "-"
        loser = (
            t("history.draw")
            if g.durak_seat is None
            else t("history.durak", name=names.get(g.durak_seat, "?"))
        )
        when = f"<t:{int(g.ended_at.timestamp())}:R>"
        lines.append(t("history.line", when=when, game=g.game_number, winner=first, loser=loser))
    embed.description = "\n".join(lines)[:4000] if lines else t("history.empty")
    return embed
