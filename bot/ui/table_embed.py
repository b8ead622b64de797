# Compiled with mypyc at install (.build/backend.py): after an edit its group runs as Python
# until the next install (durak_core/compiled_sources.py).
"""The public table message: PublicView (never a hand) → one embed + "My hand" / "Rules".

Everything here is built from ``table.state.public_view()`` and public events only (R23), in the
table's language (``Table.language``). With pictures on, the embed shows ``table.png`` (see
``table_picture.table_file``); the text fields stay as the fallback.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import Any

import discord

from bot.domain import TableStatus
from bot.render.table import seat_role
from bot.tables.table import STAND_IN_LEVEL, Note, Table
from bot.text import t
from bot.text.names import shown_names
from durak_core import Event, PublicView, seed_commitment

from .buttons import ReviewButton, TableButton, TableOp
from .card_words import card_text, event_line
from .components import ComponentRows
from .rules_text import rules_summary
from .table_picture import TABLE_IMAGE
from .table_picture import rank_labels as rank_labels  # still imported from here (hand_view)

LAST_ACTIONS = 6
FIELD_MAX = 1024


def waiting_text(
    v: PublicView, names: Sequence[str], loc: str | None = None, *, leave_out: int | None = None
) -> str:
    """Whose response the game awaits, from public facts only (``leave_out``: the reader, who
    knows it has nothing to throw in)."""
    awaiting = [s for s in v.awaiting if s != leave_out]
    if not awaiting:
        return "-"
    if not v.table:
        return t("table.wait.open", loc, name=names[v.attacker])
    if awaiting == [v.defender]:
        return t("table.wait.defend", loc, name=names[v.defender])
    return t("table.wait.throw", loc, names=", ".join(names[s] for s in awaiting))


def seat_badges(table: Table, loc: str | None) -> list[str]:
    """Per seat, that an AI plays a human's seat (its owner idle or gone): "away · AI (normal)
    plays"; empty otherwise (an AI seat's name already says its level)."""
    out = []
    for seat in range(len(table.seats)):
        who, level = table.player_of(seat)
        stand_in = who in ("away", "left")
        out.append(t(f"badge.{who}", loc, level=t(f"level.{level}", loc)) if stand_in else "")
    return out


def game_id(table: Table) -> str:
    """The recorded id of the table's current (or just finished) game (see tables/records.py)."""
    return f"{table.series_id}.{table.game_number}"


def _clip(text: str, limit: int = FIELD_MAX) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def trump_text(v: PublicView, loc: str | None) -> str:
    card = card_text(v.trump_card, loc)
    if v.trump is None:  # V11, V13 with a turned diamond, a turned joker (V15)
        return t("table.trump_none", loc, card=card)
    if v.trump_will_change:  # V14: the face-down card under it becomes the trump
        return t("table.trump_changes", loc, card=card)
    return t("table.trump_under" if v.trump_in_talon else "table.trump_drawn", loc, card=card)


def _trump_field(table: Table, v: PublicView, names: Sequence[str]) -> str:
    """The trump, who holds the turned card after a whole-deck deal (R6), and the card that
    decided who led (R8)."""
    loc = table.language
    lines = [trump_text(v, loc)]
    holder = next((s for s, known in enumerate(v.known) if v.trump_card in known), None)
    if holder is not None and not v.trump_in_talon and v.talon_size == 0:
        lines.append(t("table.trump_held", loc, name=names[holder]))
    if v.bout == 0:  # the first bout: who led, and why
        lines += [note_line(n, names, loc) for n in table.notes if n.key != "r6"]
    return "\n".join(lines)


def render_table(
    table: Table, *, press_hand: Sequence[str] = (), images: bool = False, launch: bool = False
) -> tuple[discord.Embed, ComponentRows]:
    """The public table message; ``launch`` adds "Play at the table" (the Activity)."""
    assert table.state is not None
    loc = table.language
    v = table.public_view()
    names = shown_names([s.name for s in table.seats])
    title = t("table.title", loc, game=table.game_number)
    if table.practice:  # hints on offer: say so to everyone watching, the games are unrated
        title += t("table.practice", loc)
    embed = discord.Embed(title=title, colour=0x2E7D32)
    embed.description = _description(table, v, names, press_hand)
    field = _field_names(loc)
    embed.add_field(name=field["trump"], value=_trump_field(table, v, names))
    embed.add_field(name=field["talon"], value=str(v.talon_size))
    embed.add_field(name=field["discard"], value=str(v.discard_size))
    embed.add_field(name=field["bout"], value=_clip(_bout(v, names, loc)), inline=False)
    players = players_text(v, names, seat_badges(table, loc), loc)
    embed.add_field(name=field["players"], value=_clip(players), inline=False)
    last = "\n".join(last_lines(table))
    if last:
        embed.add_field(name=field["last"], value=_clip(last), inline=False)
    embed.add_field(name=field["series"], value=_clip(_series(table, names)), inline=False)
    if images:
        embed.set_image(url=f"attachment://{TABLE_IMAGE}")
    assert table.seed is not None
    embed.set_footer(text=_footer(table.table_id, table.seed, v.finished, loc))
    # a tournament's table deals its match on by itself: no rematch
    finished = table.status == TableStatus.FINISHED and table.match is None
    ai_stands_in = table.status == TableStatus.RUNNING and bool(table.away or table.left)
    shown = (True, launch, True, ai_stands_in, finished)  # of _BUTTONS, in order
    ops = tuple(op for (op, _, _), on in zip(_BUTTONS, shown, strict=True) if on)
    # Every finished game, a tournament's too, offers its players a review (docs/ai.md).
    review = game_id(table) if table.status == TableStatus.FINISHED else ""
    rows = (_button_rows(table.table_id, ops, loc, review),)
    view = functools.partial(_buttons_view, table.table_id, ops, loc, review)
    return embed, ComponentRows(rows, view)


@functools.lru_cache(maxsize=64)
def _field_names(loc: str | None) -> Mapping[str, str]:
    """The embed's field names in the table's language (read-only: it is shared)."""
    fields = ("trump", "talon", "discard", "bout", "players", "last", "series")
    return MappingProxyType({f: t(f"table.{f}", loc) for f in fields})


#: The table message's buttons, in order: (op, label, style).
_BUTTONS = (
    (TableOp.HAND, "btn.my_hand", discord.ButtonStyle.primary),
    (TableOp.PLAY, "btn.play_table", discord.ButtonStyle.secondary),
    (TableOp.RULES, "btn.rules", discord.ButtonStyle.secondary),
    (TableOp.BACK, "btn.back", discord.ButtonStyle.secondary),
    (TableOp.REMATCH, "btn.rematch", discord.ButtonStyle.success),
)


def _buttons(
    table_id: str, ops: tuple[TableOp, ...], loc: str | None, review: str
) -> list[TableButton | ReviewButton]:
    """The table's buttons, then "Review" for the finished game ``review`` ("" for none)."""
    out: list[TableButton | ReviewButton] = [
        TableButton(table_id, op, label=t(label, loc), style=style)
        for op, label, style in _BUTTONS
        if op in ops
    ]
    if review:
        out.append(ReviewButton(review, label=t("btn.review", loc)))
    return out


def _buttons_view(
    table_id: str, ops: tuple[TableOp, ...], loc: str | None, review: str
) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for button in _buttons(table_id, ops, loc, review):
        view.add_item(button)
    return view


# The same few button rows for a table through all its edits: its JSON written once (equal to
# the view's, tested). Callers get copies (``ComponentRows.to_components``).
@functools.lru_cache(maxsize=1024)
def _button_rows(
    table_id: str, ops: tuple[TableOp, ...], loc: str | None, review: str
) -> tuple[dict[str, Any], ...]:
    return tuple(dict(b.item.to_component_dict()) for b in _buttons(table_id, ops, loc, review))


# The commitment is a SHA-256 of the seed: one per game, not one per edit.
@functools.lru_cache(maxsize=1024)
def _footer(table_id: str, seed: int, finished: bool, loc: str | None) -> str:
    if finished:
        return t("table.footer_seed", loc, table=table_id, seed=format(seed, "064x"))
    return t("table.footer", loc, table=table_id, commitment=seed_commitment(seed))


def _description(
    table: Table, v: PublicView, names: Sequence[str], press_hand: Sequence[str]
) -> str:
    loc = table.language
    lines = [rules_summary(table.rules, loc)]
    if v.result is not None:
        r = v.result
        if r.is_draw:
            lines.append(t("table.result_draw", loc))
        elif table.rules.team_size:
            lines.append(t("table.result_team", loc, names=", ".join(names[s] for s in r.losers)))
        else:
            assert r.durak is not None
            lines.append(t("table.result_durak", loc, name=names[r.durak]))
        lines.append(t("table.order", loc, names=", ".join(names[s] for s in r.finishing_order)))
        if table.series is not None and table.series.finished:
            lines.append(t("table.series_over", loc, n=table.rules.series_losses))
        lines.append(t("table.game_id", loc, id=game_id(table)))
        if table.match is None:
            lines.append(t("table.rematch_hint", loc))
    else:
        waiting = waiting_text(v, names, loc)
        if table.deadline is not None:
            deadline = f"<t:{int(table.deadline)}:R>"
            lines.append(t("table.waiting_deadline", loc, names=waiting, deadline=deadline))
        else:
            lines.append(t("table.waiting", loc, names=waiting))
        if press_hand:
            lines.append(t("table.press_hand", loc, names=", ".join(shown_names(press_hand))))
    return "\n".join(lines)


def pairs_text(v: PublicView, loc: str | None) -> list[str]:
    return [
        t("table.pair_beaten", loc, attack=card_text(a, loc), defence=card_text(d, loc))
        if d is not None
        else t("table.pair_open", loc, attack=card_text(a, loc))
        for a, d in v.table
    ]


def _bout(v: PublicView, names: Sequence[str], loc: str | None) -> str:
    if not v.table:
        return t("table.bout_empty", loc)
    lines = pairs_text(v, loc)
    if v.taken:
        lines.append(t("table.took", loc, name=names[v.defender]))
    return "\n".join(lines)


def players_text(
    v: PublicView,
    names: Sequence[str],
    badges: Sequence[str],
    loc: str | None,
    *,
    you: int | None = None,
) -> str:
    """A line per seat: ▶ when awaited, name, what plays it, card count, role."""
    lines = []
    for seat, name in enumerate(names):
        role, place = seat_role(v, seat)  # the picture's rule: one definition of a seat's role
        badge = badges[seat] if seat < len(badges) else ""
        awaited = seat in v.awaiting
        lines.append(
            _seat_line(name, seat == you, badge, v.hand_sizes[seat], role, place, awaited, loc)
        )
    return "\n".join(lines)


# Every table message and hand writes a line per seat; most stay the same from edit to edit.
@functools.lru_cache(maxsize=4096)
def _seat_line(
    name: str, you: bool, badge: str, n: int, role: str, place: int, awaited: bool, loc: str | None
) -> str:
    parts = [f"**{name}**" + (f" ({t('hand.you', loc)})" if you else "")]
    if badge:
        parts.append(badge)
    parts.append(t("table.cards", loc, n=n))
    if role:
        key = f"table.role.{role}"
        parts.append(t(key, loc, place=place) if role == "out" else t(key, loc))
    return ("▶ " if awaited else "") + " · ".join(parts)


def last_lines(table: Table, limit: int = LAST_ACTIONS) -> list[str]:
    """The newest public log lines in words, oldest first: engine events (never a private one,
    R24) and the table's notes (who leads and why, leaving, coming back)."""
    loc, names = table.language, shown_names([s.name for s in table.seats])
    lines: list[str] = []
    events, notes, timed = table.events, table.notes, table.timed_out
    n, j = len(events), len(notes)  # notes[:j] are yet to be written
    # From the newest back: the message shows only the last few (a long game has hundreds).
    # A note with ``at == i`` came after event i - 1 and before event i.
    for i in range(n, -1, -1):
        if i < n and events[i].to is None:  # R24: no private event
            line = _event_line(events[i], names, loc)
            if line is not None:
                lines.append(line + (t("table.timed_out", loc) if i in timed else ""))
        while j and notes[j - 1].at == i:
            j -= 1
            lines.append(note_line(notes[j], names, loc))
        if len(lines) >= limit:
            break
    return list(reversed(lines[:limit]))


# Every table message and hand shows the last lines again: each line is written once.
@functools.lru_cache(maxsize=4096)
def _event_line(event: Event, names: tuple[str, ...], loc: str | None) -> str | None:
    return event_line(event, names, loc)


def note_line(note: Note, names: Sequence[str], loc: str | None) -> str:
    card = "" if note.card is None else card_text(note.card, loc)
    level = t(f"level.{STAND_IN_LEVEL}", loc)
    return t(f"note.{note.key}", loc, name=names[note.seat], card=card, level=level)


def _series(table: Table, names: Sequence[str]) -> str:
    s = table.series
    if s is None:
        return "-"
    return _series_text(
        tuple(names), tuple(s.wins), tuple(s.losses), s.games, s.draws, table.language
    )


# The standings change once a game: every edit between shows the same lines.
@functools.lru_cache(maxsize=1024)
def _series_text(
    names: tuple[str, ...],
    wins: tuple[int, ...],
    losses: tuple[int, ...],
    games: int,
    draws: int,
    loc: str | None,
) -> str:
    lines = [
        t(
            "table.series_line",
            loc,
            name=name,
            wins=t("table.series_wins", loc, n=wins[i]),
            losses=t("table.series_losses", loc, n=losses[i]),
        )
        for i, name in enumerate(names)
    ]
    games_text, draws_text = (
        t("table.series_games", loc, n=games),
        t("table.series_draws", loc, n=draws),
    )
    lines.append(t("table.series_meta", loc, games=games_text, draws=draws_text))
    return "\n".join(lines)


def render_closed(
    loc: str | None = None, *, tournament: bool = False
) -> tuple[discord.Embed, discord.ui.View]:
    """A closed table's message. A tournament's table is closed, not cancelled: its match was
    decided (a result recorded, a withdrawal) or its tournament ended, as its thread says."""
    key = "table.closed_tournament" if tournament else "table.cancelled"
    embed = discord.Embed(title=t(key, loc), colour=0x757575)
    return embed, discord.ui.View(timeout=None)
