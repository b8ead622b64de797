"""The lobby message (seats, host, rules, buttons) and the rules in words."""

from __future__ import annotations

import discord

from bot.tables.table import Table
from bot.text import t
from durak_core import RuleSet

from .buttons import LobbyButton

AI_BUTTON_LEVELS = ("easy", "normal", "hard")


def render_lobby(table: Table) -> tuple[discord.Embed, discord.ui.View]:
    embed = discord.Embed(title=t("lobby.title"), colour=0x1565C0)
    host = next((s.name for s in table.seats if s.user_id == table.host_id), "?")
    embed.description = "\n".join(
        [
            t("lobby.host", host=host),
            t("lobby.timer", seconds=table.turn_timer) if table.turn_timer else t("lobby.no_timer"),
            t("lobby.hint"),
        ]
    )
    seats = "\n".join(
        f"{i + 1}. {s.name}" + (" 🤖" if s.is_ai else "") for i, s in enumerate(table.seats)
    )
    embed.add_field(
        name=t("lobby.seats", n=len(table.seats), max=table.max_seats),
        value=seats or "-",
        inline=False,
    )
    embed.add_field(name=t("lobby.rules"), value=table.rules.describe()[:1024], inline=False)
    view = discord.ui.View(timeout=None)
    tid = table.table_id
    view.add_item(
        LobbyButton(tid, "join", label=t("btn.join"), style=discord.ButtonStyle.success, row=0)
    )
    view.add_item(LobbyButton(tid, "leave", label=t("btn.leave"), row=0))
    view.add_item(
        LobbyButton(tid, "start", label=t("btn.start"), style=discord.ButtonStyle.primary, row=0)
    )
    view.add_item(
        LobbyButton(tid, "cancel", label=t("btn.cancel"), style=discord.ButtonStyle.danger, row=0)
    )
    for level in AI_BUTTON_LEVELS:
        label = t("btn.add_ai", level=t(f"level.{level}"))
        view.add_item(LobbyButton(tid, f"ai-{level}", label=label, row=1))
    return embed, view


def render_lobby_done(table: Table, key: str) -> tuple[discord.Embed, discord.ui.View]:
    embed, _ = render_lobby(table)
    embed.title = t("lobby.title")
    embed.description = t(key)
    return embed, discord.ui.View(timeout=None)


def rules_text(rules: RuleSet, turn_timer: int) -> str:
    """The table's rules in words, naming what differs from classic by rule id."""
    lines = [t("rules.classic", deck=36, hand=6)]
    diffs: list[str] = []
    if rules.transfer:
        diffs.append(t("rules.V1"))
    if rules.deck_size != 36:
        diffs.append(t("rules.V2", deck=rules.deck_size))
    if rules.hand_size != 6:
        diffs.append(t("rules.V3", hand=rules.hand_size))
    if rules.first_bout_five:
        diffs.append(t("rules.V4"))
    if rules.neighbours_only:
        diffs.append(t("rules.V5"))
    if not rules.throw_in_after_take:
        diffs.append(t("rules.V6"))
    if rules.team_size:
        diffs.append(t("rules.V7", size=rules.team_size))
    if rules.trump_exchange:
        diffs.append(t("rules.V8"))
    if rules.unlimited_bout:
        diffs.append(t("rules.V9"))
    if rules.under_the_fool:
        diffs.append(t("rules.V10"))
    if rules.series_losses:
        diffs.append(t("rules.V17", n=rules.series_losses))
    if diffs:
        lines.append(t("rules.differs"))
        lines += [f"• {d}" for d in diffs]
    else:
        lines.append(t("rules.same"))
    if turn_timer:
        lines.append(t("rules.timer", seconds=turn_timer))
    return "\n".join(lines)
