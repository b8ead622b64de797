"""The server's daily puzzle in the Activity (docs/activity.md, "The coach"): the chat's
``/durak puzzle daily`` on the table, with its checks and words (:mod:`bot.coach.ui.puzzle_board`),
its bookkeeping (:mod:`bot.coach.puzzle_days`: the same puzzle, the first finished try counts
for the streak) and the solver answering in a worker thread.

A board is kept in memory per user (a newer one replaces it, a restart forgets it), at most
:data:`MAX_BOARDS`. Its frame is drawn by the client's table view: a table of two seats, the
player's (0) and the solver's (1), built from the player's view only, with the solver's hand
as the puzzle states it (every card is known: the talon is empty).
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from bot.activity.client_frames import error_for
from bot.activity.hub import Connection
from bot.activity.protocol import Coach, coach_frame
from bot.activity.session_tokens import Session
from bot.activity.table_frames import public_part, seat_part
from bot.coach import puzzle_days
from bot.coach.ui.puzzle_board import moves_line, title_line, verdict_lines
from bot.text import t
from bot.ui.card_words import grouped_hand
from durak_core import Action, Card
from durak_core.ai.endgame import OutOfBudget
from durak_core.coach.puzzles import DEFENCE, PuzzlePlay, their_cards
from durak_core.errors import ActionNotationError, IllegalActionError

if TYPE_CHECKING:
    from bot.tables.service import TableService

log = logging.getLogger(__name__)

#: Boards kept at once; the least recently opened is forgotten first.
MAX_BOARDS = 2000


@dataclass
class Board:
    play: PuzzlePlay
    daily: puzzle_days.DailyTry
    #: The lines the board adds (practice, the result kept, the streak), as catalogue keys.
    notes: list[puzzle_days.Note] = field(default_factory=list)


class PuzzleBoards:
    def __init__(self, service: TableService, limit: int = MAX_BOARDS) -> None:
        self.service = service
        self.limit = limit
        self._boards: OrderedDict[int, Board] = OrderedDict()

    def close(self, user_id: int) -> None:
        self._boards.pop(user_id, None)

    async def handle(self, conn: Connection, frame: Coach) -> None:
        if frame.op == "puzzle":
            await self.open(conn, frame.ref)
        else:
            assert frame.code is not None and frame.ply is not None  # the frame's checks
            await self.move(conn, frame.code, frame.ply, frame.ref)

    async def open(self, conn: Connection, ref: str | None) -> None:
        """The server's puzzle of the day, on a fresh board."""
        session = conn.session
        if session.guild_id is None:
            conn.send(error_for(session, "err.guild_only", ref=ref))
            return
        try:
            puzzles = await asyncio.to_thread(puzzle_days.shipped_puzzles)
        except (OSError, ValueError) as exc:
            error_id = secrets.token_hex(4)
            log.error("the puzzle file cannot be loaded (error id %s): %s", error_id, exc)
            conn.send(error_for(session, "puzzle.unavailable", {"id": error_id}, ref))
            return
        day = puzzle_days.today(self.service.core.clock)
        storage = self.service.storage
        puzzle, daily, notes = await puzzle_days.open_daily(
            storage, puzzles, session.guild_id, day, session.user_id
        )
        board = Board(PuzzlePlay(puzzle), daily, notes)
        self._boards.pop(session.user_id, None)
        self._boards[session.user_id] = board
        while len(self._boards) > self.limit:
            self._boards.popitem(last=False)
        conn.send(await self.frame(session, board))

    async def move(self, conn: Connection, code: int, ply: int, ref: str | None) -> None:
        """The player's move and the solver's replies, judged as the chat's board does."""
        session = conn.session
        board = self._boards.get(session.user_id)
        if board is None:
            conn.send(error_for(session, "puzzle.gone", ref=ref))
            return
        play = board.play
        if play.status != "playing":
            conn.send(error_for(session, "puzzle.over", ref=ref))
            return
        if ply != len(play.moves):
            conn.send(error_for(session, "puzzle.stale", ref=ref))
            return
        try:
            action = Action.from_code(code)
        except ActionNotationError:
            conn.send(error_for(session, "err.activity_frame", ref=ref))
            return
        if action not in play.choices():
            conn.send(error_for(session, "puzzle.illegal", ref=ref))
            return
        try:
            await asyncio.to_thread(play.play, action)
        except IllegalActionError:
            conn.send(error_for(session, "puzzle.illegal", ref=ref))
            return
        except OutOfBudget:
            log.warning("puzzle %d: the solver ran out of budget", play.puzzle.number)
            conn.send(error_for(session, "puzzle.too_hard", ref=ref))
            return
        board.daily, kept = await puzzle_days.finish_daily(
            self.service.storage, board.daily, play, session.user_id, self.service.core.clock()
        )
        board.notes += kept
        if self._boards.get(session.user_id) is board:  # not replaced meanwhile
            conn.send(await self.frame(session, board))

    async def frame(self, session: Session, board: Board) -> str:
        """The board as a coach frame: its lines in the player's language, and the position
        as a table the client's view draws."""
        loc = session.locale
        play = board.play
        daily = board.daily
        names = (session.name or "?", t("puzzle.opponent", loc))
        view = play.view()
        theirs = their_cards(view)
        title = title_line(play.puzzle, daily.day, loc)
        lines = [t("puzzle.task", loc, name=names[DEFENCE])]
        if theirs:
            cards = grouped_hand(theirs, view.trump, loc)
            lines.append(t("puzzle.their_hand", loc, name=names[DEFENCE], cards=cards))
        lines.append(moves_line(play, names, loc))
        verdict = verdict_lines(play, names, loc)
        solvers = await self.service.storage.daily_puzzle_solvers(daily.guild_id, daily.day)
        news = [
            *verdict,
            *(t(key, loc, **params) for key, params in board.notes),
            t("activity.puzzle_solvers", loc, n=len(solvers))
            if solvers
            else t("puzzle.solvers_none", loc),
        ]
        # the chat's lines; once it is over, what is new (the verdict, the solution, the
        # streak) first, where a small screen shows it without scrolling
        lines = [title, *news, *lines] if verdict else [title, *lines, *news]
        table = _position(session, play, names, theirs)
        puzzle = {
            "number": play.puzzle.number,
            "ply": len(play.moves),
            "status": play.status,
            "verdict": verdict[0] if verdict else None,
            "lines": [line for line in lines if line],
            "table": table,
        }
        return coach_frame("puzzle", puzzle=puzzle)


def _position(
    session: Session, play: PuzzlePlay, names: tuple[str, str], theirs: list[Card]
) -> dict[str, Any]:
    """The puzzle's position as a table frame's table: the player's view (R24), the solver's
    hand as the puzzle states it, no timer, nothing to play once it is over."""
    view = play.view()
    game: dict[str, Any] = public_part(view)
    game.update(seat_part(view))
    if play.status != "playing":
        game["actions"] = []
    game["known"][DEFENCE] = sorted(str(c) for c in theirs)
    game.update(
        {"deadline": None, "deadline_in": None, "timed": [], "timeouts": [], "ratings": None}
    )
    you = {"name": names[0], "user_id": str(session.user_id), "ai": None, "playing": "human"}
    solver = {"name": names[1], "user_id": None, "ai": "hard", "playing": "ai"}
    return {
        "id": f"puzzle-{play.puzzle.number}",
        "status": "running",
        "version": len(play.moves),
        "language": session.locale,
        "host": str(session.user_id),
        "max_seats": 2,
        "you": 0,
        "players": [{**you, "avatar": session.avatar}, solver],
        "game": game,
    }
