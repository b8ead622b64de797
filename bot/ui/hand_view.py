"""A player's private hand: SeatView → message content + the buttons of exactly the legal actions.

Buttons come only from ``view.legal_actions``. Defending needs two cards (which attack card,
with which card): with one open attack card each defence card is one click; with several, the
player aims at an attack card first (a view-only button; the first one is pre-selected) and then
clicks a card. When the cards do not fit in buttons they move into select menus.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import discord

from bot.text import t
from durak_core import Action, Card, SeatView
from durak_core.actions import DEFEND, EXCHANGE, PASS, TAKE, TRANSFER, Attack, Defend

from .buttons import HandButton, HandSelect
from .cards import cards_text, grouped_hand, hand_sort_key
from .table_embed import waiting_text

ROWS = 5
PER_ROW = 5
PER_SELECT = 25


@dataclass
class HandMessage:
    content: str
    view: discord.ui.View
    version: int


def _rows(n: int, per: int) -> int:
    return -(-n // per)


def render_hand(
    v: SeatView,
    *,
    table_id: str,
    version: int,
    names: Sequence[str],
    focus: Card | None = None,
    notice: str | None = None,
    deadline: float | None = None,
) -> HandMessage:
    legal = v.legal_actions
    cards: list[Action] = [a for a in legal if isinstance(a, Attack)]
    defends = [a for a in legal if isinstance(a, Defend)]
    transfers = [a for a in legal if a.kind == TRANSFER]
    controls = [a for a in legal if a.kind in (TAKE, PASS, EXCHANGE)]

    # Aiming: which open attack cards can be beaten, and which one the card buttons answer.
    targets: list[Card] = []
    for d in defends:
        if d.attack not in targets:
            targets.append(d.attack)
    table_order = [pair[0] for pair in v.table]
    targets.sort(key=table_order.index)
    aimed: Card | None = None
    if targets:
        aimed = focus if focus in targets else targets[0]
        cards = [d for d in defends if d.attack == aimed]
    if len(targets) < 2:
        targets = []
    cards.sort(key=lambda a: hand_sort_key(_card(a), v.trump))

    view = discord.ui.View(timeout=None)
    row = 0

    def button(code: str, label: str, style: discord.ButtonStyle, disabled: bool = False) -> None:
        view.add_item(
            HandButton(
                table_id,
                v.seat,
                version,
                code,
                label=label,
                style=style,
                disabled=disabled,
                row=row,
            )
        )

    for i, target in enumerate(targets):
        row = i // PER_ROW
        chosen = target == aimed
        button(
            f"a{target.index}",
            t("act.beat", card=target.unicode()),
            discord.ButtonStyle.primary if chosen else discord.ButtonStyle.secondary,
            disabled=chosen,
        )
    row = _rows(len(targets), PER_ROW)
    tail = transfers + controls
    free = ROWS - row - _rows(len(tail), PER_ROW)
    if _rows(len(cards), PER_ROW) <= free:
        for i, act in enumerate(cards):
            button(str(act.code), _card(act).unicode(), _card_style(act), False)
            if i % PER_ROW == PER_ROW - 1:
                row += 1
        if len(cards) % PER_ROW:
            row += 1
    else:
        for n in range(_rows(len(cards), PER_SELECT)):
            chunk = cards[n * PER_SELECT : (n + 1) * PER_SELECT]
            options = [
                discord.SelectOption(label=_select_label(a), value=str(a.code)) for a in chunk
            ]
            view.add_item(
                HandSelect(
                    table_id,
                    v.seat,
                    version,
                    n,
                    options=options,
                    row=row,
                    placeholder=t("hand.select_placeholder", n=len(chunk)),
                )
            )
            row += 1
    for i, ctl in enumerate(tail):
        button(str(ctl.code), _control_label(ctl, v), _control_style(ctl))
        if i % PER_ROW == PER_ROW - 1:
            row += 1

    return HandMessage(
        _content(v, names, aimed if targets else None, notice, deadline), view, version
    )


def _card(a: Action) -> Card:
    assert isinstance(a, Attack | Defend)
    return a.card


def _card_style(a: Action) -> discord.ButtonStyle:
    return discord.ButtonStyle.success if a.kind == DEFEND else discord.ButtonStyle.primary


def _select_label(a: Action) -> str:
    if isinstance(a, Defend):
        return t("act.beat_with", card=a.card.unicode(), attack=a.attack.unicode())
    assert isinstance(a, Attack)
    return a.card.unicode()


def _control_label(a: Action, v: SeatView) -> str:
    if a.kind == TAKE:
        return t("act.take")
    if a.kind == PASS:
        return t("act.pass")
    if a.kind == TRANSFER:
        return t("act.transfer", card=a.card.unicode())  # type: ignore[attr-defined]
    low = min((c for c in v.hand if c.suit == v.trump), key=lambda c: c.rank)
    return t("act.exchange", card=low.unicode(), trump=v.trump_card.unicode())


def _control_style(a: Action) -> discord.ButtonStyle:
    if a.kind == TAKE:
        return discord.ButtonStyle.danger
    if a.kind == TRANSFER:
        return discord.ButtonStyle.primary
    return discord.ButtonStyle.secondary


def _content(
    v: SeatView,
    names: Sequence[str],
    aimed: Card | None,
    notice: str | None,
    deadline: float | None,
) -> str:
    lines = []
    if notice:
        lines.append(f"⚠️ {notice}")
    lines.append(t("hand.title", n=len(v.hand), trump=v.trump_card.unicode()))
    lines.append(grouped_hand(v.hand, v.trump) if v.hand else t("hand.empty"))
    if v.table:
        pairs = [
            t("table.pair_beaten", attack=a.unicode(), defence=d.unicode())
            if d is not None
            else t("table.pair_open", attack=a.unicode())
            for a, d in v.table
        ]
        lines.append(f"{t('table.bout')}: " + " · ".join(pairs))
    lines.append(_status(v, names, aimed, deadline))
    return "\n".join(lines)


def _status(v: SeatView, names: Sequence[str], aimed: Card | None, deadline: float | None) -> str:
    if v.finished:
        return t("hand.game_over")
    if v.seat in v.finishing_order:
        return t("hand.finished_out", place=v.finishing_order.index(v.seat) + 1)
    timer = f" <t:{int(deadline)}:R>" if deadline is not None else ""
    if not v.legal_actions:
        return t("hand.waiting", what=waiting_text(v, names)) + timer
    if v.seat == v.defender:
        open_cards = [a for a, d in v.table if d is None]
        text = t("hand.you_defend", cards=cards_text(open_cards))
        if aimed is not None:
            text += " " + t("hand.pick_attack")
        return text + timer
    if not v.table:
        return t("hand.you_lead") + timer
    return t("hand.you_throw") + timer
