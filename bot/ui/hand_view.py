"""A player's private hand: SeatView → message content + the buttons of exactly the legal actions.

Buttons come only from ``view.legal_actions``. Defending needs two cards (which attack card,
with which card): with one open attack card each defence card is one click; with several, the
player aims at an attack card first (a view-only button; the first one is pre-selected) and then
clicks a card. When the cards do not fit in buttons they move into select menus.
"""

from __future__ import annotations

import asyncio
import functools
import io
from collections import OrderedDict
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import Any

import discord

from bot.render import render_hand_png
from bot.text import t
from durak_core import Action, Card, SeatView
from durak_core.actions import DEFEND, EXCHANGE, PASS, TAKE, TRANSFER, Attack, Defend

from .buttons import HandButton, HandSelect
from .cards import card_text, cards_text, grouped_hand, hand_sort_key
from .table_embed import pairs_text, rank_labels, waiting_text

HAND_IMAGE = "hand.png"
ROWS = 5
PER_ROW = 5
PER_SELECT = 25


@dataclass
class HandMessage:
    content: str
    view: discord.ui.View
    version: int
    #: Draws the hand as a picture (PNG), when pictures are on for the guild.
    draw: Callable[[], bytes] | None = None
    #: What the picture shows (cards, trump, labels); None: no picture. A message already
    #: showing the same picture keeps its attachment instead of getting it uploaded again.
    picture: Hashable | None = None

    async def attachments(self, shown: object) -> dict[str, Any]:
        """The ``attachments`` argument of an edit of a message that shows the picture
        ``shown``: nothing when it is this picture already (the message keeps it), else the
        new picture (or none, removing the old one)."""
        if shown == self.picture:
            return {}
        return {"attachments": await self.files()}

    async def files(self) -> list[discord.File]:
        """The picture, drawn in a worker thread: PNG encoding releases the GIL, so a busy bot
        keeps answering clicks while pictures are drawn. Recent pictures are kept by their key
        (a hand is shown again and again between changes), without a trip to the thread."""
        if self.draw is None:
            return []
        png = _PICTURES.get(self.picture)
        if png is None:
            png = await asyncio.to_thread(self.draw)
            _PICTURES[self.picture] = png
            if len(_PICTURES) > PICTURE_CACHE:
                _PICTURES.popitem(last=False)
        else:
            _PICTURES.move_to_end(self.picture)
        return [discord.File(io.BytesIO(png), filename=HAND_IMAGE)]


_PICTURES: OrderedDict[Hashable | None, bytes] = OrderedDict()
PICTURE_CACHE = 1024


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
    loc: str | None = None,
    images: bool = False,
) -> HandMessage:
    """``loc``: the reader's Discord locale (the hand is ephemeral: it follows its owner)."""
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
            t("act.beat", loc, card=card_text(target, loc)),
            discord.ButtonStyle.primary if chosen else discord.ButtonStyle.secondary,
            disabled=chosen,
        )
    row = _rows(len(targets), PER_ROW)
    tail = transfers + controls
    free = ROWS - row - _rows(len(tail), PER_ROW)
    if _rows(len(cards), PER_ROW) <= free:
        for i, act in enumerate(cards):
            button(str(act.code), card_text(_card(act), loc), _card_style(act), False)
            if i % PER_ROW == PER_ROW - 1:
                row += 1
        if len(cards) % PER_ROW:
            row += 1
    else:
        for n in range(_rows(len(cards), PER_SELECT)):
            chunk = cards[n * PER_SELECT : (n + 1) * PER_SELECT]
            options = [
                discord.SelectOption(label=_select_label(a, loc), value=str(a.code)) for a in chunk
            ]
            view.add_item(
                HandSelect(
                    table_id,
                    v.seat,
                    version,
                    n,
                    options=options,
                    row=row,
                    placeholder=t("hand.select_placeholder", loc, n=len(chunk)),
                )
            )
            row += 1
    for i, ctl in enumerate(tail):
        button(str(ctl.code), _control_label(ctl, v, loc), _control_style(ctl))
        if i % PER_ROW == PER_ROW - 1:
            row += 1

    draw = None
    picture: Hashable | None = None
    if images and v.hand:
        shown = sorted(v.hand, key=lambda c: hand_sort_key(c, v.trump))
        labels = rank_labels(loc)
        draw = functools.partial(render_hand_png, v, shown, labels=labels)
        picture = (tuple(shown), v.trump, tuple(sorted(labels.items())))
    return HandMessage(
        _content(v, names, aimed if targets else None, notice, deadline, loc),
        view,
        version,
        draw,
        picture,
    )


def _card(a: Action) -> Card:
    assert isinstance(a, Attack | Defend)
    return a.card


def _card_style(a: Action) -> discord.ButtonStyle:
    return discord.ButtonStyle.success if a.kind == DEFEND else discord.ButtonStyle.primary


def _select_label(a: Action, loc: str | None) -> str:
    if isinstance(a, Defend):
        return t("act.beat_with", loc, card=card_text(a.card, loc), attack=card_text(a.attack, loc))
    assert isinstance(a, Attack)
    return card_text(a.card, loc)


def _control_label(a: Action, v: SeatView, loc: str | None) -> str:
    if a.kind == TAKE:
        return t("act.take", loc)
    if a.kind == PASS:
        return t("act.pass", loc)
    if a.kind == TRANSFER:
        return t("act.transfer", loc, card=card_text(a.card, loc))  # type: ignore[attr-defined]
    low = min((c for c in v.hand if c.suit == v.trump), key=lambda c: c.rank)
    return t("act.exchange", loc, card=card_text(low, loc), trump=card_text(v.trump_card, loc))


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
    loc: str | None,
) -> str:
    lines = []
    if notice:
        lines.append(f"⚠️ {notice}")
    if v.trump is None:
        lines.append(t("hand.title_no_trump", loc, n=len(v.hand)))
    else:
        lines.append(t("hand.title", loc, n=len(v.hand), trump=card_text(v.trump_card, loc)))
    lines.append(grouped_hand(v.hand, v.trump, loc) if v.hand else t("hand.empty", loc))
    if v.table:
        lines.append(f"{t('table.bout', loc)}: " + " · ".join(pairs_text(v, loc)))
    lines.append(_status(v, names, aimed, deadline, loc))
    return "\n".join(lines)


def _status(
    v: SeatView,
    names: Sequence[str],
    aimed: Card | None,
    deadline: float | None,
    loc: str | None,
) -> str:
    if v.finished:
        return t("hand.game_over", loc)
    if v.seat in v.finishing_order:
        return t("hand.finished_out", loc, place=v.finishing_order.index(v.seat) + 1)
    timer = f" <t:{int(deadline)}:R>" if deadline is not None else ""
    if not v.legal_actions:
        return t("hand.waiting", loc, what=waiting_text(v, names, loc)) + timer
    if v.seat == v.defender:
        open_cards = [a for a, d in v.table if d is None]
        text = t("hand.you_defend", loc, cards=cards_text(open_cards, loc))
        if aimed is not None:
            text += " " + t("hand.pick_attack", loc)
        return text + timer
    if not v.table:
        return t("hand.you_lead", loc) + timer
    return t("hand.you_throw", loc) + timer
