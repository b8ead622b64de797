"""The three Discord calls behind ``POST /api/token``: exchange the SDK's code, learn the user
from ``/users/@me``, and check the activity instance with the bot token.

The base URL is discord.py's ``Route.BASE`` (``https://discord.com/api/v10``), read per call, so
the bot and the Activity always talk to the same Discord (the tests' fake patches it).
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import aiohttp
from discord.http import Route

log = logging.getLogger(__name__)

TIMEOUT = aiohttp.ClientTimeout(total=10)
#: A 429 to the instance check (made with the bot token: Discord's global limit, which it
#: shares with the bot's own requests) is waited out this many times when it asks for at most
#: ``MAX_RATE_LIMIT_WAIT`` seconds; past that the sign-in answers "try again" (503), never "you
#: are not allowed". The OAuth2 calls are never repeated: a 4xx there (a made-up code, a 429)
#: answers the browser at once, so a junk sign-in costs Discord one request, not five.
RATE_LIMIT_TRIES = 5
MAX_RATE_LIMIT_WAIT = 5.0


class DiscordRefused(Exception):
    """Discord said no (a bad code, a bad token, an unknown instance) or could not be reached;
    ``status`` is Discord's HTTP status (0: no answer)."""

    def __init__(self, what: str, status: int, detail: str = "") -> None:
        super().__init__(f"{what}: {status} {detail}".strip())
        self.what = what
        self.status = status

    @property
    def transient(self) -> bool:
        """No answer, Discord's own failure, or its rate limit: worth trying again later."""
        return self.status == 0 or self.status == 429 or self.status >= 500


@dataclass(frozen=True, slots=True)
class DiscordUser:
    id: int
    username: str
    global_name: str | None
    avatar: str | None
    locale: str


@dataclass(frozen=True, slots=True)
class ActivityInstance:
    instance_id: str
    guild_id: int | None
    channel_id: int
    users: frozenset[int]


class DiscordApi:
    """``pace``: awaited before each request to Discord, the OAuth2 calls too: the bot's own
    request budget (``RequestBudget``), so that every request the process makes to Discord,
    with whatever credentials, counts in the one rate the bot keeps to."""

    def __init__(
        self,
        client_id: int,
        client_secret: str,
        bot_token: str,
        pace: Callable[[], Awaitable[None]] | None = None,
    ) -> None:
        self.client_id = client_id
        self._client_secret = client_secret
        self._bot_token = bot_token
        self._pace = pace
        self._session: aiohttp.ClientSession | None = None

    def _http(self) -> aiohttp.ClientSession:
        if self._session is None or self._session.closed:
            self._session = aiohttp.ClientSession(timeout=TIMEOUT)
        return self._session

    async def close(self) -> None:
        if self._session is not None:
            await self._session.close()
            self._session = None

    async def _call(
        self, what: str, method: str, path: str, *, retry: bool = False, **kwargs: Any
    ) -> Any:
        """``retry``: wait out short 429s (the instance check only)."""
        tries = RATE_LIMIT_TRIES if retry else 1
        for attempt in range(1, tries + 1):
            if self._pace is not None:
                await self._pace()
            try:
                async with self._http().request(method, Route.BASE + path, **kwargs) as response:
                    text = await response.text()
                    if response.status == 200:
                        return json.loads(text)
                    status = response.status
                    wait = _retry_after(response.headers, text) if status == 429 else 0.0
            except (aiohttp.ClientError, TimeoutError, json.JSONDecodeError) as exc:
                raise DiscordRefused(what, 0, type(exc).__name__) from None
            if status != 429 or attempt == tries or wait > MAX_RATE_LIMIT_WAIT:
                raise DiscordRefused(what, status, text[:200])
            log.info("%s: rate limited by Discord, trying again in %.2fs", what, wait)
            await asyncio.sleep(wait)
        raise AssertionError("unreachable")

    async def exchange_code(self, code: str) -> str:
        """The access token for the SDK's authorization ``code`` (no ``redirect_uri``, as
        Discord's own Activity examples send none)."""
        data = await self._call(
            "token exchange",
            "POST",
            "/oauth2/token",
            data={
                "client_id": str(self.client_id),
                "client_secret": self._client_secret,
                "grant_type": "authorization_code",
                "code": code,
            },
        )
        token = data.get("access_token") if isinstance(data, dict) else None
        if not isinstance(token, str) or not token:
            raise DiscordRefused("token exchange", 200, "no access_token")
        return token

    async def user(self, access_token: str) -> DiscordUser:
        data = await self._call(
            "users/@me", "GET", "/users/@me", headers={"Authorization": f"Bearer {access_token}"}
        )
        try:
            return DiscordUser(
                id=int(data["id"]),
                username=str(data["username"]),
                global_name=data.get("global_name"),
                avatar=data.get("avatar"),
                locale=str(data.get("locale") or "en-US"),
            )
        except (KeyError, TypeError, ValueError):
            raise DiscordRefused("users/@me", 200, "unexpected user object") from None

    async def instance(self, instance_id: str) -> ActivityInstance:
        """The instance as Discord knows it (404 → :class:`DiscordRefused`): where it runs and
        who is connected. Uses the bot token: the client cannot vouch for an instance."""
        data = await self._call(
            "activity instance",
            "GET",
            f"/applications/{self.client_id}/activity-instances/{instance_id}",
            headers={"Authorization": f"Bot {self._bot_token}"},
            retry=True,
        )
        try:
            location = data["location"]
            guild = location.get("guild_id")
            return ActivityInstance(
                instance_id=str(data["instance_id"]),
                guild_id=int(guild) if guild else None,
                channel_id=int(location["channel_id"]),
                # Discord's docs: user ids; tolerate user objects too (the facts sheet's users[])
                users=frozenset(int(u["id"] if isinstance(u, dict) else u) for u in data["users"]),
            )
        except (KeyError, TypeError, ValueError):
            raise DiscordRefused("activity instance", 200, "unexpected instance object") from None


def _retry_after(headers: Any, text: str) -> float:
    """A 429's wait in seconds: its JSON ``retry_after``, else its ``Retry-After`` header;
    infinity when it says neither (never waited for)."""
    try:
        return float(json.loads(text)["retry_after"])
    except (ValueError, KeyError, TypeError):
        pass
    try:
        return float(headers.get("Retry-After", "inf"))
    except ValueError:
        return float("inf")
