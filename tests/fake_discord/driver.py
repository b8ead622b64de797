"""FakeDiscord: the object tests use to run the fake and act as Discord users."""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
from collections.abc import AsyncIterator, Callable, Iterable, Iterator
from contextlib import asynccontextmanager, contextmanager
from typing import Any, Literal, TypeVar

import discord
import yarl
from aiohttp import web
from discord.gateway import DiscordWebSocket
from discord.http import Route

from .activity import ActivityState
from .clock import FakeClock
from .contract.openapi_check import pinned_contract
from .faults import EditRateLimiter, GlobalRateLimiter, ScriptedFailure
from .form_errors import contract_gate
from .gateway import Gateway
from .http_util import API_PREFIX, CONTRACT_GATE
from .interactions import command_data, interaction_payload
from .model import (
    DM,
    JSON,
    SELECT_TYPES,
    ButtonInfo,
    FakeInteraction,
    FakeMessage,
    RecordedRequest,
    Violation,
)
from .payloads import channel_payload, thread_payload
from .rest import RestApi, make_middleware
from .results import InteractionResult
from .store import FakeStore

T = TypeVar("T")
# Interaction types (what the user did).
APPLICATION_COMMAND, COMPONENT, AUTOCOMPLETE_REQUEST, MODAL_SUBMIT = 2, 3, 4, 5
MessageRef = FakeMessage | int


class _ErrorCollector(logging.Handler):
    """Errors discord.py only logs (failed handlers, failed views) must still fail tests."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


class FakeDiscord:
    """A Discord REST API + gateway on 127.0.0.1 for the real discord.py client."""

    def __init__(
        self,
        *,
        token: str = "fake-bot-token",
        watch_loggers: Iterable[str] = ("discord",),
        check_schemas: bool = True,
    ) -> None:
        self.token = token
        #: Bodies and queries checked against the pinned OpenAPI description (off only where
        #: a load benchmark measures the bot, not its traffic: the check is the fake's CPU).
        self.check_schemas = check_schemas
        self.clock = FakeClock()
        self.store = FakeStore(self.clock)
        self.gateway = Gateway(self.store, lambda: self.ws_url)
        self.edit_limiter = EditRateLimiter(self.clock)
        self.create_limiter = EditRateLimiter(self.clock)
        self.delete_limiter = EditRateLimiter(self.clock)
        self.global_limiter = GlobalRateLimiter(self.clock)
        self.violations: list[Violation] = []
        self.requests: list[RecordedRequest] = []
        self.unhandled_requests: list[str] = []
        self.rate_limit_count = 0  # every 429 the fake sent
        self._failures: list[ScriptedFailure] = []
        self._runner: web.AppRunner | None = None
        self.port = 0
        self._client_tasks: set[asyncio.Task[None]] = set()
        self._errors = _ErrorCollector()
        self._watch_loggers = tuple(watch_loggers)
        #: OAuth2 grants and activity instances (docs/fake_discord.md, "Activities").
        self.activity = ActivityState(self)
        #: Discord's published description, pinned (docs/fake_discord.md, "The contract").
        self.contract = pinned_contract()

    # -- lifecycle -----------------------------------------------------------------------

    async def start(self, port: int = 0) -> None:
        """Serve on ``port`` of 127.0.0.1 (0: a free one; a test may pick one to bring the
        fake up where a bot is already trying to connect)."""
        app = web.Application(middlewares=[make_middleware(self)])
        if self.check_schemas:
            app[CONTRACT_GATE] = contract_gate(self.contract, self.violations)
        app.add_routes(RestApi(self).routes())
        app.add_routes(self.activity.routes())
        app.add_routes([web.get("/", self.gateway.handle)])
        app.on_shutdown.append(lambda _app: self.gateway.close_all())
        self._runner = web.AppRunner(app, handle_signals=False, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", port)
        await site.start()
        self.port = int(self._runner.addresses[0][1])
        self.store.base_url = self.http_url
        for name in self._watch_loggers:
            logging.getLogger(name).addHandler(self._errors)

    async def stop(self) -> None:
        for name in self._watch_loggers:
            logging.getLogger(name).removeHandler(self._errors)
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    @property
    def http_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def api_url(self) -> str:
        return self.http_url + API_PREFIX

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/"

    @contextmanager
    def patch_discord(self) -> Iterator[None]:
        """Point discord.py at the fake (REST base and gateway), restoring both afterwards."""
        old_base, old_gateway = Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY
        Route.BASE = self.api_url
        DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(self.ws_url)
        try:
            yield
        finally:
            Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY = old_base, old_gateway

    @asynccontextmanager
    async def run_client(
        self,
        client: discord.Client,
        *,
        timeout: float = 10.0,
        fail_on_logged_errors: bool = True,
        fail_on_violations: bool = True,
    ) -> AsyncIterator[discord.Client]:
        """Start `client` against the fake, wait until it is ready, close it cleanly on exit.

        A client that dies (e.g. a payload it cannot parse) fails the test loudly. On a clean
        exit, errors discord.py only logged (a failing view callback, say) and requests the
        fake refused for breaking Discord's limits fail the test too, unless switched off.
        """
        errors_before, violations_before = len(self._errors.records), len(self.violations)
        task: asyncio.Task[None] = asyncio.create_task(
            client.start(self.token), name="fake-discord-client"
        )
        self._client_tasks.add(task)
        try:
            ready = asyncio.ensure_future(client.wait_until_ready())
            await asyncio.wait({ready, task}, timeout=timeout, return_when=asyncio.FIRST_COMPLETED)
            if not ready.done():
                ready.cancel()
                self._raise_if_client_died()
                raise TimeoutError(self._diagnose(f"client not ready within {timeout}s"))
            yield client
        except BaseException:
            await self._close_client(client, task, timeout)
            raise
        await self._close_client(client, task, timeout)  # re-raises the client's own exception
        problems = []
        if fail_on_logged_errors and len(self._errors.records) > errors_before:
            logged = self._format_errors(self._errors.records[errors_before:])
            problems.append("discord.py logged errors:\n" + logged)
        if fail_on_violations and len(self.violations) > violations_before:
            refused = "\n".join(map(str, self.violations[violations_before:]))
            problems.append("the fake refused requests that break Discord's limits:\n" + refused)
        if problems:
            raise AssertionError("\n".join(problems))

    async def _close_client(
        self, client: discord.Client, task: asyncio.Task[None], timeout: float
    ) -> None:
        self._client_tasks.discard(task)
        await client.close()
        await asyncio.wait_for(task, timeout)

    # -- setup ---------------------------------------------------------------------------

    @property
    def bot_user_id(self) -> int:
        return self.store.bot.id

    @property
    def application_id(self) -> int:
        return self.store.application_id

    def add_guild(self, name: str = "Test Guild", *, locale: str = "en-US") -> int:
        return self.store.add_guild(name, locale=locale).id

    def add_channel(self, guild_id: int, name: str = "general") -> int:
        return self.store.add_channel(guild_id, name).id

    def add_user(
        self, name: str, locale: str = "en-US", *, guilds: Iterable[int] | None = None
    ) -> int:
        """A human user; member of `guilds` (default: every guild that exists now)."""
        user = self.store.add_user(name, locale=locale)
        for gid in self.store.guilds if guilds is None else guilds:
            self.store.add_member(gid, user.id)
        return user.id

    def dm_channel(self, user_id: int) -> int:
        return self.store.dm_channel(user_id).id

    def grant(self, user_id: int, permissions: int) -> None:
        """Give the user these permissions besides @everyone's (bits, e.g. ``1 << 33``)."""
        self.store.extra_permissions[user_id] = permissions

    def leave_guild(self, guild_id: int, user_id: int) -> None:
        """The user leaves the server: fetching them as a member answers 404 from now on."""
        self.store.guilds[guild_id].member_ids.remove(user_id)

    async def deny_threads(self, channel_id: int, denied: bool = True) -> None:
        """A channel override denies (or again allows) the bot Create Public Threads there;
        Discord tells the bot with CHANNEL_UPDATE."""
        if denied:
            self.store.threads_denied.add(channel_id)
        else:
            self.store.threads_denied.discard(channel_id)
        channel = self.store.channels[channel_id]
        await self.gateway.dispatch("CHANNEL_UPDATE", channel_payload(channel, self.store.users))

    def close_dms(self, user_id: int) -> None:
        """The user accepts no DMs from the bot: messages to their DM channel answer 403."""
        self.store.dms_closed.add(user_id)

    # -- acting as users -----------------------------------------------------------------

    async def slash(
        self,
        user_id: int,
        channel_id: int,
        command: str,
        *path: str,
        options: dict[str, Any] | None = None,
        timeout: float = 5.0,
        wait: bool = True,
    ) -> InteractionResult:
        """Invoke `/command [group] [subcommand]` with options, as the Discord client would."""
        channel = self.store.channels[channel_id]
        registered = self.store.find_command(command, channel.guild_id)
        if registered is None:
            known = sorted({k[1] for k in self.store.commands})
            raise LookupError(
                f"/{command} is not registered (did the bot sync?); registered: {known}"
            )
        data = command_data(self.store, registered, path, options or {})
        label = "/" + " ".join((command, *path))
        return await self._interact(
            user_id, channel_id, APPLICATION_COMMAND, data, label=label, timeout=timeout, wait=wait
        )

    async def autocomplete(
        self,
        user_id: int,
        channel_id: int,
        command: str,
        *path: str,
        focused: str,
        options: dict[str, Any] | None = None,
        timeout: float = 5.0,
    ) -> list[JSON]:
        """The choices the bot suggests while the user types option ``focused`` of
        `/command [group] [subcommand]` (its text so far in ``options``, else empty)."""
        channel = self.store.channels[channel_id]
        registered = self.store.find_command(command, channel.guild_id)
        if registered is None:
            raise LookupError(f"/{command} is not registered (did the bot sync?)")
        typed = {focused: "", **(options or {})}
        data = command_data(self.store, registered, path, typed, focused=focused)
        label = "/" + " ".join((command, *path)) + f" ({focused}: autocomplete)"
        result = await self._interact(
            user_id, channel_id, AUTOCOMPLETE_REQUEST, data, label=label, timeout=timeout
        )
        return result.autocomplete_choices or []

    async def click(
        self,
        user_id: int,
        message: MessageRef,
        custom_id: str,
        *,
        timeout: float = 5.0,
        wait: bool = True,
    ) -> InteractionResult:
        msg = self._visible_message(user_id, message)
        comp = self._component(msg, custom_id, (2,))
        if comp.get("style") == 5:
            raise ValueError(f"{custom_id!r} is a link button; Discord sends no interaction")
        data = {"custom_id": custom_id, "component_type": 2}
        if "id" in comp:
            data["id"] = comp["id"]
        return await self._use_component(user_id, msg, data, "click", timeout, wait)

    async def select(
        self,
        user_id: int,
        message: MessageRef,
        custom_id: str,
        values: list[str],
        *,
        timeout: float = 5.0,
        wait: bool = True,
    ) -> InteractionResult:
        msg = self._visible_message(user_id, message)
        comp = self._component(msg, custom_id, SELECT_TYPES)
        low, high = int(comp.get("min_values", 1)), int(comp.get("max_values", 1))
        if not low <= len(values) <= high:
            raise ValueError(f"select {custom_id!r} takes {low}..{high} values, got {len(values)}")
        if comp["type"] == 3:
            allowed = [o["value"] for o in comp.get("options", [])]
            bad = [v for v in values if v not in allowed]
            if bad:
                raise ValueError(f"select {custom_id!r} has no options {bad}; options: {allowed}")
        data: JSON = {"custom_id": custom_id, "component_type": comp["type"], "values": values}
        return await self._use_component(user_id, msg, data, "select", timeout, wait)

    async def submit_modal(
        self,
        user_id: int,
        opened_by: InteractionResult,
        values: dict[str, str],
        *,
        timeout: float = 5.0,
    ) -> InteractionResult:
        """Submit the modal the bot answered `opened_by` with (type 9), filling text inputs."""
        modal = opened_by.modal
        if modal is None:
            raise ValueError("that interaction was not answered with a modal")
        rows: list[JSON] = []
        used: set[str] = set()
        for row in modal.get("components", []):
            children = row.get("components") or ([row["component"]] if "component" in row else [])
            answered = []
            for child in children:
                cid = child.get("custom_id")
                if cid is None:
                    continue
                used.add(cid)
                answered.append(
                    {
                        "type": child["type"],
                        "custom_id": cid,
                        "value": values.get(cid, child.get("value", "")),
                    }
                )
            if row.get("type") == 18 and answered:
                rows.append({"type": 18, "component": answered[0]})
            elif answered:
                rows.append({"type": 1, "components": answered})
        unknown = set(values) - used
        if unknown:
            raise ValueError(f"the modal has no inputs {sorted(unknown)}")
        source = self.store.messages.get(opened_by.interaction.source_message_id or 0)
        data = {"custom_id": modal["custom_id"], "components": rows}
        channel_id = opened_by.interaction.channel_id
        return await self._interact(
            user_id, channel_id, MODAL_SUBMIT, data, source, label="modal submit", timeout=timeout
        )

    async def _use_component(
        self, user_id: int, msg: FakeMessage, data: JSON, verb: str, timeout: float, wait: bool
    ) -> InteractionResult:
        """The interaction of a click or a choice on one of ``msg``'s components."""
        label = f"{verb} {data['custom_id']!r}"
        return await self._interact(
            user_id, msg.channel_id, COMPONENT, data, msg, label=label, timeout=timeout, wait=wait
        )

    async def _interact(
        self,
        user_id: int,
        channel_id: int,
        itype: int,
        data: JSON,
        message: FakeMessage | None = None,
        *,
        label: str,
        timeout: float,
        wait: bool = True,
    ) -> InteractionResult:
        store = self.store
        user, channel = store.users[user_id], store.channels[channel_id]
        if (
            channel.guild_id is not None
            and user_id not in store.guilds[channel.guild_id].member_ids
        ):
            raise ValueError(f"user {user.name} is not a member of the channel's guild")
        if self.gateway.session is None:
            raise RuntimeError("no bot is connected to the fake gateway (use run_client)")
        iid = store.ids.next()
        token = "aW50ZXJhY3Rpb246" + secrets.token_urlsafe(48)
        payload = interaction_payload(
            store,
            interaction_id=iid,
            token=token,
            type=itype,
            user=user,
            channel=channel,
            data=data,
            # The version as it is now, not a copy: versions are never changed in place (an
            # edit appends a new one), and it is serialized at once.
            message=message.current if message is not None else None,
        )
        interaction = FakeInteraction(
            id=iid,
            token=token,
            type=itype,
            user_id=user_id,
            channel_id=channel_id,
            guild_id=channel.guild_id,
            created_at=self.clock.now(),
            payload=payload,
            source_message_id=message.id if message is not None else None,
        )
        store.add_interaction(interaction)
        await self.gateway.dispatch("INTERACTION_CREATE", payload)
        result = InteractionResult(self, interaction)
        if wait:
            await self._wait_answered(interaction, timeout, f"the bot to answer {label}")
        return result

    async def _wait_answered(self, interaction: FakeInteraction, timeout: float, what: str) -> None:
        """``wait_for(interaction.responded.is_set)`` without its wake on every change of the
        fake: the answer sets the event, and only the client's death cuts the wait short."""
        self._raise_if_client_died()
        if interaction.responded.is_set():
            return
        answered = asyncio.ensure_future(interaction.responded.wait())
        try:
            await asyncio.wait(
                {answered, *self._client_tasks},
                timeout=timeout,
                return_when=asyncio.FIRST_COMPLETED,
            )
        finally:
            answered.cancel()
        self._raise_if_client_died()
        if not interaction.responded.is_set():
            raise TimeoutError(self._diagnose(f"timed out after {timeout}s waiting for {what}"))

    def _visible_message(self, user_id: int, ref: MessageRef) -> FakeMessage:
        msg = self.message(ref if isinstance(ref, int) else ref.id)
        if msg.deleted:
            raise ValueError(f"message {msg.id} was deleted")
        if msg.visible_to is not None and msg.visible_to != user_id:
            raise PermissionError(f"message {msg.id} is ephemeral to another user")
        return msg

    @staticmethod
    def _component(msg: FakeMessage, custom_id: str, types: tuple[int, ...]) -> JSON:
        comp = msg.component(custom_id)
        if comp is None or comp.get("type") not in types:
            raise LookupError(
                f"message {msg.id} has no such component {custom_id!r}: {msg.buttons}"
            )
        if comp.get("disabled"):
            raise ValueError(f"{custom_id!r} is disabled; Discord would not let a user use it")
        return comp

    # -- queries -------------------------------------------------------------------------

    def message(self, message_id: int) -> FakeMessage:
        return self.store.messages[message_id]

    def channel_messages(self, channel_id: int) -> list[FakeMessage]:
        """Messages everyone in the channel sees now, oldest first."""
        return [m for m in self.store.public_by_channel.get(channel_id, ()) if not m.deleted]

    def ephemeral_messages(self, user_id: int) -> list[FakeMessage]:
        """Ephemeral messages currently shown to `user_id`, oldest first."""
        return [m for m in self.store.ephemeral_by_user.get(user_id, ()) if not m.deleted]

    def latest_ephemeral(self, user_id: int) -> FakeMessage | None:
        """The newest ephemeral message shown to `user_id` (its current version), if any."""
        shown = self.ephemeral_messages(user_id)
        return shown[-1] if shown else None

    def buttons(self, message: MessageRef) -> list[ButtonInfo]:
        return self.message(message if isinstance(message, int) else message.id).buttons

    def commands(self, guild_id: int | None = None) -> dict[str, JSON]:
        """Commands registered in a guild (or globally, for None), by name."""
        return {k[1]: c.payload for k, c in self.store.commands.items() if k[0] == guild_id}

    def threads(self, parent_id: int | None = None) -> list[JSON]:
        return [
            thread_payload(c)
            for c in self.store.channels.values()
            if c.is_thread and (parent_id is None or c.parent_id == parent_id)
        ]

    def all_public_payload_text(self) -> str:
        """Every version of every message anyone could see publicly, plus thread names."""
        parts: list[str] = []
        for msg in self.store.messages.values():
            channel = self.store.channels[msg.channel_id]
            if msg.visible_to is not None or msg.ephemeral or channel.type == DM:
                continue
            parts += [json.dumps(v, ensure_ascii=False) for v in msg.versions]
            parts += [a.filename for a in msg.attachments]
        parts += [c.name for c in self.store.channels.values() if c.is_thread]
        return "\n".join(parts)

    def attachment_bytes(self, message: MessageRef) -> dict[str, bytes]:
        msg = self.message(message if isinstance(message, int) else message.id)
        return {a.filename: a.data for a in msg.attachments}

    # -- waiting -------------------------------------------------------------------------

    async def wait_for(
        self,
        predicate: Callable[[], T | Literal[False] | None],
        timeout: float = 5.0,
        *,
        what: str = "",
        poll_interval: float = 0.02,
    ) -> T:
        """Wait until predicate() is truthy and return its value; TimeoutError with a diagnosis."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            self._raise_if_client_died()
            value = predicate()
            if value:
                return value
            remaining = deadline - loop.time()
            if remaining <= 0:
                raise TimeoutError(
                    self._diagnose(f"timed out after {timeout}s waiting for {what or predicate}")
                )
            # Fake state changes wake us at once; state outside the fake (the bot's own
            # objects) is re-checked every poll_interval.
            changed = asyncio.ensure_future(self.store.changed.wait())
            await asyncio.wait(
                {changed, *self._client_tasks},
                timeout=min(remaining, poll_interval),
                return_when=asyncio.FIRST_COMPLETED,
            )
            changed.cancel()

    def _raise_if_client_died(self) -> None:
        for task in self._client_tasks:
            if task.done():
                exc = None if task.cancelled() else task.exception()
                raise RuntimeError(f"the discord.py client stopped: {exc!r}") from exc

    def _diagnose(self, headline: str) -> str:
        gateway = self.gateway
        lines = [
            headline,
            f"gateway: connected={gateway.connected} identifies={gateway.identify_count}"
            f" resumes={gateway.resume_count}",
        ]
        if self.unhandled_requests:
            lines.append(f"routes the fake does not serve: {self.unhandled_requests}")
        if self.violations:
            lines.append(f"limit violations: {self.violations}")
        if self._errors.records:
            lines.append("discord.py logged:\n" + self._format_errors(self._errors.records[-3:]))
        lines.append(
            "last requests: "
            + ", ".join(f"{r.method} {r.path} {r.status}" for r in self.requests[-5:])
        )
        return "\n".join(lines)

    @staticmethod
    def _format_errors(records: list[logging.LogRecord]) -> str:
        formatter = logging.Formatter("%(name)s: %(message)s")
        return "\n".join(formatter.format(r) for r in records)

    @property
    def logged_errors(self) -> list[logging.LogRecord]:
        return list(self._errors.records)

    # -- time and faults -----------------------------------------------------------------

    def advance_time(self, seconds: float) -> None:
        """Move the fake clock (token expiry, timestamps, snowflakes) forward."""
        self.clock.advance(seconds)

    def set_edit_rate_limit(
        self, enabled: bool = True, *, limit: int = 5, per: float = 5.0
    ) -> None:
        """Per-channel message-edit limit; over it, edits get 429 with retry_after."""
        self.edit_limiter.configure(enabled=enabled, limit=limit, per=per)

    def set_global_rate_limit(
        self, enabled: bool = True, *, limit: int = 50, per: float = 1.0
    ) -> None:
        """Discord's global limit (on by default: 50 requests a second outside interaction
        endpoints); over it, 429 with ``global: true``."""
        self.global_limiter.configure(enabled=enabled, limit=limit, per=per)

    def set_message_rate_limit(
        self,
        enabled: bool = True,
        *,
        limit: int = 5,
        per: float = 5.0,
        delete_limit: int = 5,
        delete_per: float = 1.0,
    ) -> None:
        """Per-channel limits on creating messages (``limit`` per ``per`` s) and deleting them
        (``delete_limit`` per ``delete_per`` s), each its own bucket as on Discord; over them,
        429 with retry_after. Interaction responses and followups are not counted."""
        self.create_limiter.configure(enabled=enabled, limit=limit, per=per)
        self.delete_limiter.configure(enabled=enabled, limit=delete_limit, per=delete_per)

    def fail_next(
        self,
        method: str,
        route: str,
        *,
        status: int = 500,
        times: int = 1,
        retry_after: float = 0.05,
    ) -> None:
        """Answer the next `times` requests matching `METHOD route` (fnmatch, below /api/v10)."""
        self._failures.append(ScriptedFailure(method.upper(), route, status, times, retry_after))

    def take_scripted_failure(self, method: str, path: str) -> tuple[int, float] | None:
        for failure in self._failures:
            if failure.matches(method, path):
                failure.remaining -= 1
                return failure.status, failure.retry_after
        return None

    async def drop_gateway(self, *, wait_resumed: bool = True, timeout: float = 5.0) -> None:
        """Close the websocket mid-session (code 4000); by default wait for the RESUME."""
        resumes = self.gateway.resume_count
        await self.gateway.drop()
        if wait_resumed:
            await self.wait_for(
                lambda: self.gateway.resume_count > resumes and self.gateway.connected,
                timeout,
                what="the client to RESUME",
            )

    # -- used by the REST layer ----------------------------------------------------------

    def record_request(self, method: str, path: str, status: int, body: Any) -> None:
        self.requests.append(RecordedRequest(method, path, status, body))

    async def announce(self, event: str, message: FakeMessage) -> None:
        """MESSAGE_CREATE/UPDATE/DELETE over the gateway, as Discord does (never for ephemerals)."""
        if message.ephemeral or not self.gateway.wants(event, message.guild_id):
            return
        data: JSON = message.payload
        if event == "MESSAGE_DELETE":
            data = {"id": str(message.id), "channel_id": str(message.channel_id)}
            if message.guild_id is not None:
                data["guild_id"] = str(message.guild_id)
        await self.gateway.dispatch(event, data)
