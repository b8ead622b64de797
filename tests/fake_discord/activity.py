"""The Activity side of the fake: the OAuth2 code exchange, ``/users/@me`` with a user's Bearer
token, and the application's activity instances (docs/fake_discord.md, "Activities").

Shapes follow Discord's docs: the token answer has ``access_token``, ``token_type``,
``expires_in`` (604800), ``refresh_token`` and ``scope``; an activity instance is
``{application_id, instance_id, launch_id, location{id, kind, channel_id, guild_id}, users}``
with ``users`` the connected users' ids as strings (the facts sheet says ``users[]``; Discord's
docs say ids, and the docs win).
"""

from __future__ import annotations

import base64
import binascii
import secrets
from dataclasses import dataclass, field
from typing import TYPE_CHECKING
from urllib.parse import parse_qsl

from aiohttp import web

from .form_errors import refuse
from .http_util import API_PREFIX, FAKE_BODY, ApiError, json_response
from .model import JSON, FakeInteraction
from .payloads import user_payload
from .validation import Problem

if TYPE_CHECKING:
    from .driver import FakeDiscord

#: Discord's authorization codes live about ten minutes; its access tokens a week.
CODE_LIFETIME = 600.0
ACCESS_TOKEN_LIFETIME = 604_800
#: The routes that take no bot token (checked here, not by the bot-token middleware).
TOKEN_ROUTE = "/oauth2/token"
#: The fake's own route (outside the API) that issues a code: see ``routes``.
TEST_CODE_ROUTE = "/_test/activity/code"
#: Application command type PRIMARY_ENTRY_POINT, and its handler DISCORD_LAUNCH_ACTIVITY.
ENTRY_POINT, DISCORD_LAUNCHES = 4, 2
#: Interactions that may be answered with LAUNCH_ACTIVITY: a command, a component, a modal.
LAUNCHABLE = (2, 3, 5)
#: Bulk-overwriting the global commands without the entry point. Discord's docs do not state
#: this answer; it is the code and text library users report (the facts sheet marks it ⚠).
CANNOT_REMOVE_ENTRY_POINT = 50240


@dataclass
class Grant:
    """An authorization code or an access token: whose, until when, used or not."""

    user_id: int
    expires_at: float
    scopes: tuple[str, ...] = ("identify",)
    used: bool = False


@dataclass
class FakeActivityInstance:
    instance_id: str
    launch_id: int
    guild_id: int | None
    channel_id: int
    users: list[int] = field(default_factory=list)
    ended: bool = False

    def payload(self, application_id: int) -> JSON:
        location: JSON = {
            "id": f"{'gc' if self.guild_id else 'pc'}-{self.guild_id or ''}-{self.channel_id}",
            "kind": "gc" if self.guild_id else "pc",
            "channel_id": str(self.channel_id),
        }
        if self.guild_id:
            location["guild_id"] = str(self.guild_id)
        return {
            "application_id": str(application_id),
            "instance_id": self.instance_id,
            "launch_id": str(self.launch_id),
            "location": location,
            "users": [str(u) for u in self.users],
        }


class ActivityState:
    """OAuth2 grants and activity instances of the fake's one application."""

    def __init__(self, fake: FakeDiscord) -> None:
        self.fake = fake
        self.client_secret = "fake-client-secret"
        self.codes: dict[str, Grant] = {}
        self.access_tokens: dict[str, Grant] = {}
        self.instances: dict[str, FakeActivityInstance] = {}
        #: Every refused token exchange, as (error, description): tests look here.
        self.refused: list[tuple[str, str]] = []
        #: Activities on in the portal (:meth:`enable`): LAUNCH_ACTIVITY answers are accepted.
        self.enabled = False
        #: The instances opened by LAUNCH_ACTIVITY answers, by interaction id.
        self.launched: dict[int, str] = {}

    @property
    def client_id(self) -> int:
        return self.fake.application_id

    def issue_code(
        self,
        user_id: int,
        *,
        lifetime: float = CODE_LIFETIME,
        scopes: tuple[str, ...] = ("identify",),
    ) -> str:
        """The code ``authorize`` would give ``user_id`` in the Activity (single use)."""
        if user_id not in self.fake.store.users:
            raise KeyError(f"no user {user_id}")
        code = secrets.token_urlsafe(24)
        self.codes[code] = Grant(user_id, self.fake.clock.now() + lifetime, scopes)
        return code

    def open_instance(self, channel_id: int, users: list[int]) -> str:
        """Launch the Activity in ``channel_id`` with ``users`` connected; the instance id."""
        channel = self.fake.store.channels[channel_id]
        launch = self.fake.store.ids.next()
        guild = channel.guild_id
        instance_id = f"i-{launch}-{'gc' if guild else 'pc'}-{guild or ''}-{channel_id}"
        self.instances[instance_id] = FakeActivityInstance(
            instance_id, launch, guild, channel_id, list(users)
        )
        return instance_id

    def enable(self) -> None:
        """What turning Activities on in the portal does: the app may launch them, and Discord
        creates the global "Launch" entry point command (type 4, Discord launches it)."""
        self.enabled = True
        if not any(k[0] is None and k[2] == ENTRY_POINT for k in self.fake.store.commands):
            # replace_commands keeps the other global commands: they are passed along
            kept = [c.payload for k, c in self.fake.store.commands.items() if k[0] is None]
            launch = {"name": "Launch", "type": ENTRY_POINT, "handler": DISCORD_LAUNCHES}
            self.fake.store.replace_commands(None, [*kept, launch])

    def launch_problems(self, interaction: FakeInteraction) -> list[Problem]:
        """Why a LAUNCH_ACTIVITY answer to ``interaction`` is refused, if it is."""
        if not self.enabled:
            return [("type", "This application has no Activity (Activities are not enabled).")]
        if interaction.type not in LAUNCHABLE:
            return [("type", "Only commands, components and modals can launch an Activity.")]
        return []

    def launch(self, interaction: FakeInteraction) -> str:
        """An accepted LAUNCH_ACTIVITY answer: the Activity opens in the interaction's channel
        with its user connected; the new instance's id."""
        instance = self.open_instance(interaction.channel_id, [interaction.user_id])
        self.launched[interaction.id] = instance
        return instance

    def entry_point_problems(self, scope: int | None, commands: list[JSON]) -> list[Problem]:
        """A bulk overwrite: at most one entry point command, global, with Activities on."""
        points = [i for i, c in enumerate(commands) if int(c.get("type", 1)) == ENTRY_POINT]
        problems: list[Problem] = []
        for i in points:
            if scope is not None or not self.enabled or len(points) > 1:
                problems.append((f"{i}.type", "An app has one global entry point command."))
            if int(commands[i].get("handler", 1)) not in (1, 2):
                problems.append((f"{i}.handler", "Unknown entry point handler."))
        return problems

    def drops_entry_point(self, scope: int | None, commands: list[JSON]) -> ApiError | None:
        """Discord's refusal of a global overwrite that leaves the entry point out."""
        had = any(k[0] is None and k[2] == ENTRY_POINT for k in self.fake.store.commands)
        if scope is not None or not had:
            return None
        if any(int(c.get("type", 1)) == ENTRY_POINT for c in commands):
            return None
        return ApiError(
            400,
            CANNOT_REMOVE_ENTRY_POINT,
            "You cannot remove this app's Primary Entry Point command in a bulk update "
            "operation. Please include the Primary Entry Point command in your update request "
            "or delete it separately.",
        )

    def join_instance(self, instance_id: str, user_id: int) -> None:
        users = self.instances[instance_id].users
        if user_id not in users:
            users.append(user_id)

    def leave_instance(self, instance_id: str, user_id: int) -> None:
        users = self.instances[instance_id].users
        if user_id in users:
            users.remove(user_id)

    def end_instance(self, instance_id: str) -> None:
        """Everyone left: Discord then answers 404 for the instance."""
        self.instances[instance_id].ended = True

    # -- routes ----------------------------------------------------------------------------

    def routes(self) -> list[web.RouteDef]:
        p = API_PREFIX
        return [
            web.post(p + TOKEN_ROUTE, self.token),
            web.get(
                p + "/applications/{app_id}/activity-instances/{instance_id}", self.get_instance
            ),
            # Not Discord's: a code for ``?user=`` as ``authorize`` would give it, for a harness
            # page served by a bot in another process (tests/bot/activity/activity_runner.py).
            web.get(TEST_CODE_ROUTE, self.test_code),
        ]

    async def test_code(self, request: web.Request) -> web.Response:
        return web.Response(text=self.issue_code(int(request.query["user"])))

    def _oauth_error(self, status: int, error: str, description: str) -> ApiError:
        self.refused.append((error, description))
        return ApiError(status, 0, "", body={"error": error, "error_description": description})

    async def token(self, request: web.Request) -> web.Response:
        """``POST /oauth2/token``: form-encoded, client credentials in the body or HTTP Basic."""
        if not request.headers.get("Content-Type", "").startswith(
            "application/x-www-form-urlencoded"
        ):
            raise self._oauth_error(400, "invalid_request", "form-encoded body expected")
        form = dict(parse_qsl((await request.read()).decode(), keep_blank_values=True))
        request[FAKE_BODY] = {k: v for k, v in form.items() if k not in ("client_secret", "code")}
        problems = self.fake.contract.body_problems(
            "POST", TOKEN_ROUTE, "application/x-www-form-urlencoded", form
        )
        if problems:  # recorded as violations; OAuth2 answers in its own shape
            refuse(self.fake.violations, "POST", TOKEN_ROUTE, problems)
            detail = "; ".join(f"{path}: {message}" for path, message, _ in problems)
            raise self._oauth_error(400, "invalid_request", detail)
        client_id, secret = form.get("client_id"), form.get("client_secret")
        basic = request.headers.get("Authorization", "")
        if basic.startswith("Basic "):
            try:
                client_id, _, secret = base64.b64decode(basic[6:]).decode().partition(":")
            except (binascii.Error, UnicodeDecodeError):
                raise self._oauth_error(401, "invalid_client", "bad Basic header") from None
        if client_id != str(self.client_id) or secret != self.client_secret:
            raise self._oauth_error(401, "invalid_client", "unknown client or wrong secret")
        if form.get("grant_type") != "authorization_code":
            raise self._oauth_error(400, "unsupported_grant_type", "authorization_code only")
        grant = self.codes.get(form.get("code", ""))
        if grant is None or grant.used or grant.expires_at <= self.fake.clock.now():
            raise self._oauth_error(400, "invalid_grant", 'Invalid "code" in request.')
        grant.used = True
        access = secrets.token_urlsafe(30)
        expires = self.fake.clock.now() + ACCESS_TOKEN_LIFETIME
        self.access_tokens[access] = Grant(grant.user_id, expires, grant.scopes)
        return json_response(
            {
                "access_token": access,
                "token_type": "Bearer",
                "expires_in": ACCESS_TOKEN_LIFETIME,
                "refresh_token": secrets.token_urlsafe(30),
                "scope": " ".join(grant.scopes),
            }
        )

    def bearer_user(self, request: web.Request) -> web.Response:
        """``GET /users/@me`` with ``Authorization: Bearer``: the user the token was issued to."""
        token = request.headers.get("Authorization", "").removeprefix("Bearer ")
        grant = self.access_tokens.get(token)
        if grant is None or grant.expires_at <= self.fake.clock.now():
            return json_response({"message": "401: Unauthorized", "code": 0}, 401)
        return json_response(user_payload(self.fake.store.users[grant.user_id]))

    async def get_instance(self, request: web.Request) -> web.Response:
        if int(request.match_info["app_id"]) != self.client_id:
            raise ApiError(403, 50001, "Missing Access")
        instance = self.instances.get(request.match_info["instance_id"])
        if instance is None or instance.ended:
            raise ApiError(404, 0, "404: Not Found")
        return json_response(instance.payload(self.client_id))
