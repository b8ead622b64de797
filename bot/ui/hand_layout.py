# Compiled with mypyc at install (.build/backend.py): after an edit its group runs as Python
# until the next install (durak_core/compiled_sources.py).
"""A hand's components laid out in Discord's action rows: buttons five to a row, a select menu
a row, at most five rows; written as Discord's JSON directly (``ComponentRows``) and, the same
layout, as a discord.py view (:meth:`Layout.view`, tested equal). What goes in them is
:mod:`.hand_view`'s choice."""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import discord

from bot.text import t
from durak_core import Action, Card

from .buttons import (
    HandButton,
    HandSelect,
    TableButton,
    TableOp,
    hand_button_id,
    hand_select_id,
    table_button_id,
)
from .card_words import action_cards, card_text
from .components import ComponentRows

#: Discord's limits: action rows per message, buttons per row, options per select menu.
ROWS = 5
PER_ROW = 5
PER_SELECT = 25


def rows_for(n: int, per: int) -> int:
    return -(-n // per)


@dataclass(frozen=True)
class Item:
    """One button: its custom-id code (an action code, ``a<card>`` or a toggle), label, style."""

    code: str
    label: str
    style: discord.ButtonStyle
    disabled: bool = False
    #: A table message's button offered in the hand instead of a hand's own, e.g. "Rematch".
    table_op: TableOp | None = None


class Layout:
    """Fills Discord's action rows top down: buttons five to a row, a select menu a row."""

    def __init__(self) -> None:
        self.row = 0
        self._used = 0  # items in the current row
        self._parts: list[tuple[int, Item | tuple[list[Action], str, str | None]]] = []

    @property
    def rows_used(self) -> int:
        return self.row + (1 if self._used else 0)

    def buttons(self, items: Sequence[Item], *, new_row: bool = False) -> None:
        if new_row and self._used:
            self.row, self._used = self.row + 1, 0
        for item in items:
            if self._used == PER_ROW:
                self.row, self._used = self.row + 1, 0
            self._parts.append((self.row, item))
            self._used += 1

    def selects(self, actions: Sequence[Action], loc: str | None, placeholder: str) -> None:
        for n in range(rows_for(len(actions), PER_SELECT)):
            if self._used:
                self.row, self._used = self.row + 1, 0
            chunk = list(actions[n * PER_SELECT : (n + 1) * PER_SELECT])
            self._parts.append((self.row, (chunk, placeholder, loc)))
            self.row += 1

    def components(self, table_id: str, seat: int, version: int) -> ComponentRows:
        """The action rows as Discord's JSON, written directly (the same JSON as
        :meth:`view`'s, tested)."""
        rows: list[list[dict[str, Any]]] = []
        selects = 0
        for row, part in self._parts:
            while len(rows) <= row:
                rows.append([])
            if isinstance(part, Item):
                if part.table_op is not None:
                    custom_id = table_button_id(table_id, part.table_op)
                else:
                    custom_id = hand_button_id(table_id, seat, version, part.code)
                rows[row].append(
                    {
                        "type": 2,
                        "style": part.style.value,
                        "disabled": part.disabled,
                        "label": part.label,
                        "custom_id": custom_id,
                    }
                )
                continue
            chunk, placeholder, loc = part
            rows[row].append(
                {
                    "type": 3,
                    "custom_id": hand_select_id(table_id, seat, version, selects),
                    "min_values": 1,
                    "max_values": 1,
                    "disabled": False,
                    "required": True,
                    "placeholder": placeholder,
                    "options": [
                        {"label": select_label(a, loc), "value": str(a.code), "default": False}
                        for a in chunk
                    ],
                }
            )
            selects += 1
        rows = [r for r in rows if r]
        return ComponentRows(rows, functools.partial(self.view, table_id, seat, version))

    def view(self, table_id: str, seat: int, version: int) -> discord.ui.View:
        view = discord.ui.View(timeout=None)
        selects = 0
        for row, part in self._parts:
            if isinstance(part, Item) and part.table_op is not None:
                view.add_item(
                    TableButton(
                        table_id, part.table_op, label=part.label, style=part.style, row=row
                    )
                )
                continue
            if isinstance(part, Item):
                view.add_item(
                    HandButton(
                        table_id,
                        seat,
                        version,
                        part.code,
                        label=part.label,
                        style=part.style,
                        disabled=part.disabled,
                        row=row,
                    )
                )
                continue
            chunk, placeholder, loc = part
            options = [
                discord.SelectOption(label=select_label(a, loc), value=str(a.code)) for a in chunk
            ]
            view.add_item(
                HandSelect(
                    table_id, seat, version, selects, options=options, row=row,
                    placeholder=placeholder,
                )
            )  # fmt: skip
            selects += 1
        return view


def select_label(a: Action, loc: str | None) -> str:
    """A card's option: "J♠ beats 9♠" for a move aimed at an open card, else the card."""
    if a.a >= 0:
        return t("act.beat_with", loc, **action_cards(a, loc))
    return card_text(Card.from_index(a.c), loc)
