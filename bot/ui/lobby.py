"""The lobby message (seats, host, rules, buttons), in the table's language."""

from __future__ import annotations

import discord

from bot.tables.table import Table
from bot.text import t
from bot.text.names import shown_name
from durak_core.ai import Level

from .buttons import LobbyButton, LobbyOp
from .rules_text import rules_summary, rules_text

AI_BUTTON_LEVELS = (Level.EASY, Level.NORMAL, Level.HARD)

__all__ = ["AI_BUTTON_LEVELS", "ai_seat_name", "render_lobby", "render_lobby_done", "rules_text"]


def ai_seat_name(table: Table, level: Level) -> str:
    """The name of the next AI seat ("AI 2 (hard)"), in the table's language."""
    n = sum(1 for s in table.seats if s.is_ai) + 1
    loc = table.language
    return t("ai.name", loc, n=n, level=t(f"level.{level}", loc))


def render_lobby(table: Table) -> tuple[discord.Embed, discord.ui.View]:
    loc = table.language
    embed = discord.Embed(title=t("lobby.title", loc), colour=0x1565C0)
    host = next((shown_name(s.name) for s in table.seats if s.user_id == table.host_id), "?")
    timer = (
        t("lobby.timer", loc, n=table.turn_timer) if table.turn_timer else t("lobby.no_timer", loc)
    )
    who_adds_ai = t("lobby.ai_anyone" if table.anyone_adds_ai else "lobby.ai_host_only", loc)
    lines = [t("lobby.host", loc, host=host), timer, who_adds_ai]
    if table.practice:
        lines.append(t("lobby.practice", loc))
    embed.description = "\n".join([*lines, t("lobby.hint", loc)])
    seats = "\n".join(
        f"{i + 1}. {shown_name(s.name)}" + (" 🤖" if s.is_ai else "")
        for i, s in enumerate(table.seats)
    )
    embed.add_field(
        name=t("lobby.seats", loc, n=len(table.seats), max=table.max_seats),
        value=seats or "-",
        inline=False,
    )
    embed.add_field(
        name=t("lobby.rules", loc), value=rules_summary(table.rules, loc)[:1024], inline=False
    )
    view = discord.ui.View(timeout=None)
    tid = table.table_id
    view.add_item(
        LobbyButton(
            tid, LobbyOp.JOIN, label=t("btn.join", loc), style=discord.ButtonStyle.success, row=0
        )
    )
    view.add_item(LobbyButton(tid, LobbyOp.LEAVE, label=t("btn.leave", loc), row=0))
    view.add_item(
        LobbyButton(
            tid, LobbyOp.START, label=t("btn.start", loc), style=discord.ButtonStyle.primary, row=0
        )
    )
    view.add_item(
        LobbyButton(
            tid, LobbyOp.CANCEL, label=t("btn.cancel", loc), style=discord.ButtonStyle.danger, row=0
        )
    )
    for level in AI_BUTTON_LEVELS:
        label = t("btn.add_ai", loc, level=t(f"level.{level}", loc))
        view.add_item(LobbyButton(tid, LobbyOp.add_ai(level), label=label, row=1))
    view.add_item(LobbyButton(tid, LobbyOp.AI_REMOVE, label=t("btn.remove_ai", loc), row=1))
    # The host's switch: who may seat and unseat AI players.
    op = LobbyOp.AI_HOST if table.anyone_adds_ai else LobbyOp.AI_OPEN
    key = "btn.ai_host" if table.anyone_adds_ai else "btn.ai_open"
    view.add_item(LobbyButton(tid, op, label=t(key, loc), row=2))
    return embed, view


def render_lobby_done(table: Table, key: str) -> tuple[discord.Embed, discord.ui.View]:
    embed, _ = render_lobby(table)
    embed.title = t("lobby.title", table.language)
    embed.description = t(key, table.language)
    return embed, discord.ui.View(timeout=None)
