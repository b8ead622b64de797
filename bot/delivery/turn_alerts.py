"""Turn notifications that Discord delivers: editing an embed or an ephemeral hand notifies
nobody, so a human who must lead or defend and has not acted after a grace delay gets a new
message — a mention in the table's channel, or a DM (each user's choice) — deleted as soon as
it is obsolete (docs/bot.md, "Turn notifications").

Who must act is read from the public view only (R23): the main attacker before the opening card,
the defender while a card is unbeaten and nothing was taken. At most one notification per seat
per bout; sends and deletes are paced per channel by the shared :class:`ChannelLimiter`.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Coroutine
from dataclasses import dataclass, field
from typing import Any, Literal

import discord

from bot.domain import TableStatus
from bot.pacing.channel_limits import ChannelLimiter
from bot.storage.preferences import NotifyPrefs
from bot.tables.table import Table
from bot.text import t
from durak_core.events import ActionTaken
from durak_core.move_kinds import move_kind

log = logging.getLogger(__name__)

Role = Literal["lead", "defend"]
#: How long shutting down may spend deleting notifications that are still up.
CLOSE_SECONDS = 2.0


def must_act(table: Table) -> dict[int, Role]:
    """Human-played seats the game waits for to lead or to defend (a transferred attack
    included), judged from the public view; throw-ins are never awaited this way."""
    if table.status != TableStatus.RUNNING or table.state is None:
        return {}
    view = table.public_view()
    if view.finished:
        return {}
    found: dict[int, Role] = {}
    unbeaten = any(defence is None for _, defence in view.table)
    if not view.table and view.attacker in view.awaiting:
        found[view.attacker] = "lead"
    elif unbeaten and not view.taken and view.defender in view.awaiting:
        found[view.defender] = "defend"
    return {
        seat: role
        for seat, role in found.items()
        if table.seats[seat].user_id is not None and not table.ai_controlled(seat)
    }


def transferred(table: Table) -> bool:
    """The last action was a transfer (V1) or a show (V18): the defender was just handed the
    attack."""
    for event in reversed(table.events):
        if isinstance(event, ActionTaken):
            return move_kind(event.action).passes_on
    return False


def notification_text(table: Table, user_id: int, role: Role) -> str:
    """The notification in the table's language: a mention of the user and a link to the
    table message."""
    if role == "lead":
        key = "turn.lead"
    else:
        key = "turn.transfer" if transferred(table) else "turn.defend"
    link = ""
    if table.table_message_id is not None:
        link = (
            f"https://discord.com/channels/{table.guild_id}/{table.channel_id}/"
            f"{table.table_message_id}"
        )
    return t(key, table.language, user=f"<@{user_id}>", link=link).strip()


@dataclass(eq=False)
class _Alert:
    """One seat's notification for one reason in one bout: pending, sending, or sent."""

    seat: int
    user_id: int
    role: Role
    bout: int
    #: Until the delay has passed: cancelled when the player acts first (most alerts), which
    #: a sleeping task would pay for with a CancelledError and its frames for the GC.
    timer: asyncio.TimerHandle | None = None
    task: asyncio.Task[None] | None = None
    message: discord.Message | None = None
    sending: bool = False
    obsolete: bool = False


@dataclass
class _TableAlerts:
    #: The current alert of each seat that must act.
    active: dict[int, _Alert] = field(default_factory=dict)
    #: (seat, bout) already notified in this game: never twice.
    notified: set[tuple[int, int]] = field(default_factory=set)


class TurnAlerts:
    """Called by the notifier after every change of a table (never blocks: schedules)."""

    def __init__(self, client: discord.Client, limits: ChannelLimiter, delay: float) -> None:
        self.client = client
        self.limits = limits
        #: Seconds a player may take before being notified (``TURN_NOTIFY_DELAY_SECONDS``).
        self.delay = delay
        self.prefs = NotifyPrefs()
        self._tables: dict[str, _TableAlerts] = {}
        self._tasks: set[asyncio.Task[None]] = set()

    # -- hooks -----------------------------------------------------------------------------

    def update(self, table: Table) -> None:
        """Retire the alerts the table no longer needs, start the ones it needs now."""
        alerts = self._tables.setdefault(table.table_id, _TableAlerts())
        needed = must_act(table)
        bout = table.public_view().bout if needed else -1
        for seat, alert in list(alerts.active.items()):
            if needed.get(seat) != alert.role or alert.bout != bout:
                self._retire(alerts, alert)
        for seat, role in needed.items():
            if seat in alerts.active or (seat, bout) in alerts.notified:
                continue
            user_id = table.seats[seat].user_id
            assert user_id is not None
            alert = _Alert(seat, user_id, role, bout)
            alerts.active[seat] = alert
            alert.timer = asyncio.get_running_loop().call_later(
                self._delay_for(table), self._due, table, alerts, alert
            )

    def forget(self, table: Table) -> None:
        """A new game or a closed table: every alert of the table is obsolete."""
        alerts = self._tables.pop(table.table_id, None)
        if alerts is not None:
            for alert in list(alerts.active.values()):
                self._retire(alerts, alert)

    # -- delivery --------------------------------------------------------------------------

    def _delay_for(self, table: Table) -> float:
        # Leave the player time to act before the turn timer plays for them.
        return min(self.delay, table.turn_timer / 2) if table.turn_timer > 0 else self.delay

    def _due(self, table: Table, alerts: _TableAlerts, alert: _Alert) -> None:
        alert.timer = None
        alert.task = self._spawn(self._deliver(table, alerts, alert))

    async def _deliver(self, table: Table, alerts: _TableAlerts, alert: _Alert) -> None:
        mode = await self.prefs.get(alert.user_id)
        if mode == "off" or alert.obsolete:
            return
        try:
            channel: discord.abc.Messageable
            if mode == "dm":
                channel = await self.client.create_dm(discord.Object(alert.user_id))
            else:
                channel = self.client.get_partial_messageable(table.channel_id)
            channel_id = getattr(channel, "id", table.channel_id)
            async with self.limits.write(channel_id, "post"):
                if alert.obsolete:
                    return
                alert.sending = True  # from here on, a retirement leaves the deletion to us
                alerts.notified.add((alert.seat, alert.bout))
                alert.message = await channel.send(
                    notification_text(table, alert.user_id, alert.role),
                    allowed_mentions=discord.AllowedMentions(
                        everyone=False,
                        users=[discord.Object(alert.user_id)],
                        roles=False,
                        replied_user=False,
                    ),
                )
        except discord.Forbidden as exc:  # DMs closed, or no access to the channel
            log.info("could not notify user %s (%s): %s", alert.user_id, mode, exc)
        except discord.HTTPException as exc:
            log.warning("could not notify user %s (%s): %s", alert.user_id, mode, exc)
        finally:
            alert.sending = False
        if alert.obsolete and alert.message is not None:  # retired while it was being sent
            await self._delete(alert.message)

    def _retire(self, alerts: _TableAlerts, alert: _Alert) -> None:
        alert.obsolete = True
        if alerts.active.get(alert.seat) is alert:
            del alerts.active[alert.seat]
        if alert.sending:
            return
        if alert.timer is not None:
            alert.timer.cancel()
            alert.timer = None
        if alert.task is not None and not alert.task.done():
            alert.task.cancel()
        if alert.message is not None:
            self._spawn(self._delete(alert.message))

    async def _delete(self, message: discord.Message) -> None:
        try:
            async with self.limits.write(message.channel.id, "post"):
                await message.delete()
        except discord.NotFound:  # someone deleted it already
            pass
        except discord.HTTPException as exc:
            log.warning("could not delete the turn notification %s: %s", message.id, exc)

    def _spawn(self, work: Coroutine[Any, Any, None]) -> asyncio.Task[None]:
        task = asyncio.create_task(work, name="durak-turn-alert")
        self._tasks.add(task)  # keep a reference until done (asyncio holds only weak ones)
        task.add_done_callback(self._tasks.discard)
        task.add_done_callback(_log_failure)
        return task

    @property
    def pending(self) -> int:
        """Notifications waiting, being sent or being deleted (for tests and shutdown)."""
        waiting = sum(
            1
            for alerts in self._tables.values()
            for alert in alerts.active.values()
            if alert.timer is not None
        )
        return waiting + sum(1 for task in self._tasks if not task.done())

    async def close(self) -> None:
        """Shutting down: notifications still up are deleted (a restarted bot notifies again
        if the player still has to act), as far as ``CLOSE_SECONDS`` allows."""
        for alerts in list(self._tables.values()):
            for alert in list(alerts.active.values()):
                self._retire(alerts, alert)
        self._tables.clear()
        if self._tasks:
            await asyncio.wait(set(self._tasks), timeout=CLOSE_SECONDS)
        for task in list(self._tasks):
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task


def _log_failure(task: asyncio.Task[None]) -> None:
    if not task.cancelled() and task.exception() is not None:
        log.error("turn notification failed", exc_info=task.exception())
