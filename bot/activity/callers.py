"""Who a request comes from, for the limits (docs/activity.md, "Who, not where").

Inside Discord every request reaches the bot through Discord's proxy
(``<client id>.discordsays.com``), so every player arrives from the same address: a limit per
address is a limit on everyone. The proxy signs what it forwards:
``X-Discord-Proxy-Payload`` is base64 JSON naming the user (``user_id``, or ``user.id``), the
application and the token's ``created_at``/``expires_at``; ``X-Signature-Ed25519`` is the
application's Ed25519 signature of those payload bytes (base64 in Discord's own code, hex in
some samples: both are read); ``X-Signature-Timestamp`` equals ``created_at``. Verified with
the application's public key (``DISCORD_PUBLIC_KEY``), the user id is the caller. Without
valid headers, the caller is the client's address: the forwarded one the operator trusts
(``ACTIVITY_FORWARDED_HOPS``), else the peer's. The signature covers no request, only the
token (reusable until it expires), so it only keys limits: who may play is still decided by
the OAuth2 sign-in and the session token.
"""

from __future__ import annotations

import base64
import binascii
import json
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from aiohttp import web
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

#: The proxy's headers.
SIGNATURE, TIMESTAMP, PAYLOAD = (
    "X-Signature-Ed25519",
    "X-Signature-Timestamp",
    "X-Discord-Proxy-Payload",
)
#: Seconds a payload's ``created_at`` may lie ahead of this machine's clock (clock skew).
SKEW_SECONDS = 60
#: Longest header accepted (a payload is ~150 bytes): more is no proxy's.
MAX_HEADER = 2048


@dataclass(frozen=True, slots=True)
class Caller:
    """``key``: whom a per-client limit counts (``user:<id>`` when Discord's proxy vouched for
    the user, else ``ip:<address>``); ``address``: the client's address, for the loose
    per-address bound."""

    key: str
    address: str
    user_id: int | None = None


def _b64(text: str) -> bytes:
    return base64.b64decode(text + "=" * (-len(text) % 4), validate=True)


def _signature(text: str) -> bytes:
    """64 bytes, from base64 (Discord's code) or hex (Discord's Python sample)."""
    if len(text) == 128:
        with_hex = binascii.unhexlify(text)
        if len(with_hex) == 64:
            return with_hex
    return _b64(text)


class ProxyVerifier:
    """Checks the proxy's signed headers with the application's public key (hex, as the
    Developer Portal shows it)."""

    def __init__(
        self,
        public_key_hex: str,
        application_id: int,
        *,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.key = Ed25519PublicKey.from_public_bytes(bytes.fromhex(public_key_hex))
        self.application_id = application_id
        self.clock = clock

    def user_id(self, headers: Mapping[str, str]) -> int | None:
        """The user the headers name if they are genuine, current and this application's;
        else None (a forged, expired, foreign or malformed header is simply no identity)."""
        signature, stamp, payload = (headers.get(h) for h in (SIGNATURE, TIMESTAMP, PAYLOAD))
        if not (signature and stamp and payload):
            return None
        if max(len(signature), len(stamp), len(payload)) > MAX_HEADER:
            return None
        try:
            raw = _b64(payload)
            self.key.verify(_signature(signature), raw)
            claims = json.loads(raw)
        except (ValueError, InvalidSignature):  # binascii.Error and JSON errors included
            return None
        if not isinstance(claims, dict):
            return None
        return self._user(claims, stamp)

    def _user(self, claims: dict[str, object], stamp: str) -> int | None:
        created, expires = claims.get("created_at"), claims.get("expires_at")
        if not (_whole(created) and _whole(expires)) or str(created) != stamp.strip():
            return None
        now = self.clock()
        if not (int(str(created)) - SKEW_SECONDS <= now <= int(str(expires))):
            return None
        app = claims.get("application_id")
        if app is not None and str(app) != str(self.application_id):
            return None
        user, nested = claims.get("user_id"), claims.get("user")
        if user is None and isinstance(nested, dict):
            user = nested.get("id")
        if _whole(user) and 0 < int(str(user)) < 2**64:  # a snowflake, as text (or a number)
            return int(str(user))
        return None


def _whole(value: object) -> bool:
    if isinstance(value, bool):
        return False
    return isinstance(value, int) or (isinstance(value, str) and value.isdigit())


class Callers:
    """Names the caller of each request: the signed user where the proxy's headers verify
    (``verifier``; None without ``DISCORD_PUBLIC_KEY``), else the address."""

    def __init__(self, verifier: ProxyVerifier | None, forwarded_hops: int) -> None:
        self.verifier = verifier
        self.forwarded_hops = forwarded_hops

    def address(self, request: web.BaseRequest) -> str:
        """The browser's address: the peer's, or with ``ACTIVITY_FORWARDED_HOPS`` proxies in
        front, the X-Forwarded-For entry the first of them appended."""
        hops = self.forwarded_hops
        if hops:
            forwarded = request.headers.getall("X-Forwarded-For", [])
            entries = [e.strip() for h in forwarded for e in h.split(",") if e.strip()]
            if len(entries) >= hops:
                return entries[-hops][:64]
        return request.remote or "?"

    def caller(self, request: web.BaseRequest) -> Caller:
        address = self.address(request)
        user = None if self.verifier is None else self.verifier.user_id(request.headers)
        if user is not None:
            return Caller(f"user:{user}", address, user)
        return Caller(f"ip:{address}", address)
