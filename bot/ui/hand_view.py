# Compiled with mypyc at install (.build/backend.py): after an edit its group runs as Python
# until the next install (durak_core/compiled_sources.py).
"""A player's private hand: SeatView → message content + the components of exactly the legal
actions.

Components come only from ``view.legal_actions``. Every action is one click: a defence names
its pair ("8♦ on 7♥") when several cards are open, and cards that do not fit into buttons move
into select menus (one per open card when defending). Only when even that does not fit does the
player aim at an open card first. Attackers also get "done for this bout" (the table passes
for them after each new card). The content alone is enough to play: hand, table, players,
talon, the last action, what this seat can do now, and until when the message updates.
"""

from __future__ import annotations

import functools
import io
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import Any

import discord
from cachetools import LRUCache

from bot.domain import TableStatus
from bot.render import render_hand_png
from bot.tables.play import may_auto_pass_at
from bot.tables.table import Table
from bot.text import t
from bot.text.names import shown_names
from durak_core import Action, Card, PublicView, SeatView
from durak_core.actions import EXCHANGE, PASS, PASS_ACTION, TAKE
from durak_core.move_kinds import MoveKind, Style, move_kind

from .buttons import TableOp
from .card_words import action_cards, card_text, cards_text, grouped_hand, hand_sort_key
from .components import ComponentRows
from .cycles import PictureFile
from .hand_layout import PER_ROW, PER_SELECT, ROWS, Item, Layout, rows_for
from .table_embed import (
    last_lines,
    pairs_text,
    players_text,
    rank_labels,
    seat_badges,
    waiting_text,
)

HAND_IMAGE = "hand.png"


@dataclass
class HandMessage:
    content: str
    view: ComponentRows
    version: int
    #: Draws the hand as a picture (PNG), when pictures are on for the guild.
    draw: Callable[[], bytes] | None = None
    #: What the picture shows (cards, trump, labels); None: no picture. A message already
    #: showing the same picture keeps its attachment instead of getting it uploaded again.
    picture: Hashable | None = None
    #: What its components offer (:func:`offers`): a later change that keeps it may wait.
    offers: Hashable = None

    def attachments(self, shown: object) -> dict[str, Any]:
        """The ``attachments`` argument of an edit of a message that shows the picture
        ``shown``: nothing when it is this picture already (the message keeps it), else the
        new picture (or none, removing the old one)."""
        if shown == self.picture:
            return {}
        return {"attachments": self.files()}

    def files(self) -> list[discord.File]:
        """The picture, drawn here, on the event loop: a hand takes ~0.35 ms (p90 ~1 ms),
        while a trip to a worker thread made a click's answer wait, under load, for the
        thread pool and for the interpreter lock the loop holds (p99 ~120 ms at 400 tables;
        docs/performance.md). Recent pictures are kept by their key (a hand is shown again
        and again between changes)."""
        if self.draw is None:
            return []
        png = _PICTURES.get(self.picture)
        if png is None:
            png = self.draw()
            _PICTURES[self.picture] = png  # the least recently used picture makes room
        return [PictureFile(io.BytesIO(png), filename=HAND_IMAGE)]


PICTURE_CACHE = 1024
_PICTURES: LRUCache[Hashable | None, bytes] = LRUCache(maxsize=PICTURE_CACHE)


@dataclass(frozen=True)
class HandContext:
    """What a hand shows besides the seat's view: public facts of the table in words, and the
    custom-id parts of its buttons. :func:`table_hand` builds it from a table; tests build it
    directly."""

    table_id: str
    version: int
    names: Sequence[str]
    #: Per seat: "away · AI (normal) plays" and the like, or "" (``table_embed.seat_badges``).
    badges: Sequence[str] = ()
    deadline: float | None = None
    #: This seat is "done for this bout".
    auto_pass: bool = False
    #: The newest public log lines, oldest first.
    last: Sequence[str] = ()
    #: Unix time after which this message can no longer be edited (its interaction token).
    updates_until: float | None = None
    loc: str | None = None
    images: bool = False
    #: The game is over and the table may deal again: the hand offers "Rematch".
    rematch: bool = False
    #: A practice table: the hand offers "Hint" whenever the seat has a choice.
    practice: bool = False


def table_hand(
    table: Table,
    seat: int,
    *,
    loc: str | None,
    images: bool,
    updates_until: float | None,
    focus: Card | None = None,
    notice: str | None = None,
) -> HandMessage:
    """The hand of ``seat`` at ``table`` now, for a reader in ``loc``: the one way the bot
    renders a hand (answers to clicks, `/durak hand`, refreshes)."""
    assert table.state is not None
    ctx = HandContext(
        table_id=table.table_id,
        version=table.version,
        names=shown_names([s.name for s in table.seats]),
        badges=seat_badges(table, loc),
        deadline=table.deadline,
        auto_pass=seat in table.auto_pass,
        last=last_lines(table, 1),
        updates_until=updates_until,
        loc=loc,
        images=images,
        rematch=table.status == TableStatus.FINISHED and table.match is None,
        practice=table.practice,
    )
    return render_hand(table.seat_view(seat), ctx, focus=focus, notice=notice)


#: Custom-id codes of the "done for this bout" toggle (on / take back).
AUTO_PASS_ON, AUTO_PASS_OFF = "p1", "p0"
#: Custom-id code of a practice table's "Hint" button.
HINT = "h"


def auto_pass_toggle(v: PublicView, seat: int, auto_pass: bool) -> str | None:
    """The "done for this bout" button a hand shows: take back (set), set (may set), or none
    (also after the game: nothing to take back then)."""
    if v.finished:
        return None
    if auto_pass:
        return AUTO_PASS_OFF
    return AUTO_PASS_ON if may_auto_pass_at(v, seat) else None


def offers(table: Table, seat: int) -> Hashable:
    """What ``seat``'s hand offers now: its legal actions and its "done for this bout" button.
    A change to it is shown at once; any other change may wait for the hand's idle pace
    (:mod:`.refresher`). Equal to :attr:`HandMessage.offers` of the hand rendered now."""
    if table.state is None:
        return None
    toggle = auto_pass_toggle(table.public_view(), seat, seat in table.auto_pass)
    return table.legal_actions(seat), toggle


def render_hand(
    v: SeatView,
    ctx: HandContext,
    *,
    focus: Card | None = None,
    notice: str | None = None,
) -> HandMessage:
    """The hand of ``v.seat``: content in the reader's language (``ctx.loc``) and one
    component per legal action. Each defence is one click: a button naming the pair
    ("8♦ on 7♥"), or an option in one select menu per open card; only when neither fits into
    Discord's 5×5 components does the player aim first (``focus``) and then pick the card."""
    loc = ctx.loc
    legal = v.legal_actions
    tail, toggle = _tail(v, ctx)
    free = ROWS - rows_for(len(tail), PER_ROW)
    layout = Layout()
    aimed: Card | None = None
    # The hand's card buttons play the kinds without a button of their own: a defence (it aims
    # at an open card) or an attack.
    on_cards = [a for a in legal if move_kind(a).label is None]
    defends = [a for a in on_cards if a.a >= 0]
    attacks = [a for a in on_cards if a.a < 0]
    if defends:
        aimed = _lay_defences(layout, v, defends, free, focus, loc)
    elif attacks:
        _lay_attacks(layout, v, attacks, free, loc)
    layout.buttons(tail, new_row=True)
    view = layout.components(ctx.table_id, v.seat, ctx.version)
    draw = None
    picture: Hashable | None = None
    if ctx.images and v.hand:
        shown = sorted(v.hand, key=lambda c: hand_sort_key(c, v.trump))
        labels = rank_labels(loc)
        draw = functools.partial(render_hand_png, v, shown, labels=labels)
        picture = (tuple(shown), v.trump, _label_items(loc))
    return HandMessage(
        _content(v, ctx, aimed, notice), view, ctx.version, draw, picture, (legal, toggle)
    )


def _tail(v: SeatView, ctx: HandContext) -> tuple[list[Item], str | None]:
    """The last row's items (the moves that play no card of the hand, "done for this bout",
    the hint, the rematch) and the "done" toggle shown."""
    loc = ctx.loc
    legal = v.legal_actions
    tail: list[Item] = [_control(a, v, loc) for a in legal if move_kind(a).label is not None]
    toggle = auto_pass_toggle(v, v.seat, ctx.auto_pass)
    if toggle == AUTO_PASS_OFF:
        tail = [i for i in tail if i.code != str(PASS_ACTION.code)]  # the table passes anyway
        tail.append(Item(AUTO_PASS_OFF, t("act.auto_pass_off", loc), _GREY))
    elif toggle == AUTO_PASS_ON:
        tail.append(Item(AUTO_PASS_ON, t("act.auto_pass", loc), _GREY))
    if ctx.practice and len(legal) > 1:  # a hint only where there is something to choose
        tail.append(Item(HINT, t("act.hint", loc), _GREY))
    if ctx.rematch and v.finished:
        tail.append(Item("", t("btn.rematch", loc), _GREEN, table_op=TableOp.REMATCH))
    return tail, toggle


def _lay_defences(
    layout: Layout,
    v: SeatView,
    defends: list[Action],
    free: int,
    focus: Card | None,
    loc: str | None,
) -> Card | None:
    """Each defence in ``free`` rows: buttons per open card, then all buttons together, then a
    select per open card, else the two steps (aim, then pick); returns the card aimed at."""
    targets = _targets(v, defends)
    groups = [[d for d in defends if d.a == target.index] for target in targets]
    for group in groups:
        group.sort(key=lambda a: hand_sort_key(_card(a), v.trump))
    paired = len(groups) > 1  # with one open card the card alone is unambiguous
    if sum(rows_for(len(g), PER_ROW) for g in groups) <= free:
        for group in groups:
            layout.buttons([_card_item(a, loc, paired) for a in group], new_row=True)
    elif rows_for(len(defends), PER_ROW) <= free:
        layout.buttons([_card_item(a, loc, paired) for g in groups for a in g])
    elif sum(rows_for(len(g), PER_SELECT) for g in groups) <= free:
        for target, group in zip(targets, groups, strict=True):
            placeholder = t("act.beat", loc, card=card_text(target, loc))
            layout.selects(group, loc, placeholder)
    else:  # the two-step fallback: aim at an open card, then pick the card
        aimed = focus if focus in targets else targets[0]
        layout.buttons(
            [
                Item(
                    f"a{target.index}",
                    t("act.beat", loc, card=card_text(target, loc)),
                    discord.ButtonStyle.primary if target == aimed else _GREY,
                    disabled=target == aimed,
                )
                for target in targets
            ]
        )
        group = groups[targets.index(aimed)]
        if layout.rows_used + rows_for(len(group), PER_ROW) <= free:
            layout.buttons([_card_item(a, loc, False) for a in group], new_row=True)
        else:
            layout.selects(group, loc, t("hand.select_placeholder", loc, n=len(group)))
        return aimed
    return None


def _lay_attacks(
    layout: Layout, v: SeatView, attacks: list[Action], free: int, loc: str | None
) -> None:
    """The cards to lead or throw in: buttons where they fit, else selects of up to 25."""
    attacks.sort(key=lambda a: hand_sort_key(_card(a), v.trump))
    if rows_for(len(attacks), PER_ROW) <= free:
        layout.buttons([_card_item(a, loc, False) for a in attacks])
        return
    for n in range(rows_for(len(attacks), PER_SELECT)):
        chunk = attacks[n * PER_SELECT : (n + 1) * PER_SELECT]
        layout.selects(chunk, loc, t("hand.select_placeholder", loc, n=len(chunk)))


@functools.lru_cache(maxsize=64)
def _label_items(loc: str | None) -> tuple[tuple[int, str], ...]:
    """The rank labels of a language as the hand picture's key holds them."""
    return tuple(sorted(rank_labels(loc).items()))


_GREY = discord.ButtonStyle.secondary
_GREEN = discord.ButtonStyle.success


def _targets(v: SeatView, defends: Sequence[Action]) -> list[Card]:
    """The open attack cards this seat can beat, in table order."""
    order = [pair[0] for pair in v.table]
    return sorted({Card.from_index(d.a) for d in defends}, key=order.index)


def _card_item(a: Action, loc: str | None, paired: bool) -> Item:
    if paired and a.a >= 0:
        label = t("act.beat_on", loc, **action_cards(a, loc))
    else:
        label = card_text(_card(a), loc)
    return Item(str(a.code), label, _STYLES[move_kind(a).style])


def _control(a: Action, v: SeatView, loc: str | None) -> Item:
    kind = move_kind(a)
    return Item(str(a.code), _control_label(kind, a, v, loc), _STYLES[kind.style])


def _card(a: Action) -> Card:
    return Card.from_index(a.c)


#: The table of move kinds' styles as Discord's.
_STYLES: dict[Style, discord.ButtonStyle] = {
    "primary": discord.ButtonStyle.primary,
    "success": discord.ButtonStyle.success,
    "danger": discord.ButtonStyle.danger,
    "secondary": discord.ButtonStyle.secondary,
}


def _control_label(kind: MoveKind, a: Action, v: SeatView, loc: str | None) -> str:
    """The button's words: its kind's label, with the cards the action names and the trump."""
    words = action_cards(a, loc)
    if kind.label_card == "lowest_trump":  # V8: the trump the swap gives away
        low = min((c for c in v.hand if c.suit == v.trump), key=lambda c: c.rank)
        words["card"] = card_text(low, loc)
    words["trump"] = card_text(v.trump_card, loc)
    assert kind.label is not None
    return t(kind.label, loc, **words)


def _content(v: SeatView, ctx: HandContext, aimed: Card | None, notice: str | None) -> str:
    """Enough to play from this message alone: the hand, the table, every player's count and
    role, the talon, the last actions, what this seat can do now, and how long it updates."""
    loc = ctx.loc
    lines = []
    if notice:
        lines.append(f"⚠️ {notice}")
    if v.trump is None:
        lines.append(t("hand.title_no_trump", loc, n=len(v.hand)))
    else:
        lines.append(t("hand.title", loc, n=len(v.hand), trump=card_text(v.trump_card, loc)))
    lines.append(grouped_hand(v.hand, v.trump, loc) if v.hand else t("hand.empty", loc))
    bout = " · ".join(pairs_text(v, loc)) if v.table else t("table.bout_empty", loc)
    lines.append(f"**{t('table.bout', loc)}**: {bout}")
    lines.append(players_text(v, ctx.names, ctx.badges, loc, you=v.seat))
    lines.append(
        t("hand.piles", loc, talon=v.talon_size, discard=v.discard_size)
        + (f" · {ctx.last[-1]}" if ctx.last else "")
    )
    lines.append(f"**{_status(v, ctx, aimed)}**")
    if v.finished and ctx.rematch:
        lines.append(t("hand.after_game", loc))
    if ctx.updates_until is not None and not v.finished:
        lines.append(t("hand.updates_until", loc, time=f"<t:{int(ctx.updates_until)}:t>"))
    return "\n".join(lines)


def _status(v: SeatView, ctx: HandContext, aimed: Card | None) -> str:
    """Exactly what this seat can do now, or why it cannot (its own facts are private; the
    public markers never say who holds a card of a rank on the table, R23)."""
    loc, names = ctx.loc, ctx.names
    if v.finished:
        return t("hand.game_over", loc)
    if v.seat in v.finishing_order:
        return t("hand.finished_out", loc, place=v.finishing_order.index(v.seat) + 1)
    timer = f" <t:{int(ctx.deadline)}:R>" if ctx.deadline is not None else ""
    kinds = {a.kind for a in v.legal_actions}
    others = [s for s in v.awaiting if s != v.seat]
    throwers = ", ".join(names[s] for s in others)
    if v.seat == v.defender and v.table:
        open_cards = [a for a, d in v.table if d is None]
        if TAKE in kinds:
            passes_on = any(move_kind(a).passes_on for a in v.legal_actions)
            key = "hand.you_defend_transfer" if passes_on else "hand.you_defend"
            text = t(key, loc, cards=cards_text(open_cards, loc))
            if aimed is not None:
                text += " " + t("hand.pick_attack", loc)
            return text + timer
        if v.taken:
            return t("hand.taking", loc, names=throwers or "-")
        return t("hand.all_beaten", loc, names=throwers or "-")
    if ctx.auto_pass:  # it may still throw in: that takes the setting back
        return t("hand.auto_pass", loc)
    if kinds - {EXCHANGE}:
        if not v.table:
            return t("hand.you_lead", loc) + timer
        if PASS in kinds:
            return t("hand.you_throw", loc) + timer
        return t("hand.you_throw_early", loc, name=names[v.defender]) + timer
    if v.seat in v.attackers and v.table:
        what = waiting_text(v, names, loc, leave_out=v.seat)
        key = "hand.limit_reached" if len(v.table) >= v.limit else "hand.nothing_to_throw"
        return t(key, loc, what=what)
    if EXCHANGE in kinds:
        return t("hand.may_exchange", loc)
    return t("hand.waiting", loc, what=waiting_text(v, names, loc, leave_out=v.seat))
