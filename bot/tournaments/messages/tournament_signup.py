"""A tournament's public sign-up message: its settings, the entrants, Join / Leave buttons
(DynamicItems: they work after a restart), and its state once the sign-up is closed."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

import discord

from bot.text import t
from bot.text.names import shown_name
from bot.tournaments.logic import Format, MatchKind
from bot.tournaments.runner.check_in import announced, check_in_minutes, opens_at
from bot.tournaments.runner.deciding import wants_decider
from bot.tournaments.runner.options import TableOptions
from bot.tournaments.storage import EntrantRecord, TournamentRecord, TournamentStatus
from bot.ui.buttons import SignupButton, SignupOp
from bot.ui.rules_text import rules_summary

from .tournament_checkin import CheckInButton

COLOUR = 0xB8860B  # old gold
#: The entrants' list shares the description (4096 characters) with the settings.
MAX_LISTED = 64


def when_text(at: datetime) -> str:
    """A moment as Discord shows it in each reader's own time zone: the date and time, and
    how far away (issue #30 bug 8: "20:00" was read as UTC without anyone seeing it)."""
    seconds = int(at.timestamp())
    return f"<t:{seconds}:F> (<t:{seconds}:R>)"


def mention(user: int) -> str:
    return f"<@{user}>"


def settings_lines(tr: TournamentRecord, loc: str | None) -> list[str]:
    """The settings as the organiser chose them, one line each."""
    s = tr.settings
    options = TableOptions.of(tr.options)
    match = (
        t("tournament.line.match_games", loc, n=s.match.count)
        if s.match.kind is MatchKind.GAMES
        else t("tournament.line.match_losses", loc, n=s.match.count)
    )
    lines = [
        t("tournament.line.format", loc, format=t(f"tformat.{s.format}", loc)),
        t("tournament.line.tables", loc, n=s.table_size),
        match,
        t("tournament.line.rules", loc, rules=rules_summary(options.rules, loc)),
        t("tournament.line.timer", loc, n=options.turn_timer),
    ]
    if s.format is Format.SWISS:
        lines.append(
            t("tournament.line.rounds", loc, n=s.rounds)
            if s.rounds is not None
            else t("tournament.line.rounds_auto", loc)
        )
        lines.append(t("tournament.line.ai_fill" if s.ai_fill else "tournament.line.byes", loc))
    elif s.format is Format.ROUND_ROBIN:
        lines.append(t("tournament.line.round_robin", loc))
    if wants_decider(tr.options, s):
        lines.append(t("tournament.line.decider", loc))
    lines.append(t("tournament.line.organiser", loc, who=mention(tr.organiser_id)))
    return lines


def signup_message(
    tr: TournamentRecord, entrants: Sequence[EntrantRecord], loc: str | None
) -> tuple[discord.Embed, discord.ui.View | None]:
    s = tr.settings
    embed = discord.Embed(
        title=t("tournament.signup.title", loc, name=shown_name(s.name)), colour=COLOUR
    )
    lines = settings_lines(tr, loc)
    if tr.status is TournamentStatus.SIGNUP:
        deadline = tr.signup_deadline
        lines.append(
            t("tournament.line.by_hand", loc)
            if deadline is None
            else t("tournament.line.deadline", loc, when=when_text(deadline))
        )
        lines.extend(check_in_lines(tr, entrants, loc))
    else:
        lines.append(t(f"tournament.status.{tr.status}", loc))
    listed = [e for e in entrants if not e.withdrawn][:MAX_LISTED]
    lines.append("")
    lines.append(t("tournament.entrants", loc, n=len(listed), limit=s.player_limit))
    names = [mention(e.user_id) + (" ✅" if e.checked_in else "") for e in listed]
    lines.append(", ".join(names) or t("tournament.no_entrants", loc))
    embed.description = "\n".join(lines)[:4096]
    if tr.status is not TournamentStatus.SIGNUP:
        return embed, None
    view = discord.ui.View(timeout=None)
    view.add_item(
        SignupButton(
            tr.tournament_id,
            SignupOp.JOIN,
            label=t("btn.join", loc),
            style=discord.ButtonStyle.success,
        )
    )
    view.add_item(SignupButton(tr.tournament_id, SignupOp.LEAVE, label=t("btn.leave", loc)))
    if announced(tr):
        view.add_item(CheckInButton(tr.tournament_id, label=t("btn.check_in", loc)))
    return embed, view


def check_in_lines(
    tr: TournamentRecord, entrants: Sequence[EntrantRecord], loc: str | None
) -> list[str]:
    """The check-in: when its window opens, or that it is open and who has checked in."""
    opens = opens_at(tr)
    if opens is None:
        return []
    if not announced(tr):
        minutes = check_in_minutes(tr)
        return [t("tournament.line.check_in", loc, minutes=minutes, when=when_text(opens))]
    active = [e for e in entrants if not e.withdrawn]
    done = sum(e.checked_in for e in active)
    return [t("tournament.line.check_in_open", loc, done=done, n=len(active))]
