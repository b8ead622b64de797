"""``multipart/form-data`` bodies (``payload_json`` and ``files[n]``) split in one pass over
the bytes. aiohttp's reader parses each part's Content-Disposition with a helper that rebuilds
a 128-character regex class on every call: under the load benchmark that cost the fake about
a tenth of its time. Anything beyond what discord.py sends (transfer or content encodings,
nested multiparts, escaped or RFC 5987 parameters, folded headers) is left to aiohttp's
reader (:func:`parse_simple` returns None), so both paths give the same parts."""

from __future__ import annotations

import asyncio
import re
from dataclasses import dataclass

from aiohttp import BodyPartReader, MultipartReader, StreamReader
from aiohttp.base_protocol import BaseProtocol
from multidict import CIMultiDictProxy

#: ``form-data; name="files[0]"; filename="table.png"``: ASCII keys without ``*`` and quoted
#: values without escapes, semicolons or a leading slash (aiohttp strips those).
_VALUE = r'"((?:[^"\\;/][^"\\;]*)?)"'
_DISPOSITION = re.compile(
    r"[!#$%&'+.^_`|~0-9A-Za-z-]+((?:\s*;\s*[A-Za-z0-9_.-]+=" + _VALUE + r")*)\s*"
)
_PARAM = re.compile(r"\s*;\s*([A-Za-z0-9_.-]+)=" + _VALUE)
_BOUNDARY = re.compile(r';\s*boundary=(?:"([^"\\]+)"|([^\s;"]+))', re.IGNORECASE)


@dataclass
class Part:
    """One part: its form field name, file name and content type (None when absent)."""

    name: str | None
    filename: str | None
    content_type: str | None
    data: bytes


def _disposition(header: str | None) -> dict[str, str] | None:
    """The parameters of a simple Content-Disposition (keys lower-cased), else None."""
    if header is None:
        return {}
    match = _DISPOSITION.fullmatch(header)
    if match is None:
        return None
    params: dict[str, str] = {}
    for m in _PARAM.finditer(match[1]):
        key = m[1].lower()
        if key in params:  # aiohttp drops every parameter then
            return None
        params[key] = m[2]
    return params


def parse_simple(content_type: str, body: bytes) -> list[Part] | None:
    """The parts of ``body``, or None if it needs aiohttp's full reader."""
    found = _BOUNDARY.search(content_type)
    if found is None:
        return None
    delimiter = b"\r\n--" + (found[1] or found[2]).encode()
    chunks = (b"\r\n" + body).split(delimiter)
    parts: list[Part] = []
    for chunk in chunks[1:]:  # chunks[0]: the preamble
        if chunk.startswith(b"--"):
            return parts  # the close delimiter
        # The delimiter's line break, the part's header lines, a blank line, the data.
        head_end = chunk.find(b"\r\n\r\n")
        if not chunk.startswith(b"\r\n") or head_end < 2:
            return None
        headers: dict[str, str] = {}
        for line in chunk[2:head_end].decode("utf-8", "surrogateescape").split("\r\n"):
            key, colon, value = line.partition(":")
            if not colon or key != key.strip() or key.lower() in headers:
                return None
            headers[key.lower()] = value.strip()
        if (
            "content-transfer-encoding" in headers
            or "content-encoding" in headers
            or headers.get("content-type", "").lower().startswith("multipart/")
        ):
            return None
        params = _disposition(headers.get("content-disposition"))
        if params is None:
            return None
        parts.append(
            Part(
                params.get("name"),
                params.get("filename"),
                headers.get("content-type"),
                chunk[head_end + 4 :],
            )
        )
    return None  # no close delimiter: truncated, let aiohttp say what it makes of it


async def parse_with_aiohttp(headers: CIMultiDictProxy[str], body: bytes) -> list[Part]:
    """The parts as aiohttp's reader reads them (decoded), from the body's bytes."""
    loop = asyncio.get_running_loop()
    stream = StreamReader(BaseProtocol(loop), 2**16, loop=loop)
    stream.feed_data(body)
    stream.feed_eof()
    parts: list[Part] = []
    async for part in MultipartReader(headers, stream):
        if isinstance(part, BodyPartReader):
            raw = await part.read(decode=True)
            ctype = part.headers.get("Content-Type")
            parts.append(Part(part.name, part.filename, ctype, bytes(raw)))
    return parts
