"""Behind Discord's proxy every player shares one address (issue #46): the limits count the user
the proxy's signed headers name, else the address the operator trusts, and per address only
loosely. No client, signed or not, locks the others out; a forged header names nobody."""

from __future__ import annotations

import base64
import json
from pathlib import Path

import aiohttp
import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from bot.activity.callers import ProxyVerifier
from tests.bot.activity.helpers import (
    Browser,
    Site,
    activity_bot,
    connect,
    open_browser,
    post_token,
)
from tests.bot.activity.proxy import FakeProxy
from tests.bot.activity.test_attacks import plays
from tests.bot.helpers import open_table, world

APP = 4242


def verifier(proxy: FakeProxy, now: float = 1_000_000.0) -> ProxyVerifier:
    return ProxyVerifier(proxy.public_key_hex, APP, clock=lambda: now)


def test_genuine_headers_name_their_user_and_nothing_else_names_anyone() -> None:
    proxy = FakeProxy(APP)
    check = verifier(proxy)
    now = 1_000_000.0
    assert check.user_id(proxy.headers(77, now=now)) == 77
    assert check.user_id(proxy.headers(77, now=now, hex_signature=True)) == 77
    forger = Ed25519PrivateKey.generate()
    assert check.user_id(proxy.headers(77, now=now, key=forger)) is None
    assert check.user_id(proxy.headers(77, now=now - 400)) is None  # expired (300 s tokens)
    assert check.user_id(proxy.headers(77, now=now + 120)) is None  # from the future
    assert check.user_id(proxy.headers(77, now=now, application_id=APP + 1)) is None
    genuine = proxy.headers(77, now=now)
    # another user's id in a payload the signature does not cover
    payload = json.loads(base64.b64decode(genuine["X-Discord-Proxy-Payload"]))
    payload["user_id"] = "78"
    swapped = genuine | {
        "X-Discord-Proxy-Payload": base64.b64encode(json.dumps(payload).encode()).decode()
    }
    assert check.user_id(swapped) is None
    assert check.user_id(genuine | {"X-Signature-Timestamp": str(int(now) + 1)}) is None
    for broken in ("", "%%%", "A" * 5000):
        assert check.user_id(genuine | {"X-Signature-Ed25519": broken}) is None
        assert check.user_id(genuine | {"X-Discord-Proxy-Payload": broken}) is None
    assert check.user_id({}) is None


def proxied(**overrides: object) -> tuple[FakeProxy, dict[str, object]]:
    """Discord's proxy in front (one address for all: 127.0.0.1), its key given to the bot."""
    proxy = FakeProxy(0)
    return proxy, {"discord_public_key": proxy.public_key_hex, **overrides}


@pytest.mark.slow
async def test_eleven_sign_ins_through_one_address_from_different_users_pass(
    tmp_path: Path,
) -> None:
    """The 11th launch of the Activity on the whole bot within a minute was refused; now each
    user the proxy names has their own allowance. One client without a signature still has
    only its own (10), and the signed users go on after it ran out."""
    proxy, settings = proxied(activity_sign_ins_per_second=100.0)
    async with world(tmp_path) as w:
        proxy.application_id = w.fake.application_id
        users = [w.fake.add_user(f"player{n}") for n in range(11)]
        async with activity_bot(w, **settings) as site:
            instance = w.fake.activity.open_instance(w.channel, users)
            for user in users:
                code = w.fake.activity.issue_code(user)
                body = {"code": code, "instance_id": instance}
                status, answer = await post_token(site, body, proxy.headers(user))
                assert status == 200, answer
            junk = {"code": "junk", "instance_id": instance}
            statuses = [(await post_token(site, junk))[0] for _ in range(12)]
            assert statuses == [401] * 10 + [429] * 2
            late = w.fake.activity.issue_code(users[0])
            body = {"code": late, "instance_id": instance}
            assert (await post_token(site, body, proxy.headers(users[0])))[0] == 200


async def silent(site: Site, headers: dict[str, str] | None = None) -> Browser | None:
    """A socket that never says hello, or None when the server refused it (429)."""
    try:
        return await connect(site, None, hello=False, headers=headers)
    except aiohttp.WSServerHandshakeError as refused:
        assert refused.status == 429
        return None


async def test_silent_sockets_reopened_lock_out_no_one_else(tmp_path: Path) -> None:
    """20 silent sockets, re-opened as they are refused, by a client without a signature and by
    one signed as its own Discord user, all through the proxy's one address: each holds only
    its own few places; meanwhile the players sign in, connect and play."""
    proxy, settings = proxied(activity_unsigned_sockets_per_client=4)
    async with world(tmp_path) as w:
        proxy.application_id = w.fake.application_id
        mallory = w.fake.add_user("mallory")
        async with activity_bot(w, **settings) as site:
            table = await open_table(w, site.bot, [w.alice, w.bob], w.channel)
            instance = w.fake.activity.open_instance(w.channel, [w.alice, w.bob, mallory])
            held: list[Browser] = []
            for headers in (None, proxy.headers(mallory)):
                opened = [await silent(site, headers) for _ in range(20)]
                assert sum(b is not None for b in opened) == 4  # its own bound only
                held += [b for b in opened if b is not None]
                for b in held[-2:]:  # re-opened: a closed one frees its place
                    await b.close()
                again = [await silent(site, headers) for _ in range(3)]
                assert sum(b is not None for b in again) == 2
                held += [b for b in again if b is not None]
            await plays(w, site, table, instance, proxy.headers)
            for b in held:
                await b.close()


async def test_a_forwarded_address_keys_the_limits_when_trusted(tmp_path: Path) -> None:
    """Without the proxy's signature (no key set), a reverse proxy that passes the client's
    address (``ACTIVITY_FORWARDED_HOPS``) keeps one address's silent sockets from another's."""
    async with (
        world(tmp_path) as w,
        activity_bot(w, activity_forwarded_hops=1, activity_unsigned_sockets_per_client=3) as site,
    ):
        bad = {"X-Forwarded-For": "203.0.113.9"}
        opened = [await silent(site, bad) for _ in range(6)]
        assert sum(b is not None for b in opened) == 3
        instance = w.fake.activity.open_instance(w.channel, [w.alice])
        good = {"X-Forwarded-For": "198.51.100.7"}
        alice = await open_browser(w, site, w.alice, instance, good)
        assert alice.frames[0]["type"] == "welcome"
        await alice.close()
        for b in opened:
            if b is not None:
                await b.close()
