"""The public table message: PublicView (never a hand) → one embed + "My hand" / "Rules".

Everything here is built from ``table.state.public_view()`` and public events only (R23).
"""

from __future__ import annotations

from collections.abc import Sequence

import discord

from bot.tables.table import Table
from bot.text import t
from durak_core import PublicView, seed_commitment

from .buttons import TableButton
from .cards import event_line

LAST_ACTIONS = 6
FIELD_MAX = 1024


def waiting_text(v: PublicView, names: Sequence[str]) -> str:
    """Whose response the game awaits, from public facts only."""
    if not v.awaiting:
        return ""
    if not v.table:
        return t("table.wait.open", name=names[v.attacker])
    if v.awaiting == (v.defender,):
        return t("table.wait.defend", name=names[v.defender])
    return t("table.wait.throw", names=", ".join(names[s] for s in v.awaiting))


def _clip(text: str, limit: int = FIELD_MAX) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _role(v: PublicView, seat: int) -> str:
    if seat in v.finishing_order:
        return t("table.role.out", place=v.finishing_order.index(seat) + 1)
    if v.result is not None:
        return t("table.role.durak") if seat in v.result.losers else ""
    if seat == v.attacker:
        return t("table.role.attacker")
    if seat == v.defender:
        return t("table.role.defender")
    if seat in v.attackers:
        return t("table.role.thrower")
    return ""


def render_table(
    table: Table, *, press_hand: Sequence[str] = ()
) -> tuple[discord.Embed, discord.ui.View]:
    assert table.state is not None
    v = table.state.public_view()
    names = [s.name for s in table.seats]
    embed = discord.Embed(title=t("table.title", game=table.game_number), colour=0x2E7D32)
    embed.description = _description(table, v, names, press_hand)
    trump = v.trump_card.unicode()
    embed.add_field(
        name=t("table.trump"),
        value=t("table.trump_under" if v.trump_in_talon else "table.trump_drawn", card=trump),
    )
    embed.add_field(name=t("table.talon"), value=str(v.talon_size))
    embed.add_field(name=t("table.discard"), value=str(v.discard_size))
    embed.add_field(name=t("table.bout"), value=_clip(_bout(v, names)), inline=False)
    embed.add_field(name=t("table.players"), value=_clip(_players(v, names)), inline=False)
    last = _last_actions(table, names)
    if last:
        embed.add_field(name=t("table.last"), value=_clip(last), inline=False)
    embed.add_field(name=t("table.series"), value=_clip(_series(table, names)), inline=False)
    assert table.seed is not None
    if v.finished:
        footer = t("table.footer_seed", table=table.table_id, seed=format(table.seed, "064x"))
    else:
        footer = t("table.footer", table=table.table_id, commitment=seed_commitment(table.seed))
    embed.set_footer(text=footer)

    view = discord.ui.View(timeout=None)
    view.add_item(
        TableButton(
            table.table_id, "hand", label=t("btn.my_hand"), style=discord.ButtonStyle.primary
        )
    )
    view.add_item(TableButton(table.table_id, "rules", label=t("btn.rules")))
    if table.status == "running" and table.away:  # idle seats an AI plays for now
        view.add_item(TableButton(table.table_id, "back", label=t("btn.back")))
    if table.status == "finished":
        view.add_item(
            TableButton(
                table.table_id, "rematch", label=t("btn.rematch"), style=discord.ButtonStyle.success
            )
        )
    return embed, view


def _description(
    table: Table, v: PublicView, names: Sequence[str], press_hand: Sequence[str]
) -> str:
    lines = [table.rules.describe()]
    if v.result is not None:
        r = v.result
        if r.is_draw:
            lines.append(t("table.result_draw"))
        elif table.rules.team_size:
            lines.append(t("table.result_team", names=", ".join(names[s] for s in r.losers)))
        else:
            assert r.durak is not None
            lines.append(t("table.result_durak", name=names[r.durak]))
        lines.append(t("table.order", names=", ".join(names[s] for s in r.finishing_order)))
        if table.series is not None and table.series.finished:
            lines.append(t("table.series_over", losses=table.rules.series_losses))
        lines.append(t("table.rematch_hint"))
    else:
        waiting = waiting_text(v, names)
        if table.deadline is not None:
            lines.append(
                t("table.waiting_deadline", names=waiting, deadline=f"<t:{int(table.deadline)}:R>")
            )
        else:
            lines.append(t("table.waiting", names=waiting))
        if press_hand:
            lines.append(t("table.press_hand", names=", ".join(press_hand)))
    return "\n".join(lines)


def _bout(v: PublicView, names: Sequence[str]) -> str:
    if not v.table:
        return t("table.bout_empty")
    lines = [
        t("table.pair_beaten", attack=a.unicode(), defence=d.unicode())
        if d is not None
        else t("table.pair_open", attack=a.unicode())
        for a, d in v.table
    ]
    if v.taken:
        lines.append(t("table.took", name=names[v.defender]))
    return "\n".join(lines)


def _players(v: PublicView, names: Sequence[str]) -> str:
    lines = []
    for seat, name in enumerate(names):
        n = v.hand_sizes[seat]
        count = t("table.card") if n == 1 else t("table.cards", n=n)
        role = _role(v, seat)
        marker = "▶ " if seat in v.awaiting else ""
        lines.append(f"{marker}**{name}** · {count}" + (f" · {role}" if role else ""))
    return "\n".join(lines)


def _last_actions(table: Table, names: Sequence[str]) -> str:
    lines: list[str] = []
    timed = set(table.timed_out)
    for i, event in enumerate(table.events):
        if event.to is not None:  # private (R24): never on the public message
            continue
        line = event_line(event, names)
        if line is not None:
            lines.append(line + (t("table.timed_out") if i in timed else ""))
    return "\n".join(lines[-LAST_ACTIONS:])


def _series(table: Table, names: Sequence[str]) -> str:
    s = table.series
    if s is None:
        return "-"
    lines = [
        t("table.series_line", name=name, wins=s.wins[i], losses=s.losses[i])
        for i, name in enumerate(names)
    ]
    lines.append(t("table.series_meta", games=s.games, draws=s.draws))
    return "\n".join(lines)


def render_closed() -> tuple[discord.Embed, discord.ui.View]:
    embed = discord.Embed(title=t("table.cancelled"), colour=0x757575)
    return embed, discord.ui.View(timeout=None)
