"""What a signed-in browser's frames do (docs/activity.md, "Protocol"): an action, a lobby
operation, opening a table, each through the chat's own path and checks; a refusal is an error
frame with the chat's catalogue key, in the user's language, and changes nothing."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from bot.tables.refusals import Refusal, Rejected
from bot.text import t
from bot.ui.rules_text import refusal_text
from durak_core import Action
from durak_core.errors import ActionNotationError

from .discord_api import DiscordApi, DiscordRefused
from .hub import ActivityHub, Connection
from .limits import KeyedBuckets
from .lobby_ops import run_lobby_op
from .open_table import LeftInstance, TableOpener, blocks_new_table, open_from_browser
from .protocol import Act, LobbyOp, OpenTable, error_frame
from .session_tokens import Session

if TYPE_CHECKING:
    from bot.tables.service import TableService

log = logging.getLogger(__name__)


def error_for(
    session: Session, key: str, params: dict[str, object] | None = None, ref: str | None = None
) -> str:
    """The error frame of catalogue ``key``, in the session's language."""
    return error_frame(key, t(key, session.locale, **(params or {})), ref)


def rejection(session: Session, rej: Rejected, ref: str | None) -> str:
    if rej.kind is Refusal.STALE:
        return error_frame(rej.key, t("err.activity_stale", session.locale), ref)
    return error_frame(rej.key, refusal_text(rej, session.locale), ref)


async def act(service: TableService, conn: Connection, frame: Act) -> None:
    """The browser's action, for the seat its user holds, through the chat's path."""
    session = conn.session
    table = service.registry.in_channel(session.channel_id)
    if table is None or not table.active:
        conn.send(error_for(session, "err.not_running", ref=frame.ref))
        return
    seat = table.seat_of(session.user_id)
    if seat is None:
        conn.send(error_for(session, "err.not_seated", ref=frame.ref))
        return
    if frame.version > table.version:  # no browser was shown a version yet to come
        conn.send(error_for(session, "err.activity_frame", ref=frame.ref))
        return
    try:
        action = Action.from_code(frame.code)
    except ActionNotationError:
        conn.send(error_for(session, "err.activity_frame", ref=frame.ref))
        return
    try:
        await service.play.act(
            table, seat, action, version=None, seen=frame.version, user_id=session.user_id
        )
    except Rejected as rej:
        conn.send(rejection(session, rej, frame.ref))
    except Exception:  # the chat answers err.internal too: the table is unchanged
        log.exception("activity action of %s failed", session.user_id)
        conn.send(error_for(session, "err.internal", ref=frame.ref))


async def lobby_op(service: TableService, conn: Connection, frame: LobbyOp) -> None:
    """A lobby operation or "done for this bout", through the chat buttons' methods."""
    table = service.registry.in_channel(conn.session.channel_id)
    if frame.version is not None and table is not None and frame.version > table.version:
        conn.send(error_for(conn.session, "err.activity_frame", ref=frame.ref))
        return
    try:
        await run_lobby_op(service, conn.session, frame)
    except Rejected as rej:
        conn.send(rejection(conn.session, rej, frame.ref))
    except Exception:  # as the chat: err.internal, and the table's lock kept it whole
        log.exception("activity lobby op %s of %s failed", frame.op, conn.session.user_id)
        conn.send(error_for(conn.session, "err.internal", ref=frame.ref))


async def open_table(
    service: TableService,
    hub: ActivityHub,
    opener: TableOpener,
    discord: DiscordApi,
    opens: KeyedBuckets,
    conn: Connection,
    frame: OpenTable,
    cap: int,
) -> None:
    """Open a table in the session's channel, as ``/durak new`` would; every browser in the
    channel then gets its lobby. What costs nothing is checked before Discord is asked
    anything: a table open there already, the tables the user hosts (at most ``cap``
    unfinished), the user's rate of opening (``opens``)."""
    session = conn.session
    existing = service.registry.in_channel(session.channel_id)
    if existing is not None and blocks_new_table(existing):
        rej = Rejected(Refusal.TABLE_EXISTS, {"table": existing.table_id})
        conn.send(rejection(session, rej, frame.ref))
        return
    if service.registry.hosted_by(session.user_id) >= cap:
        conn.send(error_for(session, "err.table_cap", {"count": cap}, frame.ref))
        return
    if not opens.take(session.user_id):
        conn.send(error_for(session, "err.activity_too_fast", ref=frame.ref))
        return
    try:
        table = await open_from_browser(opener, discord, session, frame)
    except Rejected as rej:
        conn.send(rejection(session, rej, frame.ref))
        return
    except (LeftInstance, DiscordRefused) as exc:
        log.info("activity open by %s refused: %r", session.user_id, exc)
        transient = isinstance(exc, DiscordRefused) and exc.transient
        key = "err.activity_unavailable" if transient else "err.activity_instance"
        conn.send(error_for(session, key, ref=frame.ref))
        return
    except Exception:  # as the chat: err.internal
        log.exception("activity open of %s failed", session.user_id)
        conn.send(error_for(session, "err.internal", ref=frame.ref))
        return
    async with table.lock:
        hub.broadcast(table)
