"""The coach in the Activity (docs/activity.md, "The coach"): the finished game's review, a
practice table's hint and the server's daily puzzle, each through the chat's own code and words.

Reviews and hints are CPU work: they run in the chat's review worker
(:class:`bot.coach.reviews.Reviews`, shared and cached with ``/durak review`` and the hand's
Hint button), and a puzzle's solver in a worker thread. Each user has at most one coach request
under way (another is refused with ``activity.coach_busy``) and a bounded rate of them
(:data:`PER_SECOND`; a puzzle's moves are bounded by the puzzle, opened at that rate); the
socket's frame budget counts them too. Nothing here runs for a browser that does not ask.

No hidden card: a review only for the channel's finished table and only of the asker's own
seat (the record's), a hint only from the seat's view and the events it saw, as the chat's.
"""

from __future__ import annotations

import asyncio
import base64
import logging
from collections.abc import Callable
from typing import TYPE_CHECKING

from bot.activity.client_frames import error_for
from bot.activity.hub import Connection
from bot.activity.limits import KeyedBuckets
from bot.activity.protocol import Coach, coach_frame
from bot.activity.session_tokens import Session
from bot.coach.reviews import MissingEarlier, Reviews, review_seed, series_before
from bot.coach.ui.hint_text import hint_text
from bot.coach.ui.review_text import chart_png, progress_text, review_sections
from bot.domain import TableStatus
from bot.storage import GameNotFound
from bot.ui.table_embed import game_id
from durak_core import visible_to
from durak_core.coach.review_game import BadRecord, GameReview

from .activity_puzzle import PuzzleBoards

if TYPE_CHECKING:
    from bot.tables.service import TableService

log = logging.getLogger(__name__)

#: Coach requests one user may make a second (after a burst of :data:`BURST`).
PER_SECOND, BURST = 0.5, 4


class ActivityCoach:
    """The coach's requests of every socket of one Activity server (its ``coach``)."""

    def __init__(self, service: TableService, reviews: Callable[[], Reviews]) -> None:
        """``reviews``: the bot's (``DurakBot.reviews``, made on first use)."""
        self.service = service
        self.reviews = reviews
        self.rate = KeyedBuckets(PER_SECOND, BURST)
        #: Users with a review, hint or puzzle move under way.
        self.busy: set[int] = set()
        self.puzzles = PuzzleBoards(service)
        self._tasks: set[asyncio.Task[None]] = set()

    def request(self, conn: Connection, frame: Coach) -> None:
        """Check the request now and run it in a task of its own: the socket goes on reading
        (a move, closing the puzzle) while the coach works."""
        session = conn.session
        if frame.op == "puzzle_close":  # costs nothing: never refused as busy
            self.puzzles.close(session.user_id)
            conn.send(coach_frame("puzzle", puzzle=None))
            return
        # a puzzle's moves are the player's pace (each one at a time, a puzzle a few moves long)
        if frame.op != "puzzle_move" and not self.rate.take(session.user_id):
            conn.send(_error(session, "err.activity_too_fast", frame.ref))
            return
        if session.user_id in self.busy:
            conn.send(_error(session, "activity.coach_busy", frame.ref))
            return
        self.busy.add(session.user_id)
        task = asyncio.create_task(self._run(conn, frame), name=f"activity-coach-{frame.op}")
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _run(self, conn: Connection, frame: Coach) -> None:
        session = conn.session
        try:
            if frame.op == "review":
                await self.review(conn, frame.ref)
            elif frame.op == "hint":
                await self.hint(conn, frame.version or 0, frame.ref)
            else:
                await self.puzzles.handle(conn, frame)
        except Exception:  # as the chat: err.internal, and nothing of the table changed
            log.exception("activity coach %s of %s failed", frame.op, session.user_id)
            conn.send(_error(session, "err.internal", frame.ref))
        finally:
            self.busy.discard(session.user_id)

    async def close(self) -> None:
        tasks = list(self._tasks)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    async def review(self, conn: Connection, ref: str | None) -> None:
        """The review of the asker's seat in the channel's finished game, with progress."""
        session = conn.session
        loc = session.locale
        table = self.service.registry.in_channel(session.channel_id)
        if table is None or table.status != TableStatus.FINISHED or table.state is None:
            conn.send(_error(session, "err.activity_stale", ref))
            return
        if table.seat_of(session.user_id) is None:
            conn.send(_error(session, "err.not_seated", ref))
            return
        gid = game_id(table)
        storage = self.service.storage
        try:
            record = await storage.get_game(gid)
            earlier = await series_before(storage, record)
        except GameNotFound:  # the finished game is written a moment after its last move
            conn.send(_error(session, "activity.review_not_yet", ref))
            return
        except MissingEarlier as missing:
            params = {"id": gid, "n": missing.n}
            conn.send(_error(session, "review.missing_earlier", ref, params))
            return
        seat = next((s.seat for s in record.seats if s.user_id == session.user_id), None)
        if seat is None:  # seated now, but not in the recorded game (a seat taken after it)
            conn.send(_error(session, "err.not_seated", ref))
            return

        async def progress(done: int, total: int) -> None:
            conn.send(coach_frame("review_progress", text=progress_text(gid, done, total, loc)))

        conn.send(coach_frame("review_progress", text=progress_text(gid, 0, None, loc)))
        try:
            review = await self.reviews().review(record, earlier, seat, progress)
        except BadRecord:
            conn.send(_error(session, "review.bad_record", ref, {"id": gid}))
            return
        conn.send(await asyncio.to_thread(review_message, gid, review, loc))

    async def hint(self, conn: Connection, version: int, ref: str | None) -> None:
        """A practice table's hint for the asker's seat, from that seat's view and the events
        it saw (the chat's Hint button's)."""
        session = conn.session
        table = self.service.registry.in_channel(session.channel_id)
        if table is None or table.state is None or not table.active or not table.practice:
            conn.send(_error(session, "err.not_running", ref))
            return
        seat = table.seat_of(session.user_id)
        if seat is None:
            conn.send(_error(session, "err.not_seated", ref))
            return
        if version != table.version:
            conn.send(_error(session, "activity.hint_stale", ref))
            return
        view = table.seat_view(seat)
        if len(view.legal_actions) < 2:
            conn.send(_error(session, "hint.no_choice", ref))
            return
        history = visible_to(table.events, seat)
        seed = review_seed(f"{table.table_id}.{table.series_number}")
        hand = (table.table_id, seat, table.version)
        found = await self.reviews().hint(hand, view, history, seed)
        text = hint_text(found, session.locale)
        conn.send(coach_frame("hint", table=table.table_id, version=version, text=text))


def review_message(gid: str, review: GameReview, loc: str | None) -> str:
    """The review frame: the chat's words, and its chart as a PNG data URL (none without
    decisions)."""
    parts = review_sections(gid, review, loc)
    chart = None
    if review.reviews:
        png = base64.b64encode(chart_png(gid, review, loc)).decode("ascii")
        chart = f"data:image/png;base64,{png}"
    return coach_frame(
        "review",
        game_id=gid,
        title=parts.title,
        summary=list(parts.summary),
        sections=[{"name": name, "text": text} for name, text in parts.sections],
        footer=parts.footer,
        chart=chart,
        chart_alt=parts.title,
    )


def _error(
    session: Session, key: str, ref: str | None, params: dict[str, object] | None = None
) -> str:
    return error_for(session, key, params, ref)
