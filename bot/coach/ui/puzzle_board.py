"""The board of ``/durak puzzle``: a puzzle's position as the player's hand (the hand message's
own content, buttons and picture, :func:`bot.ui.hand_view.render_hand`), above it what the
player knows of the other hand, the moves so far and, once over, the verdict and the solution.

Its buttons carry the puzzle board they belong to and the move number::

    dkz:<board>:<ply>:<code>     a move: an engine action code
    dkzs:<board>:<ply>:<n>       a select menu of moves (values are action codes)

They are the hand's buttons with these ids: the same labels and layout, exactly the legal
actions (the engine's list, from the view). Registered by the bot beside
``bot.ui.buttons.DYNAMIC_ITEMS`` (like the check-in button).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Protocol, Self

import discord

from bot.storage.puzzle_queries import SECONDS_PER_DAY
from bot.text import t
from bot.ui.buttons import FromCustomId, chosen_value, select_menu
from bot.ui.card_words import action_line, grouped_hand
from bot.ui.components import ComponentRows
from bot.ui.hand_view import HandContext, HandMessage, render_hand
from durak_core import Action, parse_move
from durak_core.coach.puzzles import DEFENCE, Puzzle, PuzzlePlay, their_cards

BUTTON = r"dkz:(?P<board>[0-9a-f]{8}):(?P<ply>[0-9]{1,3}):(?P<code>[0-9]{1,5})"
SELECT = r"dkzs:(?P<board>[0-9a-f]{8}):(?P<ply>[0-9]{1,3}):(?P<n>[0-9])"
_HAND_ID = re.compile(r"dks?:[0-9a-f]{8}:[0-5]:[0-9]{1,9}:(?P<tail>[0-9]{1,5})")
#: Moves shown in full; a longer game shows its last ones, a longer solution its first ones.
SHOWN_MOVES = 8
SHOWN_SOLUTION = 12
#: Discord's limit on a message's content.
MAX_CONTENT = 2000


class PuzzleHandler(Protocol):
    """Implemented by the cog; the items below only parse and delegate."""

    async def on_puzzle_move(
        self, interaction: discord.Interaction, board: str, ply: int, code: str
    ) -> None: ...


def _handler(interaction: discord.Interaction) -> PuzzleHandler:
    found: PuzzleHandler | None = getattr(interaction.client, "clicks", None)
    if found is None:  # the bot is starting: the cog is not there yet
        raise RuntimeError("no click handler")
    return found


class PuzzleButton(FromCustomId, discord.ui.DynamicItem[discord.ui.Button[Any]], template=BUTTON):
    """``button``: the hand's button with this item's id (its label, style and row); a click
    rebuilds the item from the id alone."""

    def __init__(
        self, board: str, ply: int, code: str, button: discord.ui.Button[Any] | None = None
    ) -> None:
        super().__init__(
            button or discord.ui.Button(label="?", custom_id=f"dkz:{board}:{ply}:{code}")
        )
        self.board, self.ply, self.code = board, ply, code

    @classmethod
    def from_match(cls, match: re.Match[str]) -> Self:
        return cls(match["board"], int(match["ply"]), match["code"])

    async def answer(self, interaction: discord.Interaction) -> None:
        await _handler(interaction).on_puzzle_move(interaction, self.board, self.ply, self.code)


class PuzzleSelect(FromCustomId, discord.ui.DynamicItem[discord.ui.Select[Any]], template=SELECT):
    """``menu``: the hand's select menu with this item's id (its options, placeholder and
    row); a click rebuilds the item from the id alone."""

    def __init__(
        self, board: str, ply: int, n: int, menu: discord.ui.Select[Any] | None = None
    ) -> None:
        super().__init__(menu or select_menu(f"dkzs:{board}:{ply}:{n}"))
        self.board, self.ply = board, ply

    @classmethod
    def from_match(cls, match: re.Match[str]) -> Self:
        return cls(match["board"], int(match["ply"]), int(match["n"]))

    async def answer(self, interaction: discord.Interaction) -> None:
        await _handler(interaction).on_puzzle_move(
            interaction, self.board, self.ply, chosen_value(interaction)
        )


#: The puzzle's items the bot registers besides ``bot.ui.buttons.DYNAMIC_ITEMS``.
PUZZLE_ITEMS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (PuzzleButton, PuzzleSelect)


def is_puzzle_item(custom_id: str) -> bool:
    return (
        re.fullmatch(BUTTON, custom_id) is not None or re.fullmatch(SELECT, custom_id) is not None
    )


def _as_puzzle_rows(rows: ComponentRows, board: str, ply: int) -> ComponentRows:
    """The hand's rows with the puzzle's ids: the same buttons, labels and layout."""
    out: list[list[dict[str, Any]]] = []
    for row in rows.to_components():
        components = []
        for c in row["components"]:
            found = _HAND_ID.fullmatch(str(c.get("custom_id", "")))
            if found is None:  # the hand offers nothing else in a puzzle; never a table's op
                continue
            kind = "dkzs" if c["type"] == 3 else "dkz"
            components.append({**c, "custom_id": f"{kind}:{board}:{ply}:{found['tail']}"})
        if components:
            out.append(components)
    return ComponentRows(out, lambda: _view(out))


def _view(rows: Sequence[Sequence[dict[str, Any]]]) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for number, row in enumerate(rows):
        for c in row:
            custom_id = c["custom_id"]
            found = re.fullmatch(BUTTON if c["type"] == 2 else SELECT, custom_id)
            assert found is not None
            board, ply = found["board"], int(found["ply"])
            if c["type"] == 2:
                style = discord.ButtonStyle(c["style"])
                button: discord.ui.Button[Any] = discord.ui.Button(
                    custom_id=custom_id, label=c["label"], style=style, row=number
                )
                view.add_item(PuzzleButton(board, ply, found["code"], button))
            else:
                options = [
                    discord.SelectOption(label=o["label"], value=o["value"]) for o in c["options"]
                ]
                menu = select_menu(custom_id, options, c.get("placeholder"), number)
                view.add_item(PuzzleSelect(board, ply, int(found["n"]), menu))
    return view


@dataclass(frozen=True)
class BoardText:
    """What the board says besides the position: the title's kind and the lines under it
    (the daily puzzle's solvers, whether this try counts, the streak)."""

    #: The day of a daily puzzle (days since 1970-01-01, UTC), else None.
    day: int | None = None
    notes: tuple[str, ...] = ()


def day_text(day: int) -> str:
    return datetime.fromtimestamp(day * SECONDS_PER_DAY, UTC).date().isoformat()


def puzzle_board(
    play: PuzzlePlay,
    board: str,
    player: str,
    *,
    loc: str | None,
    images: bool,
    text: BoardText = BoardText(),
) -> HandMessage:
    """The board of ``play`` for the player named ``player``, in language ``loc``."""
    puzzle = play.puzzle
    names = (player, t("puzzle.opponent", loc))
    v = play.view()
    ctx = HandContext(table_id=board, version=len(play.moves), names=names, loc=loc, images=images)
    hand = render_hand(v, ctx)
    lines = [_title(puzzle, text.day, loc), t("puzzle.task", loc, name=names[DEFENCE])]
    theirs = their_cards(v)
    if theirs:
        known = grouped_hand(theirs, v.trump, loc)
        lines.append(t("puzzle.their_hand", loc, name=names[DEFENCE], cards=known))
    moves = ""
    if play.moves:
        shown = _moves(play.moves[-SHOWN_MOVES:], names, loc)
        moves = t(
            "puzzle.moves", loc, moves=("… → " if len(play.moves) > SHOWN_MOVES else "") + shown
        )
        lines.append(moves)
    if play.status == "playing":
        lines.append(hand.content)
    else:  # its last line, what the seat may do now (no timer, no rematch here), is moot
        lines.append(hand.content.rsplit("\n", 1)[0])
    if play.status == "solved":
        lines.append(t("puzzle.solved", loc, name=names[DEFENCE]))
    elif play.status == "failed":
        seat, last = play.moves[-1]
        lines.append(
            t("puzzle.failed", loc, move=action_line(seat, last, names, loc), name=names[DEFENCE])
        )
    if play.status != "playing":
        lines.append(t("puzzle.solution", loc, line=_solution(puzzle, names, loc)))
    lines += text.notes
    if len("\n".join(lines)) > MAX_CONTENT and moves:  # the longest solutions: the rest fits
        lines.remove(moves)
    rows = _as_puzzle_rows(hand.view, board, len(play.moves))
    if play.status != "playing":
        rows = ComponentRows([], lambda: discord.ui.View(timeout=None))
    return HandMessage(
        "\n".join(lines), rows, len(play.moves), hand.draw, hand.picture, hand.offers
    )


def _title(puzzle: Puzzle, day: int | None, loc: str | None) -> str:
    grade = t(f"puzzle.grade.{puzzle.grade}", loc)
    if day is None:
        return t("puzzle.title", loc, n=puzzle.number, grade=grade)
    return t("puzzle.title_daily", loc, n=puzzle.number, grade=grade, date=day_text(day))


def _moves(moves: Sequence[tuple[int, Action]], names: Sequence[str], loc: str | None) -> str:
    return " → ".join(action_line(seat, a, names, loc) for seat, a in moves)


def _solution(puzzle: Puzzle, names: Sequence[str], loc: str | None) -> str:
    shown = _moves([parse_move(m) for m in puzzle.line[:SHOWN_SOLUTION]], names, loc)
    return shown + (" → …" if len(puzzle.line) > SHOWN_SOLUTION else "")


__all__ = [
    "PUZZLE_ITEMS",
    "BoardText",
    "PuzzleButton",
    "PuzzleHandler",
    "PuzzleSelect",
    "day_text",
    "is_puzzle_item",
    "puzzle_board",
]
