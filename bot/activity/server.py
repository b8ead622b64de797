"""The Activity's web server, in the bot process: ``POST /api/token`` and ``GET /ws``.

Off unless ``ACTIVITY_ENABLED`` (bot/settings.py). It listens on plain HTTP behind a
TLS-terminating reverse proxy (docs/activity.md). Identity comes only from Discord: the SDK's
code is exchanged here, ``/users/@me`` names the user, the bot token confirms the activity
instance, its channel and that the user is connected to it. The browser then holds the server's
own session token (:mod:`.session_tokens`) and nothing it sends names a user, seat or instance.
An action goes through :meth:`TableService.act`, the same locked, re-validated path as a chat
button.

``/`` serves the built browser client (:mod:`.client_files`) when it exists, and otherwise says
it is not built. What a signed-in socket's frames do is :mod:`.client_frames`: a lobby
operation (join, leave, AI seats, start, rematch, "done for this bout") goes through the chat
buttons' methods of :attr:`TableService.lobby` and :attr:`TableService.play`
(:mod:`.lobby_ops`). Whether users are still in their instance is :mod:`.instance_checks`.
"""

from __future__ import annotations

import asyncio
import logging
import math
import time
from collections.abc import Awaitable, Callable
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from aiohttp import WSMsgType, web
from pydantic import ValidationError

from bot.storage.sharding import shard_of
from bot.text import t

from .callers import Callers, ProxyVerifier
from .client_files import CHECKOUT_CLIENT as CHECKOUT_CLIENT
from .client_files import CLIENT_ID_TAG as CLIENT_ID_TAG
from .client_files import PACKAGED_CLIENT as PACKAGED_CLIENT
from .client_files import SHARDS_TAG as SHARDS_TAG
from .client_files import ClientFiles, request_locale
from .client_files import find_client as find_client
from .client_frames import act, error_for, lobby_op, open_table
from .client_texts import client_texts
from .deadlines import (
    HELLO_SECONDS,
    Unsigned,
    close_within,
    cut_later,
    cutter,
    first_frame,
    pong_within,
)
from .discord_api import DiscordApi, DiscordRefused
from .hub import CLOSE_FULL, CLOSE_POLICY, ActivityHub, Connection
from .instance_checks import CLOSE_LEFT, InstanceChecks
from .limits import KeyedBuckets, LogLimiter, TokenBucket
from .open_table import LeftInstance, TableOpener
from .protocol import (
    MAX_CLIENT_FRAME,
    Act,
    BadFrame,
    Hello,
    LobbyOp,
    OpenTable,
    error_frame,
    parse_client_frame,
    welcome_frame,
)
from .session_tokens import BadToken, Session, SessionSigner
from .sign_in import TokenRequest, refusal, signed_in
from .table_frames import table_frame
from .web_policy import origin_allowed, set_headers

if TYPE_CHECKING:
    from bot.settings import Settings
    from bot.tables.service import TableService

log = logging.getLogger(__name__)

#: Seconds a connection may take to send a request's headers (aiohttp's keep-alive timer
#: also runs from the connection's start until its first request), and a sign-in its body.
HEADER_SECONDS = 10.0
#: WebSocket close codes (4000-4999 are the application's; the hub and the instance checks
#: have the others): a token refused, a frame refused.
CLOSE_UNAUTHORIZED, CLOSE_BAD_FRAME = 4001, 4002
#: "Open a table" frames one user may send at once (a refused open, then another try), before
#: ``ACTIVITY_OPEN_INTERVAL_SECONDS`` holds.
OPEN_BURST = 3
#: The built client this process serves (tests point it elsewhere).
CLIENT_DIR = find_client(CHECKOUT_CLIENT, PACKAGED_CLIENT)


class ActivityServer:
    def __init__(
        self,
        settings: Settings,
        *,
        signer: SessionSigner | None = None,
        client_dir: Path | None = None,
        pace: Callable[[], Awaitable[None]] | None = None,
    ) -> None:
        """``pace``: the bot's request budget (Discord's global limit), which the instance
        check, made with the bot token, shares with every message the bot writes."""
        assert settings.discord_client_id is not None
        assert settings.discord_client_secret is not None
        self.settings = settings
        self.discord = DiscordApi(
            settings.discord_client_id,
            settings.discord_client_secret.get_secret_value(),
            settings.discord_token.get_secret_value(),
            pace,
        )
        self.signer = signer or SessionSigner()
        self.signer.chain_lifetime = settings.activity_session_max_hours * 3600
        self.hub = ActivityHub(
            per_user=settings.activity_sockets_per_user,
            per_instance=settings.activity_sockets_per_instance,
        )
        #: Log lines a client can cause at will (refused frames and sign-ins), rate-limited.
        self.quiet = LogLimiter(log, settings.activity_log_lines_per_minute)
        self._limit_callers(settings, settings.discord_client_id)
        #: Whether users are still in their instances: asked of Discord at a bounded rate.
        self.instances = InstanceChecks(
            self.discord,
            self.hub,
            settings.activity_instance_check_seconds,
            lambda: self.signer.clock(),  # read per call: the tests move the signer's clock
            self.quiet,
            lambda session: self._error(session, "err.activity_instance"),
        )
        #: The clock of each socket's frame budget (the tests move it).
        self.clock: Callable[[], float] = time.monotonic
        #: Sockets still waiting for their hello, by client and by address.
        self.unsigned = Unsigned(
            settings.activity_unsigned_sockets_per_client, settings.activity_unsigned_sockets_per_ip
        )

        self.service: TableService | None = None
        #: Opens a table as ``/durak new`` does (the chat side's, set by the bot).
        self.opener: TableOpener | None = None
        self._runner: web.AppRunner | None = None
        #: The port it listens on once started (``ACTIVITY_LISTEN_PORT=0``: a free one).
        self.port = 0
        #: Every open socket, and how to cut its connection.
        self._sockets: dict[web.WebSocketResponse, Callable[[], None]] = {}
        scope = settings.shard_scope
        #: The built client (``index.html`` and ``assets/``), if it is built.
        self.files = ClientFiles(
            CLIENT_DIR if client_dir is None else client_dir,
            settings.discord_client_id,
            None if scope is None else scope.shard_count,
        )

    def _limit_callers(self, settings: Settings, client_id: int) -> None:
        """Who a request comes from (the user Discord's proxy signed for, else the address),
        and the sign-in and table-opening budgets keyed by it."""
        public_key = settings.discord_public_key
        verifier = None if public_key is None else ProxyVerifier(public_key, client_id)
        self.callers = Callers(verifier, settings.activity_forwarded_hops)
        per_client = settings.activity_sign_ins_per_client_per_minute
        self.sign_ins_by_client = KeyedBuckets(per_client / 60, per_client)
        per_ip = settings.activity_sign_ins_per_ip_per_minute
        self.sign_ins_by_ip = KeyedBuckets(per_ip / 60, per_ip)
        per_second = settings.activity_sign_ins_per_second
        self.sign_ins = TokenBucket(per_second, 2 * per_second)
        interval = settings.activity_open_interval_seconds
        self.opens = KeyedBuckets(1 / interval if interval > 0 else 0, OPEN_BURST)

    @property
    def client_dir(self) -> Path:
        return self.files.client_dir

    @property
    def client_built(self) -> bool:
        """Whether the browser client is built (``index.html`` beside its ``assets/``)."""
        return self.files.built

    def app(self) -> web.Application:
        app = web.Application()
        app.add_routes(
            [
                web.post("/api/token", self.token),
                web.get("/ws", self.websocket),
                # the same, reached through a shard's URL mapping that keeps its prefix
                web.post(r"/shard/{shard:\d{1,4}}/api/token", self.token),
                web.get(r"/shard/{shard:\d{1,4}}/ws", self.websocket),
                web.get("/", self.files.index),
                web.get("/assets/{name}", self.files.asset),
            ]
        )
        app.on_response_prepare.append(self._headers)
        return app

    async def _headers(self, request: web.Request, response: web.StreamResponse) -> None:
        set_headers(self.settings, request, response)

    async def start(self, service: TableService) -> None:
        self.service = service
        self._runner = web.AppRunner(
            self.app(), handle_signals=False, access_log=None, keepalive_timeout=HEADER_SECONDS
        )
        await self._runner.setup()
        site = web.TCPSite(
            self._runner, self.settings.activity_listen_host, self.settings.activity_listen_port
        )
        await site.start()
        self.hub.watch(service.registry.in_channel)
        self.instances.start()
        self.port = int(self._runner.addresses[0][1])
        log.info(
            "activity server on %s:%d for https://%s (map / to it in the Developer Portal)",
            self.settings.activity_listen_host,
            self.port,
            self.settings.activity_public_host,
        )

    async def stop(self) -> None:
        await self.instances.stop()
        await self.hub.close()
        closes = [  # all at once, and one that does not read is cut
            close_within(ws, 1001, b"server shutting down", cut)
            for ws, cut in list(self._sockets.items())
        ]
        await asyncio.gather(*closes)
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None
        await self.discord.close()

    # -- HTTP --------------------------------------------------------------------------

    def _sign_in_allowed(self, request: web.Request) -> float:
        """0.0 if one more sign-in from this client fits the limits (and count it), else
        the seconds to wait."""
        caller = self.callers.caller(request)
        if (
            self.sign_ins_by_client.take(caller.key)
            and self.sign_ins_by_ip.take(caller.address)
            and self.sign_ins.take()
        ):
            return 0.0
        self.quiet.info("activity sign-in from %s refused: too many", caller.key)
        waits = (self.sign_ins_by_client.wait(caller.key), self.sign_ins_by_ip.wait(caller.address))
        return max(1.0, *waits, self.sign_ins.wait())

    async def token(self, request: web.Request) -> web.Response:
        """Exchange the SDK's code; answer the access token (for the SDK's ``authenticate``)
        and the server's session token for the WebSocket. Past the sign-in limits (per
        address, and in all), 429 before anything is asked of Discord."""
        locale = request_locale(request)
        wait = self._sign_in_allowed(request)
        if wait:
            busy = refusal(429, "err.activity_busy", locale)
            busy.headers["Retry-After"] = str(math.ceil(wait))
            return busy
        try:
            async with asyncio.timeout(HEADER_SECONDS):  # a body sent byte by byte holds nothing
                raw = await request.read()
            body = TokenRequest.model_validate_json(raw)
        except (ValidationError, TimeoutError):
            return refusal(400, "err.activity_frame", locale)
        try:
            access_token = await self.discord.exchange_code(body.code)
            user = await self.discord.user(access_token)
        except DiscordRefused as exc:
            self.quiet.info("activity sign-in refused: %s", exc)
            if exc.transient:
                return refusal(503, "err.activity_unavailable", locale)
            return refusal(401, "err.activity_auth", locale)
        try:
            instance = await self.discord.instance(body.instance_id)
        except DiscordRefused as exc:
            self.quiet.info(
                "activity instance %s refused for %s: %s", body.instance_id, user.id, exc
            )
            if exc.transient:
                return refusal(503, "err.activity_unavailable", user.locale)
            return refusal(403, "err.activity_instance", user.locale)
        if instance.instance_id != body.instance_id or user.id not in instance.users:
            self.quiet.info("user %s is not in activity instance %s", user.id, body.instance_id)
            return refusal(403, "err.activity_instance", user.locale)
        wrong_shard = self._wrong_shard(instance.guild_id or 0, user.locale)
        if wrong_shard is not None:
            return wrong_shard
        return signed_in(self.signer, access_token, user, instance)

    def _wrong_shard(self, guild: int, locale: str) -> web.Response | None:
        """The refusal of a sign-in that reached a process not running its guild's shard
        (Discord's shard of DMs is 0), else None."""
        scope = self.settings.shard_scope
        if scope is None or scope.owns(guild):
            return None
        shard = shard_of(guild, scope.shard_count)
        self.quiet.info(
            "activity sign-in for guild %s reached this process, which does not run its"
            " shard %d: map /shard/%d to the process that does (docs/activity.md, Sharding)",
            guild,
            shard,
            shard,
        )
        return refusal(421, "err.activity_other_shard", locale, shard=shard)

    # -- the WebSocket ---------------------------------------------------------------------

    async def websocket(self, request: web.Request) -> web.StreamResponse:
        if not origin_allowed(self.settings, request):
            self.quiet.info("activity socket from origin %r refused", request.headers["Origin"])
            return web.Response(status=403, text="origin not allowed")
        caller = self.callers.caller(request)
        if not self.unsigned.admit(caller.key, caller.address):
            self.quiet.info("activity sockets of %s refused: too many without hello", caller.key)
            return web.Response(status=429, text="too many sockets", headers={"Retry-After": "1"})
        rate = self.settings.activity_frames_per_second
        # every frame counts, pings too, from the first
        frames = TokenBucket(rate, 2 * rate, clock=lambda: self.clock())
        cut = cutter(request)
        try:
            # pings are answered here, counted and with a deadline (deadlines.py)
            ws = web.WebSocketResponse(
                heartbeat=30.0, autoping=False, max_msg_size=MAX_CLIENT_FRAME * 2
            )
            await ws.prepare(request)
            self._sockets[ws] = cut
            session = await self._hello(ws, request_locale(request), frames, cut)
        finally:
            self.unsigned.release(caller.key, caller.address)
        try:
            if session is not None:
                await self._serve(ws, session, frames, cut)
        finally:
            self._sockets.pop(ws, None)
            cut_later(cut)  # a close still waiting for a browser that does not read
        return ws

    async def _hello(
        self, ws: web.WebSocketResponse, locale: str, frames: TokenBucket, cut: Callable[[], None]
    ) -> Session | None:
        """The first frame must carry a genuine, unexpired, unused session token, within
        ``HELLO_SECONDS`` (whatever else the socket sends or fails to read meanwhile)."""
        try:
            async with asyncio.timeout(HELLO_SECONDS):
                msg = await first_frame(ws, frames, locale, cut, self.quiet)
        except TimeoutError:
            await close_within(ws, CLOSE_UNAUTHORIZED, b"no hello", cut)
            return None
        if msg is None:
            return None
        try:
            if msg.type != WSMsgType.TEXT:
                raise BadFrame("not text")
            frame = parse_client_frame(msg.data)
            if not isinstance(frame, Hello):
                raise BadFrame("hello first")
            session = self.signer.consume(frame.token)
        except (BadFrame, BadToken) as exc:
            self.quiet.info("activity socket refused: %s", exc)
            final = error_frame("err.activity_session", t("err.activity_session", locale))
            await close_within(ws, CLOSE_UNAUTHORIZED, b"unauthorized", cut, final)
            return None
        try:
            checked_at = await self.instances.recheck(session)
        except LeftInstance:
            self.quiet.info(
                "%s resumed in activity instance %s, left", session.user_id, session.instance_id
            )
            final = self._error(session, "err.activity_instance")
            await close_within(ws, CLOSE_LEFT, b"not in the instance", cut, final)
            return None
        return replace(session, checked_at=checked_at)

    async def sweep(self) -> None:
        """Check every instance with open sockets now (``InstanceChecks.sweep``)."""
        await self.instances.sweep()

    async def _serve(
        self,
        ws: web.WebSocketResponse,
        session: Session,
        frames: TokenBucket,
        cut: Callable[[], None],
    ) -> None:
        assert self.service is not None
        settings = self.settings
        conn = Connection(
            ws, session, max_queued_bytes=settings.activity_send_queue_kib * 1024, abort=cut
        )
        try:
            if self.hub.admit(conn, self._error(session, "err.activity_replaced")):
                await self._serve_admitted(conn, frames, cut)
            else:
                self.quiet.info("activity instance %s is full", session.instance_id)
                final = self._error(session, "err.activity_full")
                await conn.close(CLOSE_FULL, b"instance full", final)
        finally:
            self.hub.remove(conn)
            await conn.stop()

    async def _serve_admitted(
        self, conn: Connection, frames: TokenBucket, cut: Callable[[], None]
    ) -> None:
        assert self.service is not None
        session, ws = conn.session, conn.ws
        resume = self.signer.renew(session)
        conn.send(
            welcome_frame(
                user_id=session.user_id,
                channel_id=session.channel_id,
                instance_id=session.instance_id,
                resume=resume,
                resume_expires_in=self.signer.lifetime,
                texts=client_texts(session.locale),
                default_timer=self.settings.turn_timer_seconds,
            )
        )
        conn.start()
        table = self.service.registry.in_channel(session.channel_id)
        if table is None:
            conn.offer_table(table_frame(None, session.user_id))
            self.hub.add(conn, None)
        else:
            async with table.lock:  # one consistent version; later changes follow in order
                conn.offer_table(table_frame(table, session.user_id))
                self.hub.add(conn, table)
        async for msg in ws:
            if conn.closing:
                break
            if not frames.take():  # past the burst: one refusal, and the socket is closed
                self.quiet.info("activity socket of %s sends too fast", session.user_id)
                final = self._error(session, "err.activity_too_fast")
                await conn.close(CLOSE_POLICY, b"too many frames", final, flush=True)
                break
            if msg.type == WSMsgType.PING:
                if not await pong_within(ws, msg.data, cut):
                    break
                continue
            if msg.type != WSMsgType.TEXT:
                continue
            try:
                frame = parse_client_frame(msg.data)
            except BadFrame as exc:
                self.quiet.info("activity frame from %s refused: %s", session.user_id, exc)
                conn.send(self._error(session, "err.activity_frame"))
                continue
            if isinstance(frame, Act):
                await self._act(conn, frame)
            elif isinstance(frame, LobbyOp):
                await self._lobby_op(conn, frame)
            elif isinstance(frame, OpenTable):
                await self._open(conn, frame)
            else:  # a second hello: the socket is authenticated already
                conn.send(self._error(session, "err.activity_frame"))

    _error = staticmethod(error_for)

    async def _act(self, conn: Connection, frame: Act) -> None:
        assert self.service is not None
        await act(self.service, conn, frame)

    async def _lobby_op(self, conn: Connection, frame: LobbyOp) -> None:
        assert self.service is not None
        await lobby_op(self.service, conn, frame)

    async def _open(self, conn: Connection, frame: OpenTable) -> None:
        assert self.service is not None
        if self.opener is None:
            conn.send(error_for(conn.session, "err.internal", ref=frame.ref))
            return
        cap = self.settings.tables_per_user
        await open_table(
            self.service, self.hub, self.opener, self.discord, self.opens, conn, frame, cap
        )
