"""JSON in and out of the fake with orjson (the bot's discord.py uses it too), the standard
library where orjson refuses (ints over 64 bits, NaN, non-UTF-8 text): same values, same
errors for what is not JSON."""

from __future__ import annotations

import json
from typing import Any

import orjson


def dumps(data: Any) -> bytes:
    """``data`` as compact UTF-8 JSON (int keys become strings, as with ``json.dumps``)."""
    try:
        return orjson.dumps(data, option=orjson.OPT_NON_STR_KEYS)
    except TypeError:  # orjson.JSONEncodeError: a value only the standard library writes
        return json.dumps(data).encode()


def dumps_text(data: Any) -> str:
    return dumps(data).decode()


def loads(raw: bytes | str) -> Any:
    try:
        return orjson.loads(raw)
    except orjson.JSONDecodeError:  # NaN, big ints... or not JSON: json says which
        return json.loads(raw)
