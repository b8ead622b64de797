"""Request parsing and Discord-shaped responses."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from aiohttp import web

from .json_codec import dumps, loads
from .model import JSON
from .multipart import parse_simple, parse_with_aiohttp
from .payloads import error_body
from .store import UploadedFile

API_PREFIX = "/api/v10"
# The parsed body, kept on the request for the request log.
FAKE_BODY = web.RequestKey("fake_body", object)
#: Checks each parsed body (request, content type, body) and raises the refusal of one Discord
#: would refuse (form_errors.contract_gate).
Gate = Callable[[web.Request, str, Any], None]
CONTRACT_GATE: web.AppKey[Gate] = web.AppKey("contract_gate")


def json_response(
    data: Any, status: int = 200, headers: Mapping[str, str] | None = None
) -> web.Response:
    # Bytes body, not text=: aiohttp would append "; charset=utf-8" and discord.py's
    # json_or_text() only parses an exact "application/json".
    return web.Response(
        body=dumps(data),
        status=status,
        content_type="application/json",
        headers=headers,
    )


class ApiError(Exception):
    """Raised by handlers; the middleware turns it into Discord's error JSON."""

    def __init__(
        self,
        status: int,
        code: int,
        message: str,
        errors: dict[str, Any] | None = None,
        headers: Mapping[str, str] | None = None,
        body: JSON | None = None,
    ) -> None:
        super().__init__(f"{status} {code} {message}")
        self.status = status
        self.body = body if body is not None else error_body(code, message, errors)
        self.headers = dict(headers or {})

    def response(self) -> web.Response:
        return json_response(self.body, self.status, self.headers)


def unknown(kind: str, code: int) -> ApiError:
    return ApiError(404, code, f"Unknown {kind}")


async def read_body(request: web.Request) -> tuple[Any, list[UploadedFile]]:
    """JSON body, or multipart with a `payload_json` part and `files[n]` parts."""
    files: list[UploadedFile] = []
    payload: Any = None
    # The raw header, not request.content_type: aiohttp parses that with the email package,
    # which cost the fake a fifth of its time under the load benchmark.
    content_type = request.headers.get("Content-Type", "")
    if content_type.lower().startswith("multipart/"):
        raw = await request.content.read()  # as aiohttp's reader: no client_max_size
        parts = parse_simple(content_type, raw)
        if parts is None:
            parts = await parse_with_aiohttp(request.headers, raw)
        for part in parts:
            if part.name == "payload_json":
                payload = loads(part.data)
            elif part.name is not None:
                files.append(
                    UploadedFile(
                        field=part.name,
                        filename=part.filename or part.name,
                        content_type=part.content_type,
                        data=part.data,
                    )
                )
    elif request.can_read_body:
        raw_body = await request.read()
        payload = loads(raw_body) if raw_body else None
    request[FAKE_BODY] = payload
    gate = request.app.get(CONTRACT_GATE)
    if gate is not None and payload is not None:
        kind = (
            "multipart/form-data"
            if files or content_type.lower().startswith("multipart/")
            else "application/json"
        )
        gate(request, kind, payload)
    return payload, files
