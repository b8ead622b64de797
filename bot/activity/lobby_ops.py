"""A browser's lobby operations (join, leave, AI seats, start, rematch) and "done for this
bout", through the same service methods as the chat's buttons: every check (the host only
starts, a full table refuses, only a seated player asks for a rematch, ...) is the table's own,
under its lock. The user is the session's, the table its channel's; the frame names neither.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.domain import TableStatus
from bot.tables.refusals import Refusal, Rejected
from bot.ui.lobby import ai_seat_name
from durak_core.ai import Level

from .protocol import LobbyOp
from .session_tokens import Session

if TYPE_CHECKING:
    from bot.tables.service import TableService


async def run_lobby_op(service: TableService, session: Session, frame: LobbyOp) -> None:
    """Do ``frame``'s operation for the session's user at its channel's table, or raise the
    :class:`Rejected` the chat would have answered."""
    table = service.registry.in_channel(session.channel_id)
    if table is None:
        raise Rejected(Refusal.NO_TABLE)
    user = session.user_id
    lobby = service.lobby
    match frame.op:
        case "join":
            seat = table.seat_of(user)
            if table.status == TableStatus.RUNNING and seat is not None and table.stand_in(seat):
                await lobby.back(table, user)  # joining again takes the seat back, as in chat
            else:
                await lobby.join(table, user, session.name or str(user), session.avatar)
        case "leave":
            await lobby.leave(table, user)
        case "add_ai":
            level = Level(frame.level or Level.NORMAL)
            await lobby.add_ai(table, user, level, ai_seat_name(table, level))
        case "remove_ai":
            await lobby.remove_ai(table, user)
        case "ai_open" | "ai_host":  # the lobby option: everyone seated adds AI, or the host
            await lobby.set_anyone_adds_ai(table, user, frame.op == "ai_open")
        case "start":
            await lobby.start(table, user)
        case "rematch":
            await lobby.rematch(table, user)
        case "auto_pass_on" | "auto_pass_off":
            seat = table.seat_of(user)
            if seat is None:
                raise Rejected(Refusal.NOT_SEATED)
            on = frame.op == "auto_pass_on"
            await service.play.set_auto_pass(table, seat, on, seen=frame.version, user_id=user)
