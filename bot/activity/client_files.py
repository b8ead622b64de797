"""The built browser client as the Activity server serves it (docs/activity.md, "Limits" and
"Building the client"): the page with the application's client id (and, with several bot
processes, the number of shards) filled in, never cached; the assets gzipped once and, since
Vite's file names carry a content hash, cached for a year."""

from __future__ import annotations

import gzip
import mimetypes
import re
from pathlib import Path

from aiohttp import web

from bot.text import t

#: The assets' file names (Vite's ``name-<hash>.ext``), and those that carry a content hash:
#: they never change, so a browser may keep them for a year.
ASSET_NAME = re.compile(r"[A-Za-z0-9_-][A-Za-z0-9._-]{0,127}")
HASHED_ASSET = re.compile(r"-[A-Za-z0-9_-]{8,}\.[a-z0-9]+")
#: The caching of an asset whose name carries its content's hash.
IMMUTABLE = "public, max-age=31536000, immutable"
#: Types worth compressing (pictures are compressed already).
COMPRESSIBLE = ("text/", "application/javascript", "application/json", "image/svg+xml")
#: Where ``npm run build`` in ``activity/`` puts the browser client (a source checkout), and
#: where an installed wheel carries it (the build backend copies it there).
CHECKOUT_CLIENT = Path(__file__).resolve().parents[2] / "activity" / "dist"
PACKAGED_CLIENT = Path(__file__).resolve().parent / "client"


def find_client(*candidates: Path) -> Path:
    """The first built client: the checkout's (what ``npm run build`` just made), else the
    wheel's; the checkout's when there is none."""
    return next((d for d in candidates if (d / "index.html").is_file()), candidates[0])


#: The empty tag in ``activity/index.html`` the server fills with the application's client id
#: (the SDK needs it before anything else, and it is configuration, not a build input).
CLIENT_ID_TAG = '<meta name="discord-client-id" content="" />'
#: The empty tag the server fills with the number of shards when the bot runs as several
#: processes: the client then sends its sign-in and socket to ``shard/<n>/`` (docs/activity.md,
#: "Sharding"), which the URL mappings route to the process of the guild's shard.
SHARDS_TAG = '<meta name="durak-shards" content="" />'


def request_locale(request: web.Request) -> str:
    """Only the language of an error shown before Discord named the user."""
    header = request.headers.get("Accept-Language", "")
    first = re.split(r"[,;]", header, maxsplit=1)[0].strip()
    return first or "en-US"


class ClientFiles:
    """``client_dir``: ``index.html`` beside ``assets/`` (``npm run build``'s output);
    ``shard_count``: set when this process runs only some of the shards."""

    def __init__(self, client_dir: Path, client_id: int | None, shard_count: int | None) -> None:
        self.client_dir = client_dir
        self.client_id = client_id
        self.shard_count = shard_count
        #: The assets as read, and gzipped: name → (mtime, type, raw, gzipped or None).
        self._assets: dict[str, tuple[int, str, bytes, bytes | None]] = {}

    @property
    def built(self) -> bool:
        return (self.client_dir / "index.html").is_file()

    async def index(self, request: web.Request) -> web.Response:
        """The client's page, with the application's client id filled in; without a built
        client, a line saying so rather than a blank frame."""
        try:
            page = (self.client_dir / "index.html").read_text(encoding="utf-8")
        except OSError:
            text = t("activity.not_built", request_locale(request))
            return web.Response(status=503, text=text, content_type="text/plain")
        client_id = str(self.client_id)
        page = page.replace(
            CLIENT_ID_TAG, f'<meta name="discord-client-id" content="{client_id}" />'
        )
        if self.shard_count is not None:  # this process runs only some of the shards
            shards = f'<meta name="durak-shards" content="{self.shard_count}" />'
            page = page.replace(SHARDS_TAG, shards)
        response = web.Response(
            text=page, content_type="text/html", headers={"Cache-Control": "no-cache"}
        )
        response.enable_compression()
        return response

    async def asset(self, request: web.Request) -> web.Response:
        """A file of the built client's ``assets/``: gzipped when the browser takes it, and
        cached for good when its name carries a content hash (Vite's)."""
        name = request.match_info["name"]
        if not ASSET_NAME.fullmatch(name):
            raise web.HTTPNotFound()
        path = self.client_dir / "assets" / name
        try:
            mtime = path.stat().st_mtime_ns
            cached = self._assets.get(name)
            if cached is None or cached[0] != mtime:
                raw = path.read_bytes()
                kind = mimetypes.guess_type(name)[0] or "application/octet-stream"
                packed = gzip.compress(raw, 9) if kind.startswith(COMPRESSIBLE) else None
                cached = self._assets[name] = (mtime, kind, raw, packed)
        except OSError:
            raise web.HTTPNotFound() from None
        _, kind, body, packed = cached
        headers = {
            "Cache-Control": IMMUTABLE if HASHED_ASSET.search(name) else "no-cache",
            "Vary": "Accept-Encoding",
        }
        if packed is not None and "gzip" in request.headers.get("Accept-Encoding", ""):
            headers["Content-Encoding"] = "gzip"
            body = packed
        return web.Response(body=body, headers=headers, content_type=kind)
