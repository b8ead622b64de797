"""The fake's one-pass multipart split reads what aiohttp's reader reads, and leaves to that
reader every body it does not read the simple way (tests/fake_discord/multipart.py)."""

from __future__ import annotations

import json

import aiohttp
import pytest
from multidict import CIMultiDict, CIMultiDictProxy

from tests.fake_discord.multipart import Part, parse_simple, parse_with_aiohttp

PNG = b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 4 + b"\r\n--not-the-boundary\r\n\r\n"


async def form(filename: str, **headers: str) -> tuple[str, bytes]:
    """A body as discord.py builds it (``FormData(quote_fields=False)``): its type and bytes."""
    data = aiohttp.FormData(quote_fields=False)
    payload = {"content": "hi", "attachments": [{"id": 0, "filename": filename}]}
    data.add_field("payload_json", json.dumps(payload), content_type="application/json")
    data.add_field("files[0]", PNG, filename=filename, content_type="image/png")
    data.add_field("files[1]", b"second", filename="b.txt")
    writer = data()
    assert isinstance(writer, aiohttp.MultipartWriter)
    for name, value in headers.items():
        for part, _, _ in writer._parts:
            part.headers[name] = value
    return writer.content_type, await writer.as_bytes()


async def both(content_type: str, body: bytes) -> tuple[list[Part] | None, list[Part]]:
    headers = CIMultiDictProxy(CIMultiDict({"Content-Type": content_type}))
    return parse_simple(content_type, body), await parse_with_aiohttp(headers, body)


@pytest.mark.parametrize("filename", ["table.png", "карты.png", "", "with space.png"])
async def test_discord_py_bodies_are_split_in_one_pass_as_aiohttp_reads_them(
    filename: str,
) -> None:
    simple, full = await both(*await form(filename))
    assert simple is not None
    assert simple == full
    assert [p.name for p in simple] == ["payload_json", "files[0]", "files[1]"]
    assert simple[1] == Part("files[0]", filename, "image/png", PNG)


@pytest.mark.parametrize("filename", ['a"b.png', "/etc/x.png", "a;b.png", "a\\b.png"])
async def test_escaped_or_stripped_names_go_to_aiohttp(filename: str) -> None:
    simple, full = await both(*await form(filename))
    assert simple is None
    assert full[1].data == PNG  # aiohttp's own reading (it strips a leading slash, say)


async def test_encoded_parts_go_to_aiohttp() -> None:
    content_type, body = await form("t.png", **{"Content-Transfer-Encoding": "binary"})
    simple, full = await both(content_type, body)
    assert simple is None
    assert full[1] == Part("files[0]", "t.png", "image/png", PNG)


async def test_a_truncated_body_goes_to_aiohttp() -> None:
    content_type, body = await form("t.png")
    assert parse_simple(content_type, body[: body.rindex(b"--")]) is None
