"""REST routes of the fake, under /api/v10 (plus attachment downloads)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from aiohttp import web

from .activity import TOKEN_ROUTE
from .faults import EditRateLimiter, rate_limit_headers
from .form_errors import query_refusal, refuse
from .http_util import API_PREFIX, FAKE_BODY, ApiError, json_response, read_body, unknown
from .mentions import mention_problems
from .model import EPHEMERAL, JSON, LOADING, FakeChannel, FakeInteraction, FakeMessage, Violation
from .payloads import (
    app_info_payload,
    channel_payload,
    error_body,
    guild_create_payload,
    member_payload,
    thread_payload,
    user_payload,
)
from .results import LAUNCH_ACTIVITY
from .validation import Problem, validate_commands, validate_message, validate_modal

if TYPE_CHECKING:
    from .driver import FakeDiscord

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]

# Discord error codes used below.
UNKNOWN_CHANNEL, UNKNOWN_GUILD, UNKNOWN_MESSAGE, UNKNOWN_USER = 10003, 10004, 10008, 10013
UNKNOWN_WEBHOOK, UNKNOWN_INTERACTION, ALREADY_ACKNOWLEDGED = 10015, 10062, 40060
CANNOT_EDIT_OTHERS, INVALID_WEBHOOK_TOKEN = 50005, 50027


class RestApi:
    def __init__(self, fake: FakeDiscord) -> None:
        self.fake = fake
        self.store = fake.store

    def routes(self) -> list[web.RouteDef]:
        p = API_PREFIX
        return [
            web.get(p + "/users/@me", self.get_me),
            web.get(p + "/oauth2/applications/@me", self.get_app),
            web.get(p + "/applications/@me", self.get_app),
            web.get(p + "/gateway", self.get_gateway),
            web.get(p + "/gateway/bot", self.get_gateway),
            web.post(p + "/users/@me/channels", self.create_dm),
            web.get(p + "/users/{user_id}", self.get_user),
            web.get(p + "/applications/{app_id}/commands", self.get_commands),
            web.put(p + "/applications/{app_id}/commands", self.put_commands),
            web.get(p + "/applications/{app_id}/guilds/{guild_id}/commands", self.get_commands),
            web.put(p + "/applications/{app_id}/guilds/{guild_id}/commands", self.put_commands),
            web.post(p + "/interactions/{interaction_id}/{token}/callback", self.callback),
            web.post(p + "/webhooks/{app_id}/{token}", self.followup),
            web.get(
                p + "/webhooks/{app_id}/{token}/messages/{message_id}", self.get_webhook_message
            ),
            web.patch(
                p + "/webhooks/{app_id}/{token}/messages/{message_id}", self.edit_webhook_message
            ),
            web.delete(
                p + "/webhooks/{app_id}/{token}/messages/{message_id}", self.delete_webhook_message
            ),
            web.get(p + "/channels/{channel_id}", self.get_channel),
            web.patch(p + "/channels/{channel_id}", self.edit_channel),
            web.delete(p + "/channels/{channel_id}", self.delete_channel),
            web.post(p + "/channels/{channel_id}/typing", self.no_content),
            web.get(p + "/channels/{channel_id}/messages", self.list_messages),
            web.post(p + "/channels/{channel_id}/messages", self.create_message),
            web.get(p + "/channels/{channel_id}/messages/{message_id}", self.get_message),
            web.patch(p + "/channels/{channel_id}/messages/{message_id}", self.edit_message),
            web.delete(p + "/channels/{channel_id}/messages/{message_id}", self.delete_message),
            web.post(
                p + "/channels/{channel_id}/messages/{message_id}/threads", self.thread_from_message
            ),
            web.post(p + "/channels/{channel_id}/threads", self.thread_without_message),
            web.put(p + "/channels/{channel_id}/thread-members/{user_id}", self.add_thread_member),
            web.delete(p + "/channels/{channel_id}/thread-members/{user_id}", self.no_content),
            web.get(p + "/guilds/{guild_id}", self.get_guild),
            web.get(p + "/guilds/{guild_id}/channels", self.get_guild_channels),
            web.get(p + "/guilds/{guild_id}/members/{user_id}", self.get_member),
            web.get("/attachments/{channel_id}/{attachment_id}/{filename}", self.download),
        ]

    # -- helpers -------------------------------------------------------------------------

    def _check(self, request: web.Request, problems: list[Problem]) -> None:
        """Refuse the request like Discord (400 Invalid Form Body) if there are problems."""
        if problems:
            raise self._refuse(request, problems)

    def _check_message(
        self, request: web.Request, body: JSON, *, creating: bool, files: int, prefix: str = ""
    ) -> None:
        """A message create or edit: refused as Discord refuses it; a message that could ping
        more than it means to is flagged (recorded, answered as Discord would: it accepts it)."""
        self._check(request, validate_message(body, creating=creating, files=files, prefix=prefix))
        api_path = request.path.removeprefix(API_PREFIX)
        for field, message in mention_problems(body, prefix):
            self.fake.violations.append(Violation(request.method, api_path, field, message))

    def _refuse(self, request: web.Request, problems: list[Problem]) -> ApiError:
        """Record the violations and build Discord's 400 Invalid Form Body error."""
        api_path = request.path.removeprefix(API_PREFIX)
        return refuse(self.fake.violations, request.method, api_path, problems)

    def _channel(self, request: web.Request) -> FakeChannel:
        channel = self.store.channels.get(int(request.match_info["channel_id"]))
        if channel is None or channel.deleted:
            raise unknown("Channel", UNKNOWN_CHANNEL)
        return channel

    def _channel_message(self, request: web.Request) -> FakeMessage:
        channel = self._channel(request)
        msg = self.store.messages.get(int(request.match_info["message_id"]))
        # Ephemeral messages are invisible to channel routes.
        if msg is None or msg.deleted or msg.channel_id != channel.id or msg.ephemeral:
            raise unknown("Message", UNKNOWN_MESSAGE)
        return msg

    def _edit_rate_limit(self, channel_id: int) -> None:
        self._rate_limit(self.fake.edit_limiter, "edit", channel_id)

    def _rate_limit(self, limiter: EditRateLimiter, bucket: str, channel_id: int) -> None:
        retry_after = limiter.check(channel_id)
        if retry_after is None:
            return
        headers = rate_limit_headers(
            retry_after, f"{bucket}-{channel_id}", limiter.limit, self.store.clock.now()
        )
        body = {
            "message": "You are being rate limited.",
            "retry_after": round(retry_after, 3),
            "global": False,
            "code": 0,
        }
        raise ApiError(429, 0, "", headers=headers, body=body)

    @staticmethod
    def no_content_response() -> web.Response:
        return web.Response(status=204)

    async def no_content(self, request: web.Request) -> web.Response:
        return self.no_content_response()

    # -- users, application, gateway -----------------------------------------------------

    async def get_me(self, request: web.Request) -> web.Response:
        if request.headers.get("Authorization", "").startswith("Bearer "):
            return self.fake.activity.bearer_user(request)  # an Activity's user (OAuth2)
        return json_response(user_payload(self.store.bot))

    async def get_user(self, request: web.Request) -> web.Response:
        user = self.store.users.get(int(request.match_info["user_id"]))
        if user is None:
            raise unknown("User", UNKNOWN_USER)
        return json_response(user_payload(user))

    async def get_app(self, request: web.Request) -> web.Response:
        store = self.store
        return json_response(app_info_payload(store.application_id, store.bot, store.owner))

    async def get_gateway(self, request: web.Request) -> web.Response:
        limit = {"total": 1000, "remaining": 1000, "reset_after": 0, "max_concurrency": 1}
        return json_response({"url": self.fake.ws_url, "shards": 1, "session_start_limit": limit})

    async def create_dm(self, request: web.Request) -> web.Response:
        body, _ = await read_body(request)
        user_id = int(body["recipient_id"])
        if user_id not in self.store.users:
            raise unknown("User", UNKNOWN_USER)
        return json_response(channel_payload(self.store.dm_channel(user_id), self.store.users))

    # -- application commands ------------------------------------------------------------

    def _scope(self, request: web.Request) -> int | None:
        if int(request.match_info["app_id"]) != self.store.application_id:
            raise ApiError(403, 50001, "Missing Access")
        guild = request.match_info.get("guild_id")
        if guild is not None and int(guild) not in self.store.guilds:
            raise unknown("Guild", UNKNOWN_GUILD)
        return int(guild) if guild is not None else None

    async def get_commands(self, request: web.Request) -> web.Response:
        scope = self._scope(request)
        cmds = [c.payload for key, c in self.store.commands.items() if key[0] == scope]
        return json_response(cmds)

    async def put_commands(self, request: web.Request) -> web.Response:
        scope = self._scope(request)
        body, _ = await read_body(request)
        self._check(request, validate_commands(body))
        self._check(request, self.fake.activity.entry_point_problems(scope, body))
        dropped = self.fake.activity.drops_entry_point(scope, body)
        if dropped is not None:
            self.fake.violations.append(
                Violation("PUT", request.path.removeprefix(API_PREFIX), "", str(dropped))
            )
            raise dropped
        return json_response([c.payload for c in self.store.replace_commands(scope, body)])

    # -- interaction callback ------------------------------------------------------------

    async def callback(self, request: web.Request) -> web.Response:
        store = self.store
        inter = store.interactions.get(int(request.match_info["interaction_id"]))
        if inter is None or inter.token != request.match_info["token"]:
            raise unknown("interaction", UNKNOWN_INTERACTION)
        if inter.response_type is None and inter.past_response_window(store.clock.now()):
            # Discord's 3 seconds for the first response: after them the interaction is gone.
            inter.late_attempts += 1
            inter.responded.set()  # a waiting test sees it at once (response_type None, late)
            store.touch()
            raise unknown("interaction", UNKNOWN_INTERACTION)
        body, files = await read_body(request)
        # Checked after the last await before bookkeeping, so two racing callbacks can't both win.
        if inter.response_type is not None:
            raise ApiError(400, ALREADY_ACKNOWLEDGED, "Interaction has already been acknowledged.")
        rtype = int(body["type"])
        data: JSON = body.get("data") or {}
        summary: JSON = {"id": str(inter.id), "type": inter.type}
        resource: JSON = {"type": rtype}
        message: FakeMessage | None = None
        if rtype == 4:
            self._check_message(request, data, creating=True, files=len(files), prefix="data.")
            message = store.new_message(
                inter.channel_id,
                data,
                files,
                interaction=inter,
                message_type=20 if inter.type == 2 else 0,
            )
        elif rtype == 5:
            flags = int(data.get("flags") or 0) & EPHEMERAL
            message = store.new_message(
                inter.channel_id,
                {"flags": flags},
                [],
                interaction=inter,
                message_type=20 if inter.type == 2 else 0,
                extra_flags=LOADING,
            )
        elif rtype in (6, 7):
            source = store.messages.get(inter.source_message_id or 0)
            if source is None:
                raise self._refuse(request, [("type", "Interaction has no message to update.")])
            inter.original_message_id = source.id
            if rtype == 7:
                self._check_message(request, data, creating=False, files=len(files), prefix="data.")
                message = store.edit_message(source, data, files)
        elif rtype == 9:
            self._check(request, validate_modal(data))
            inter.modal = data
        elif rtype == 8:
            inter.autocomplete_choices = list(data.get("choices") or [])
        elif rtype == LAUNCH_ACTIVITY:
            self._check(request, self.fake.activity.launch_problems(inter))
            instance = self.fake.activity.launch(inter)
            summary["activity_instance_id"] = instance
            resource["activity_instance"] = {"id": instance}
        else:
            self._check(request, [("type", f"Unsupported interaction callback type {rtype}.")])
        if message is not None:
            inter.original_message_id = message.id
            resource["message"] = message.current  # serialized below, never changed
            summary.update(
                response_message_id=str(message.id),
                response_message_loading=message.loading,
                response_message_ephemeral=message.ephemeral,
            )
        inter.response_type = rtype
        inter.response_body = body
        inter.responded_at = store.clock.now()
        inter.responded.set()
        store.touch()
        if message is not None:
            await self.fake.announce("MESSAGE_UPDATE" if rtype == 7 else "MESSAGE_CREATE", message)
        if request.query.get("with_response", "").lower() not in ("true", "1"):
            return web.Response(status=204)  # Discord's default: no body
        return json_response({"interaction": summary, "resource": resource})

    # -- interaction webhooks (followups, @original) -------------------------------------

    def _webhook_interaction(self, request: web.Request) -> FakeInteraction:
        store = self.store
        inter = store.tokens.get(request.match_info["token"])
        wrong_app = int(request.match_info["app_id"]) != store.application_id
        if inter is None or wrong_app:
            raise unknown("Webhook", UNKNOWN_WEBHOOK)
        if inter.expired(store.clock.now()):  # an interaction token lives 15 minutes
            raise ApiError(401, INVALID_WEBHOOK_TOKEN, "Invalid Webhook Token")
        return inter

    def _webhook_message(self, request: web.Request, inter: FakeInteraction) -> FakeMessage:
        ref = request.match_info["message_id"]
        if ref == "@original":
            msg_id = inter.original_message_id
        else:
            msg_id = int(ref) if int(ref) in self.store.interaction_messages(inter) else None
        msg = self.store.messages.get(msg_id or 0)
        if msg is None or msg.deleted:
            raise unknown("Message", UNKNOWN_MESSAGE)
        return msg

    async def followup(self, request: web.Request) -> web.Response:
        store = self.store
        inter = self._webhook_interaction(request)
        if inter.response_type is None:
            raise unknown("Webhook", UNKNOWN_WEBHOOK)
        body, files = await read_body(request)
        self._check_message(request, body, creating=True, files=len(files))
        original = store.messages.get(inter.original_message_id or 0)
        if (
            inter.response_type == 5
            and original is not None
            and original.loading
            and not original.deleted
        ):
            # After a deferred (type 5) response the first followup fills the "thinking" message,
            # and that message keeps the ephemerality chosen by the defer.
            edit = dict(body, flags=(int(body.get("flags") or 0) & ~EPHEMERAL & ~LOADING))
            message = store.edit_message(original, edit, files)
            await self.fake.announce("MESSAGE_UPDATE", message)
        else:
            message = store.new_message(inter.channel_id, body, files, interaction=inter)
            inter.followup_ids.append(message.id)
            await self.fake.announce("MESSAGE_CREATE", message)
        if request.query.get("wait", "false").lower() in ("true", "1"):
            return json_response(message.current)
        return self.no_content_response()

    async def get_webhook_message(self, request: web.Request) -> web.Response:
        inter = self._webhook_interaction(request)
        return json_response(self._webhook_message(request, inter).current)

    async def edit_webhook_message(self, request: web.Request) -> web.Response:
        inter = self._webhook_interaction(request)
        message = self._webhook_message(request, inter)
        body, files = await read_body(request)
        if not message.ephemeral:
            self._edit_rate_limit(message.channel_id)
        self._check_message(request, body, creating=False, files=len(files))
        if message.loading:
            body = dict(body, flags=(int(body.get("flags") or 0) & ~LOADING))
        message = self.store.edit_message(message, body, files)
        await self.fake.announce("MESSAGE_UPDATE", message)
        return json_response(message.current)

    async def delete_webhook_message(self, request: web.Request) -> web.Response:
        inter = self._webhook_interaction(request)
        message = self._webhook_message(request, inter)
        self.store.delete_message(message)
        await self.fake.announce("MESSAGE_DELETE", message)
        return self.no_content_response()

    # -- channels and messages -----------------------------------------------------------

    async def get_channel(self, request: web.Request) -> web.Response:
        return json_response(channel_payload(self._channel(request), self.store.users))

    async def edit_channel(self, request: web.Request) -> web.Response:
        channel = self._channel(request)
        body, _ = await read_body(request)
        for key in ("name", "archived", "locked", "auto_archive_duration"):
            if key in body:
                setattr(channel, key, body[key])
        self.store.touch()
        return json_response(channel_payload(channel, self.store.users))

    async def delete_channel(self, request: web.Request) -> web.Response:
        channel = self._channel(request)
        channel.deleted = True
        self.store.touch()
        return json_response(channel_payload(channel, self.store.users))

    async def list_messages(self, request: web.Request) -> web.Response:
        channel = self._channel(request)
        limit = min(int(request.query.get("limit", 50)), 100)
        before = int(request.query.get("before", 1 << 63))
        after = int(request.query.get("after", 0))
        msgs = [
            m
            for m in self.store.public_by_channel.get(channel.id, ())
            if not m.deleted and not m.ephemeral and after < m.id < before
        ]
        msgs.sort(key=lambda m: m.id, reverse=True)
        if "after" in request.query and "before" not in request.query:
            msgs = msgs[-limit:]  # the oldest ones right after `after`
        return json_response([m.current for m in msgs[:limit]])

    async def create_message(self, request: web.Request) -> web.Response:
        channel = self._channel(request)
        body, files = await read_body(request)
        self._check_message(request, body, creating=True, files=len(files))
        if channel.is_thread and channel.locked:
            raise ApiError(403, 50083, "Thread is archived")
        if channel.type == 1 and set(channel.recipient_ids or []) & self.store.dms_closed:
            raise ApiError(403, 50007, "Cannot send messages to this user")
        self._rate_limit(self.fake.create_limiter, "create", channel.id)
        message = self.store.new_message(
            channel.id, body, files, message_type=19 if body.get("message_reference") else 0
        )
        await self.fake.announce("MESSAGE_CREATE", message)
        return json_response(message.current)

    async def get_message(self, request: web.Request) -> web.Response:
        return json_response(self._channel_message(request).current)

    async def edit_message(self, request: web.Request) -> web.Response:
        message = self._channel_message(request)
        if message.author_id != self.store.bot.id:
            raise ApiError(
                403, CANNOT_EDIT_OTHERS, "Cannot edit a message authored by another user"
            )
        self._edit_rate_limit(message.channel_id)
        body, files = await read_body(request)
        self._check_message(request, body, creating=False, files=len(files))
        message = self.store.edit_message(message, body, files)
        await self.fake.announce("MESSAGE_UPDATE", message)
        return json_response(message.current)

    async def delete_message(self, request: web.Request) -> web.Response:
        message = self._channel_message(request)
        self._rate_limit(self.fake.delete_limiter, "delete", message.channel_id)
        self.store.delete_message(message)
        await self.fake.announce("MESSAGE_DELETE", message)
        return self.no_content_response()

    # -- threads -------------------------------------------------------------------------

    async def _new_thread(
        self,
        request: web.Request,
        body: JSON,
        parent: FakeChannel,
        ttype: int,
        thread_id: int | None,
    ) -> web.Response:
        name = str(body.get("name") or "")
        self._check(
            request,
            [] if 1 <= len(name) <= 100 else [("name", "Must be between 1 and 100 in length.")],
        )
        if parent.is_thread or parent.guild_id is None:
            raise ApiError(400, 50024, "Cannot execute action on this channel type")
        if parent.id in self.store.threads_denied:
            raise ApiError(403, 50013, "Missing Permissions")
        thread = self.store.add_thread(
            parent,
            name,
            owner_id=self.store.bot.id,
            type=ttype,
            thread_id=thread_id,
            auto_archive_duration=int(body.get("auto_archive_duration") or 1440),
        )
        data = thread_payload(thread)
        await self.fake.gateway.dispatch("THREAD_CREATE", dict(data, newly_created=True))
        return json_response(data, status=201)

    async def thread_from_message(self, request: web.Request) -> web.Response:
        message = self._channel_message(request)
        if message.id in self.store.channels:
            raise ApiError(400, 160004, "A thread has already been created for this message")
        body, _ = await read_body(request)
        return await self._new_thread(
            request, body, self._channel(request), 11, thread_id=message.id
        )

    async def thread_without_message(self, request: web.Request) -> web.Response:
        parent = self._channel(request)
        body, _ = await read_body(request)
        ttype = int(body.get("type") or 12)
        return await self._new_thread(request, body, parent, ttype, thread_id=None)

    async def add_thread_member(self, request: web.Request) -> web.Response:
        channel = self._channel(request)
        channel.member_ids.add(int(request.match_info["user_id"]))
        return self.no_content_response()

    # -- guilds --------------------------------------------------------------------------

    def _guild_payload(self, request: web.Request) -> JSON:
        guild = self.store.guilds.get(int(request.match_info["guild_id"]))
        if guild is None:
            raise unknown("Guild", UNKNOWN_GUILD)
        return guild_create_payload(guild, self.store.users, self.store.channels)

    async def get_guild(self, request: web.Request) -> web.Response:
        data = self._guild_payload(request)
        for key in ("members", "channels", "threads", "presences", "voice_states"):
            data.pop(key)
        return json_response(data)

    async def get_guild_channels(self, request: web.Request) -> web.Response:
        return json_response(self._guild_payload(request)["channels"])

    async def get_member(self, request: web.Request) -> web.Response:
        guild = self.store.guilds.get(int(request.match_info["guild_id"]))
        user_id = int(request.match_info["user_id"])
        if guild is None or user_id not in guild.member_ids:
            raise ApiError(404, 10007, "Unknown Member")
        return json_response(member_payload(self.store.users[user_id], guild.joined_at))

    async def download(self, request: web.Request) -> web.StreamResponse:
        att_id = int(request.match_info["attachment_id"])
        for message in self.store.messages.values():
            for att in message.attachments:
                if att.id == att_id:
                    return web.Response(
                        body=att.data, content_type=att.content_type or "application/octet-stream"
                    )
        return web.Response(status=404)


def make_middleware(fake: FakeDiscord) -> Any:
    """Auth, scripted failures, error conversion, and the request log, for every route."""

    @web.middleware
    async def middleware(request: web.Request, handler: Handler) -> web.StreamResponse:
        api_path = (
            request.path.removeprefix(API_PREFIX)
            if request.path.startswith(API_PREFIX + "/")
            else None
        )
        try:
            if api_path is not None:
                response = _pre_checks(fake, request, api_path) or await handler(request)
            else:
                response = await handler(request)
        except ApiError as exc:
            response = exc.response()
        except web.HTTPException as exc:  # no route matched: tell the test what is missing
            if request.headers.get("Upgrade", "").lower() == "websocket":
                raise
            fake.unhandled_requests.append(f"{request.method} {request.path}")
            response = json_response(error_body(0, f"{exc.status}: {exc.reason}"), exc.status)
        if response.status == 429:
            fake.rate_limit_count += 1
        if api_path is not None:
            fake.record_request(request.method, api_path, response.status, request.get(FAKE_BODY))
        return response

    return middleware


def _pre_checks(fake: FakeDiscord, request: web.Request, api_path: str) -> web.Response | None:
    token_routes = api_path.startswith(("/interactions/", "/webhooks/"))
    # OAuth2: the token exchange checks the client's credentials, /users/@me a user's Bearer
    # (scripted failures still apply).
    oauth = api_path == TOKEN_ROUTE or (
        api_path == "/users/@me" and request.headers.get("Authorization", "").startswith("Bearer ")
    )
    if oauth:
        pass
    elif not token_routes and request.headers.get("Authorization") != f"Bot {fake.token}":
        return json_response(error_body(0, "401: Unauthorized"), 401)
    elif not token_routes:
        retry_after = fake.global_limiter.check_request()
        if retry_after is not None:
            body = {
                "message": "You are being rate limited.",
                "retry_after": round(retry_after, 3),
                "global": True,
            }
            now = fake.store.clock.now()
            headers = rate_limit_headers(retry_after, "global", fake.global_limiter.limit, now)
            headers.update({"X-RateLimit-Global": "true", "X-RateLimit-Scope": "global"})
            return json_response(body, 429, headers)
    refused = (
        query_refusal(fake.contract, fake.violations, request, api_path, request.query)
        if fake.check_schemas
        else None
    )
    if refused is not None:
        return refused.response()
    failure = fake.take_scripted_failure(request.method, api_path)
    if failure is None:
        return None
    status, retry_after = failure
    if status == 429:
        body = {
            "message": "You are being rate limited.",
            "retry_after": retry_after,
            "global": False,
            "code": 0,
        }
        bucket = f"scripted:{request.method}:{api_path}"
        headers = rate_limit_headers(retry_after, bucket, 1, fake.store.clock.now())
        return json_response(body, 429, headers)
    return json_response(error_body(0, f"{status}: scripted failure"), status)
