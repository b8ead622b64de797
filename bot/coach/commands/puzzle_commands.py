"""``/durak puzzle``: an endgame puzzle on an ephemeral board, one click per move, the solver
defending (``durak_core.coach.puzzles``); ``daily`` gives the server's puzzle of the day, the
same for everyone there, with who solved it, and counts toward the player's puzzle streak
(``/durak stats``).

A board lives in memory while it is played (its buttons name it): a newer ``/durak puzzle``
of the same player replaces it, and a restart forgets it; a click on a forgotten board is told
so. Only a daily puzzle's result is stored, the first finished try of each player.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import secrets
from collections import OrderedDict
from dataclasses import dataclass, field
from datetime import UTC, datetime
from importlib import resources

import discord
from discord import app_commands

from bot.coach.ui.puzzle_board import BoardText, puzzle_board
from bot.cogs.base import CogBase, click, loc_of
from bot.cogs.guild_settings import load_guild_settings
from bot.delivery.message_writes import update_clicked_message
from bot.storage import MAX_PAGE_SIZE, PuzzleTry
from bot.storage.puzzle_queries import day_of
from bot.tables.refusals import Refusal, Rejected
from bot.text import t
from bot.text.names import shown_name
from bot.text.translator import ls
from bot.ui.hand_view import HandMessage
from durak_core import Action
from durak_core.ai.endgame import OutOfBudget
from durak_core.coach.puzzles import GRADES, Puzzle, PuzzlePlay, daily_number, parse_puzzles
from durak_core.errors import ActionNotationError, IllegalActionError

log = logging.getLogger("bot.cogs.puzzle")

#: Boards kept in memory at once; the least recently opened is forgotten first.
MAX_BOARDS = 5000
#: The solvers listed on the daily board (the first ones; the count says how many in all).
SHOWN_SOLVERS = 10
#: Seconds the solver may think before a click is deferred (within Discord's 3 s).
DEFER_AFTER = 1.5


@functools.cache
def shipped_puzzles() -> tuple[Puzzle, ...]:
    """The shipped set (``durak_core/data/puzzles.json``), read and checked once."""
    text = resources.files("durak_core.data").joinpath("puzzles.json").read_text("utf-8")
    return parse_puzzles(text)


@dataclass(frozen=True)
class DailyTry:
    guild_id: int
    day: int
    #: The player's first finished try of the day there: its result is stored.
    counts: bool


@dataclass
class Board:
    token: str
    user_id: int
    play: PuzzlePlay
    daily: DailyTry | None
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)


class Boards:
    """The boards being played, by the token in their buttons; one per player."""

    def __init__(self, limit: int = MAX_BOARDS) -> None:
        self.limit = limit
        self._boards: OrderedDict[str, Board] = OrderedDict()
        self._of_user: dict[int, str] = {}

    def open(self, user_id: int, play: PuzzlePlay, daily: DailyTry | None) -> Board:
        old = self._of_user.pop(user_id, None)
        if old is not None:
            self._boards.pop(old, None)
        token = secrets.token_hex(4)
        while token in self._boards:
            token = secrets.token_hex(4)
        board = Board(token, user_id, play, daily)
        self._boards[token] = board
        self._of_user[user_id] = token
        while len(self._boards) > self.limit:
            _, dropped = self._boards.popitem(last=False)
            if self._of_user.get(dropped.user_id) == dropped.token:
                del self._of_user[dropped.user_id]
        return board

    def get(self, token: str) -> Board | None:
        return self._boards.get(token)


class PuzzleCommands(CogBase):
    _boards: Boards | None = None

    @property
    def boards(self) -> Boards:
        if self._boards is None:
            self._boards = Boards()
        return self._boards

    def _today(self) -> int:
        """Days since 1970-01-01 in UTC, by the bot's clock: the daily puzzle's day."""
        return day_of(self.bot.service.core.clock())

    @app_commands.command(name=ls("name.puzzle"), description=ls("cmd.puzzle"))
    @app_commands.rename(
        daily=ls("pname.daily"), number=ls("pname.number"), grade=ls("pname.grade")
    )
    @app_commands.describe(daily=ls("opt.daily"), number=ls("opt.number"), grade=ls("opt.grade"))
    @app_commands.choices(
        grade=[app_commands.Choice(name=ls(f"puzzle.grade.{g}"), value=g) for g in GRADES]
    )
    async def puzzle(
        self,
        interaction: discord.Interaction,
        daily: bool = False,
        number: int | None = None,
        grade: str | None = None,
    ) -> None:
        """A puzzle: the server's daily one, one by number, or a random one (of a grade)."""
        if sum((daily, number is not None, grade is not None)) > 1:
            await self._say(interaction, "puzzle.one_option")
            return
        puzzles = await self._puzzle_set(interaction)
        if puzzles is None:
            return
        if interaction.guild_id is not None:  # whether the server shows card pictures
            await load_guild_settings(self.bot, interaction.guild_id)
        user = interaction.user.id
        daily_try: DailyTry | None = None
        notes: list[str] = []
        if daily:
            if interaction.guild_id is None:
                await self._say(interaction, "err.guild_only")
                return
            day = self._today()
            chosen = puzzles[daily_number(interaction.guild_id, day, len(puzzles)) - 1]
            before = await self.bot.service.storage.daily_puzzle_try(
                interaction.guild_id, day, user
            )
            daily_try = DailyTry(interaction.guild_id, day, counts=before is None)
            notes.append(await self._solvers_line(interaction, daily_try))
            if before is not None:
                key = "puzzle.practice_solved" if before else "puzzle.practice_failed"
                notes.append(t(key, loc_of(interaction)))
        elif number is not None:
            if not 1 <= number <= len(puzzles):
                await self._say(interaction, "puzzle.no_number", n=number, count=len(puzzles))
                return
            chosen = puzzles[number - 1]
        else:
            pool = [p for p in puzzles if grade is None or p.grade == grade]
            if not pool:
                await self._say(interaction, "puzzle.no_grade")
                return
            chosen = pool[secrets.randbelow(len(pool))]
        board = self.boards.open(user, PuzzlePlay(chosen), daily_try)
        message = self._render(interaction, board, notes)
        await interaction.response.send_message(
            content=message.content,
            view=message.view.as_view(),
            files=message.files(),
            ephemeral=True,
        )

    @click
    async def on_puzzle_move(
        self, interaction: discord.Interaction, token: str, ply: int, code: str
    ) -> None:
        board = self.boards.get(token)
        if board is None:
            await self._say(interaction, "puzzle.gone")
            return
        if board.user_id != interaction.user.id:
            await self._say(interaction, "puzzle.not_yours")
            return
        async with board.lock:  # one move at a time: a double click plays once
            play = board.play
            if play.status != "playing":
                await self._say(interaction, "puzzle.over")
                return
            if ply != len(play.moves):
                await self._say(interaction, "puzzle.stale")
                return
            try:
                action = Action.from_code(int(code))
            except (ActionNotationError, ValueError):
                raise Rejected(Refusal.FORGED) from None
            if action not in play.choices():  # the engine's list is what the buttons showed
                await self._say(interaction, "puzzle.illegal")
                return
            try:
                await self._judged(interaction, play, action)
            except IllegalActionError:
                await self._say(interaction, "puzzle.illegal")
                return
            except OutOfBudget:
                log.warning("puzzle %d: the solver ran out of budget", play.puzzle.number)
                await self._say(interaction, "puzzle.too_hard")
                return
            notes = await self._finish(interaction, board)
        message = self._render(interaction, board, notes)
        if interaction.response.is_done():  # deferred while the solver thought
            await interaction.edit_original_response(
                content=message.content, view=message.view.as_view(), attachments=message.files()
            )
            return
        await update_clicked_message(
            interaction, content=message.content, view=message.view, attachments=message.files()
        )

    async def _judged(
        self, interaction: discord.Interaction, play: PuzzlePlay, action: Action
    ) -> None:
        """The move and the solver's replies, in a worker thread; a click is deferred (the
        board then updates when they are there) if they take longer than ``DEFER_AFTER``:
        Discord drops a click unanswered after 3 s."""
        work = asyncio.ensure_future(asyncio.to_thread(play.play, action))
        done, _ = await asyncio.wait({work}, timeout=DEFER_AFTER)
        if not done:
            await interaction.response.defer()
        await work

    async def _finish(self, interaction: discord.Interaction, board: Board) -> list[str]:
        """Keep a counting daily try once it is over; the lines the board adds for it."""
        daily = board.daily
        if daily is None:
            return []
        loc = loc_of(interaction)
        status = board.play.status
        notes: list[str] = []
        if status != "playing" and daily.counts:
            solved = status == "solved"
            at = datetime.fromtimestamp(self.bot.service.core.clock(), UTC)
            storage = self.bot.service.storage
            user = board.user_id
            number = board.play.puzzle.number
            if await storage.record_daily_puzzle(
                PuzzleTry(
                    guild_id=daily.guild_id,
                    day=daily.day,
                    user_id=user,
                    puzzle_number=number,
                    solved=solved,
                    at=at,
                )
            ):
                if solved:
                    streak = await storage.puzzle_streak(user, daily.day)
                    notes.append(t("puzzle.counted_solved", loc, n=streak.current))
                else:
                    notes.append(t("puzzle.counted_failed", loc))
            board.daily = DailyTry(daily.guild_id, daily.day, counts=False)
        notes.insert(0, await self._solvers_line(interaction, daily))
        return notes

    async def _solvers_line(self, interaction: discord.Interaction, daily: DailyTry) -> str:
        solvers = await self.bot.service.storage.daily_puzzle_solvers(
            daily.guild_id, daily.day, MAX_PAGE_SIZE
        )
        loc = loc_of(interaction)
        if not solvers:
            return t("puzzle.solvers_none", loc)
        names = ", ".join(f"<@{u}>" for u in solvers[:SHOWN_SOLVERS])
        if len(solvers) > SHOWN_SOLVERS:
            names += ", …"
        return t("puzzle.solvers", loc, n=len(solvers), names=names)

    def _render(
        self, interaction: discord.Interaction, board: Board, notes: list[str]
    ) -> HandMessage:
        daily = board.daily
        guild = interaction.guild_id
        return puzzle_board(
            board.play,
            board.token,
            shown_name(interaction.user.display_name),
            loc=loc_of(interaction),
            images=guild is not None and self.bot.notifier.images_on(guild),
            text=BoardText(None if daily is None else daily.day, tuple(notes)),
        )

    async def _puzzle_set(self, interaction: discord.Interaction) -> tuple[Puzzle, ...] | None:
        """The shipped puzzles, or None after telling the player they are unavailable (and
        the log why, under an error id the player can quote)."""
        try:
            return await asyncio.to_thread(shipped_puzzles)
        except (OSError, ValueError) as exc:
            error_id = self.bot.health.new_error_id()
            log.error("the puzzle file cannot be loaded (error id %s): %s", error_id, exc)
            await self._say(interaction, "puzzle.unavailable", id=error_id)
            return None
