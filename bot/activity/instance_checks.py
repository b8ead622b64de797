"""Whether a user is still in their activity instance, as Discord says it (docs/activity.md,
"Limits": ``ACTIVITY_INSTANCE_CHECK_SECONDS``).

Discord's word is trusted for the check interval: one request per instance in that time, however
many resume. Every instance with open sockets is checked once per interval (the sweep), and the
sockets of users no longer in it are closed. The sweep spreads its checks evenly over the
interval, one at a time: it asks Discord at most (instances with sockets) / interval times a
second — 3.3 a second at 200 instances and the default 60 s — never in a burst, and waits for
each answer before the next, so it holds at most one slot of the process's request budget
(``DiscordApi``'s ``pace``) at any moment and the chat's writes go between its checks.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from dataclasses import dataclass, field

from .discord_api import ActivityInstance, DiscordApi, DiscordRefused
from .hub import ActivityHub
from .limits import LogLimiter
from .open_table import LeftInstance
from .session_tokens import Session

log = logging.getLogger(__name__)

#: The WebSocket close code of a user no longer in the activity instance (or it ended).
CLOSE_LEFT = 4003
#: What Discord said of an instance (None: ended or unknown), and when (the signer's clock).
Checked = tuple[float, ActivityInstance | None]


def member(instance: ActivityInstance | None, session: Session) -> bool:
    """Whether ``instance`` (None: it ended, or Discord does not know it) still has the
    session's user, in the session's channel."""
    return (
        instance is not None
        and session.user_id in instance.users
        and instance.channel_id == session.channel_id
    )


@dataclass(eq=False)
class InstanceChecks:
    """``clock``: the session signer's (tests move it); ``farewell``: the error frame a socket
    closed for leaving its instance gets."""

    discord: DiscordApi
    hub: ActivityHub
    interval: float
    clock: Callable[[], float]
    quiet: LogLimiter
    farewell: Callable[[Session], str]
    _known: dict[str, Checked] = field(default_factory=dict, init=False, repr=False)
    #: Checks under way, so that one answer serves all who wait.
    _asking: dict[str, asyncio.Task[Checked]] = field(default_factory=dict, init=False, repr=False)
    _sweeper: asyncio.Task[None] | None = field(default=None, init=False, repr=False)

    async def instance(self, instance_id: str) -> Checked:
        """The instance as Discord said it at most ``interval`` ago, and when; asked again past
        that, once for all who wait. Raises a transient :class:`DiscordRefused`."""
        cached = self._known.get(instance_id)
        if cached is not None and self.clock() - cached[0] < self.interval:
            return cached
        task = self._asking.get(instance_id)
        if task is None:
            task = asyncio.create_task(self._ask(instance_id))
            self._asking[instance_id] = task
            task.add_done_callback(lambda _: self._asking.pop(instance_id, None))
        return await asyncio.shield(task)

    async def _ask(self, instance_id: str) -> Checked:
        try:
            instance: ActivityInstance | None = await self.discord.instance(instance_id)
        except DiscordRefused as exc:
            if exc.transient:
                raise
            instance = None
        now = self.clock()
        for old in [i for i, (at, _) in self._known.items() if now - at >= self.interval]:
            del self._known[old]
        self._known[instance_id] = (now, instance)
        return now, instance

    async def recheck(self, session: Session) -> float:
        """When Discord last confirmed the session's user in its instance: the token's own
        time while recent, else Discord is asked (at most once per instance and interval).
        Raises :class:`LeftInstance`; when Discord cannot answer, the old time stands (the
        next resume asks again)."""
        if self.clock() - session.checked_at < self.interval:
            return session.checked_at
        try:
            checked_at, instance = await self.instance(session.instance_id)
        except DiscordRefused as exc:
            self.quiet.info("activity instance check failed, resuming anyway: %s", exc)
            return session.checked_at
        if not member(instance, session):
            raise LeftInstance(session.instance_id)
        return checked_at

    def start(self) -> None:
        self._sweeper = asyncio.create_task(self._sweep(), name="activity-instance-sweep")

    async def stop(self) -> None:
        if self._sweeper is not None:
            self._sweeper.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._sweeper

    async def _sweep(self) -> None:
        """A sweep every ``interval``, the first one interval after the start (the sessions
        of the first sign-ins were just checked)."""
        loop = asyncio.get_running_loop()
        await asyncio.sleep(self.interval)
        while True:
            begun = loop.time()
            try:
                await self.sweep(spread=self.interval)
            except Exception:  # one odd answer must not stop the next sweeps
                log.exception("activity instance sweep failed")
            await asyncio.sleep(max(0.0, begun + self.interval - loop.time()))

    async def sweep(self, spread: float = 0.0) -> None:
        """Check every instance with open sockets (one request each, fewer when a resume
        asked recently), the checks ``spread / instances`` seconds apart; close the sockets of
        users no longer in theirs."""
        instances = list(self.hub.instances())
        gap = max(0.0, spread) / max(1, len(instances))
        for i, instance_id in enumerate(instances):
            if i and gap:
                await asyncio.sleep(gap)
            try:
                _, instance = await self.instance(instance_id)
            except DiscordRefused as exc:
                self.quiet.info("activity instance check failed: %s", exc)
                continue
            for conn in self.hub.instances().get(instance_id, []):
                if not member(instance, conn.session):
                    log.info("%s is no longer in activity instance %s", conn.user_id, instance_id)
                    self.hub.remove(conn)
                    conn.close_soon(CLOSE_LEFT, b"not in the instance", self.farewell(conn.session))
