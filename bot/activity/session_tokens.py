"""The server's own session tokens: who a WebSocket belongs to, signed, short-lived, single use.

A token is ``base64url(claims JSON) "." base64url(HMAC-SHA256(secret, claims part))``. The
secret is drawn per process (``secrets``), so a restart invalidates every token and the client
authorizes again (silently: ``prompt: 'none'``). The claims bind the token to one user, one
activity instance and its channel, all learned from Discord by ``POST /api/token``; nothing in a
token comes from the client. Each token opens one WebSocket: its nonce is remembered until the
token expires, so a replayed token is refused.

A token also carries when its chain began (the sign-in through Discord; a welcome's resume token
keeps it) and when Discord last confirmed the user's place in the instance: a chain older than
``chain_lifetime`` is refused (the client signs in again), and the server checks the instance
again when a resumed socket's confirmation is old (docs/activity.md, "Limits").
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import json
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass

#: Seconds a session token may wait before it opens its WebSocket.
SESSION_SECONDS = 300
#: Seconds a chain of resume tokens may last from its sign-in (``ACTIVITY_SESSION_MAX_HOURS``).
CHAIN_SECONDS = 12 * 3600.0
NONCE_BYTES = 16


#: What a token says of its user (``issue``'s arguments); the nonce and expiry are its own.
_CLAIMS = ("user_id", "instance_id", "channel_id", "guild_id", "locale", "name", "avatar")


@dataclass(frozen=True, slots=True)
class Session:
    """A verified token's claims."""

    user_id: int
    instance_id: str
    channel_id: int
    guild_id: int | None
    #: The user's Discord locale (from ``/users/@me``), for the texts the server sends.
    locale: str
    nonce: str
    expires_at: float
    #: The user's name on Discord (from ``/users/@me``): the name a seat they join shows.
    name: str = ""
    #: The user's avatar hash (from ``/users/@me``; None without one): the seat's picture.
    avatar: str | None = None
    #: When the chain began (the sign-in) and when Discord last confirmed that the user is in
    #: the instance (``clock`` seconds).
    started_at: float = 0.0
    checked_at: float = 0.0


class BadToken(Exception):
    """A token that is forged, tampered with, expired or already used; ``reason`` says which
    (for the log and the tests, never shown to the user)."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class SessionSigner:
    def __init__(
        self,
        *,
        secret: bytes | None = None,
        lifetime: float = SESSION_SECONDS,
        chain_lifetime: float = CHAIN_SECONDS,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self._secret = secret if secret is not None else secrets.token_bytes(32)
        self.lifetime = lifetime
        self.chain_lifetime = chain_lifetime
        self.clock = clock
        #: Nonces of tokens that opened a WebSocket, until they expire.
        self._used: dict[str, float] = {}

    def _mac(self, body: str) -> str:
        return _b64(hmac.new(self._secret, body.encode("ascii"), hashlib.sha256).digest())

    def issue(
        self,
        *,
        user_id: int,
        instance_id: str,
        channel_id: int,
        guild_id: int | None,
        locale: str,
        name: str = "",
        avatar: str | None = None,
        started_at: float | None = None,
        checked_at: float | None = None,
    ) -> str:
        """A token for a user Discord has just confirmed in the instance (a new chain), or,
        with ``started_at`` and ``checked_at``, the next token of a chain."""
        now = self.clock()
        claims = {
            "u": str(user_id),
            "i": instance_id,
            "c": str(channel_id),
            "g": None if guild_id is None else str(guild_id),
            "l": locale,
            "d": name,
            "a": avatar,
            "n": _b64(secrets.token_bytes(NONCE_BYTES)),
            "e": round(now + self.lifetime, 3),
            "s": round(now if started_at is None else started_at, 3),
            "k": round(now if checked_at is None else checked_at, 3),
        }
        body = _b64(json.dumps(claims, separators=(",", ":")).encode())
        return f"{body}.{self._mac(body)}"

    def renew(self, session: Session) -> str:
        """A fresh token for ``session``'s user, instance and channel (a new nonce and expiry):
        the single-use token a welcome hands out for reconnecting. The chain's start and the
        time of Discord's last confirmation stay."""
        return self.issue(
            **{claim: getattr(session, claim) for claim in _CLAIMS},
            started_at=session.started_at,
            checked_at=session.checked_at,
        )

    def verify(self, token: object) -> Session:
        """The token's session, if it is genuine and unexpired (it is not consumed)."""
        if not isinstance(token, str) or token.count(".") != 1 or len(token) > 1024:
            raise BadToken("malformed")
        body, mac = token.split(".")
        if not hmac.compare_digest(mac, self._mac(body)):
            raise BadToken("bad signature")
        try:
            claims = json.loads(_unb64(body))
            session = Session(
                user_id=int(claims["u"]),
                instance_id=str(claims["i"]),
                channel_id=int(claims["c"]),
                guild_id=None if claims["g"] is None else int(claims["g"]),
                locale=str(claims["l"]),
                nonce=str(claims["n"]),
                expires_at=float(claims["e"]),
                name=str(claims["d"]),
                avatar=None if claims.get("a") is None else str(claims["a"]),
                started_at=float(claims["s"]),
                checked_at=float(claims["k"]),
            )
        except (binascii.Error, ValueError, KeyError, TypeError) as exc:  # signed, yet odd
            raise BadToken(f"bad claims: {exc}") from None
        now = self.clock()
        if session.expires_at <= now:
            raise BadToken("expired")
        if now - session.started_at > self.chain_lifetime:
            raise BadToken("chain too old")
        if session.nonce in self._used:
            raise BadToken("replayed")
        return session

    def consume(self, token: object) -> Session:
        """Verify and use up the token: it opens one WebSocket, never a second."""
        session = self.verify(token)
        now = self.clock()
        for nonce in [n for n, until in self._used.items() if until <= now]:
            del self._used[nonce]
        self._used[session.nonce] = session.expires_at
        return session
