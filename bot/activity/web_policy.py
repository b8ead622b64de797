"""What a browser may do with the Activity's answers, and which pages may open its socket
(docs/activity.md, "Limits"): the Content-Security-Policy and the other headers of every
answer, and the WebSocket's allowed origins."""

from __future__ import annotations

from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from aiohttp import web

if TYPE_CHECKING:
    from bot.settings import Settings

#: Discord's own pages, which frame an Activity (the web, desktop and mobile clients).
DISCORD_PAGES = (
    "https://discord.com https://*.discord.com https://discordapp.com https://*.discordapp.com"
)


def frame_ancestors(settings: Settings) -> str:
    """``ACTIVITY_FRAME_ANCESTORS``, or: this server itself (the test harness), Discord's pages
    and this application's own ``<client id>.discordsays.com``; no other application's."""
    configured = settings.activity_frame_ancestors
    if configured:
        return configured
    return f"'self' {DISCORD_PAGES} https://{settings.discord_client_id}.discordsays.com"


def content_security_policy(settings: Settings, host: str) -> str:
    """Everything from this origin only: the scripts, styles, pictures and the socket (the
    avatars come through the ``/cdn`` URL mapping, the same origin; a review's chart comes in
    its frame, as a ``data:`` PNG: a picture runs nothing). ``host``: the request's,
    so the socket's ``ws(s)://`` of the page's own origin is allowed by name too."""
    return "; ".join(
        (
            "default-src 'self'",
            "script-src 'self'",
            "style-src 'self'",
            "img-src 'self' data:",
            f"connect-src 'self' wss://{host} ws://{host}",
            f"frame-ancestors {frame_ancestors(settings)}",
            "object-src 'none'",
            "base-uri 'self'",
            "form-action 'none'",
        )
    )


def set_headers(settings: Settings, request: web.BaseRequest, response: web.StreamResponse) -> None:
    """Every answer's headers: the CSP, no referrer sent on, no content sniffing, no server
    version."""
    response.headers["Server"] = "durak"
    response.headers["X-Content-Type-Options"] = "nosniff"
    response.headers["Referrer-Policy"] = "no-referrer"
    host = request.host if _plain_host(request.host) else "localhost"
    response.headers["Content-Security-Policy"] = content_security_policy(settings, host)


def _plain_host(host: str) -> bool:
    """A host name with an optional port, nothing that could break out of the header."""
    return bool(host) and len(host) <= 255 and all(c.isalnum() or c in ".-:[]" for c in host)


def origin_allowed(settings: Settings, request: web.BaseRequest) -> bool:
    """A browser's WebSocket comes from the server's own origin (the same host) or one
    configured (``ACTIVITY_ALLOWED_ORIGINS``; by default the public host and the app's
    discordsays.com). Without an Origin it is no browser: the session token decides."""
    origin = request.headers.get("Origin")
    if origin is None:
        return True
    origin = origin.strip().rstrip("/").lower()
    if urlsplit(origin).netloc == request.host.lower():
        return True
    allowed = settings.activity_allowed_origins or (
        f"https://{settings.activity_public_host}",
        f"https://{settings.discord_client_id}.discordsays.com",
    )
    return origin in (a.lower() for a in allowed)
