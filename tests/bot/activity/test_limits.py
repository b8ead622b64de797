"""The Activity server's limits (issue #31, docs/activity.md "Limits"), each through the
running server and the fake Discord: one hostile client's memory, sockets, frames, log lines
and requests to Discord stay bounded, and what it is told when it hits a limit."""

from __future__ import annotations

import asyncio
import gzip
import itertools
import json
import logging
import socket
import time
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from bot.activity import server as server_module
from bot.activity.hub import Connection
from bot.activity.server import ActivityServer
from tests.bot.activity.helpers import Browser, Site, activity_bot, connect, open_browser, sign_in
from tests.bot.activity.test_client_files import built_client
from tests.bot.helpers import World, world

MB = 1024 * 1024


def server_of(site: Site) -> ActivityServer:
    server = site.bot.activity_server
    assert server is not None
    return server


def instance_checks(w: World) -> int:
    return sum(1 for r in w.fake.requests if "/activity-instances/" in r.path)


def exchanges(w: World) -> int:
    return sum(1 for r in w.fake.requests if r.path == "/oauth2/token")


async def closed_with(w: World, browser: Browser, code: int) -> None:
    await w.fake.wait_for(lambda: browser.closed, what=f"the socket to close with {code}")
    assert browser.close_code == code, browser.close_code


def reasons(browser: Browser) -> list[str]:
    return [f["reason"] for f in browser.errors()]


# -- 1. a client that does not read, or sends too much -------------------------------------


@pytest.mark.slow
async def test_a_client_that_never_reads_is_closed_with_little_queued(tmp_path: Path) -> None:
    """A raw socket floods one-byte frames (each answered with an error frame) and never
    reads: what waits for it stays far under 5 MB and the socket is closed (today's main
    queued 337 MB in 20 s)."""
    async with world(tmp_path) as w, activity_bot(w, activity_frames_per_second=0.0) as site:
        server = server_of(site)
        instance = w.fake.activity.open_instance(w.channel, [w.alice])
        token = await sign_in(w, site, w.alice, instance)
        ws = await site.http.ws_connect(site.url + "/ws")  # never read from
        sock = ws.get_extra_info("socket")
        assert sock is not None
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        await ws.send_str(json.dumps({"v": 1, "type": "hello", "token": token}))
        await w.fake.wait_for(lambda: server.hub.connections(), what="the socket")
        (conn,) = server.hub.connections()
        peak = 0

        def queued(c: Connection) -> int:
            return sum(len(f) for f in c._queued)

        async def watch() -> None:
            nonlocal peak
            while True:
                peak = max(peak, queued(conn))
                await asyncio.sleep(0.005)

        watcher = asyncio.create_task(watch())
        sent = 0
        try:
            for sent in range(1, 80_001):  # ~130 bytes of error frame each: 10 MB unbounded
                await ws.send_str("x")
                if sent % 500 == 0:
                    await asyncio.sleep(0)
                    if conn.ws.closed or conn not in server.hub.connections():
                        break
        except (ConnectionError, RuntimeError):
            pass  # the server cut it
        await w.fake.wait_for(
            lambda: conn.ws.closed and conn not in server.hub.connections(),
            what="the server to close the socket that does not read",
        )
        watcher.cancel()
        assert peak < 5 * MB, peak
        assert conn.peak_queued_bytes <= site.bot.settings.activity_send_queue_kib * 1024
        assert sent < 80_000  # closed long before the flood ended


async def test_a_flood_of_frames_gets_one_refusal_then_the_socket_closes(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    async with (
        world(tmp_path) as w,
        activity_bot(w, activity_frames_per_second=10.0, activity_log_lines_per_minute=5) as site,
    ):
        instance = w.fake.activity.open_instance(w.channel, [w.alice])
        alice = await open_browser(w, site, w.alice, instance)
        with caplog.at_level(logging.INFO, logger="bot.activity"):
            for _ in range(200):
                if alice.closed or alice.ws.closed:
                    break
                await alice.ws.send_str("x")
            await closed_with(w, alice, 1008)
        got = reasons(alice)
        assert got.count("err.activity_too_fast") == 1, got
        assert got[-1] == "err.activity_too_fast"
        # the burst allowance (twice the rate) of refused frames, then the one refusal
        assert 15 <= got.count("err.activity_frame") <= 25, got
        lines = [r for r in caplog.records if r.name.startswith("bot.activity")]
        assert len(lines) <= 5 + 2, [r.getMessage() for r in lines]


# -- 2. /api/token --------------------------------------------------------------------------


async def post_junk(site: Site, instance: str, address: str | None = None) -> int:
    headers = {} if address is None else {"X-Forwarded-For": f"{address}, 10.0.0.1"}
    body = {"code": "junk-code", "instance_id": instance}
    async with site.http.post(site.url + "/api/token", json=body, headers=headers) as response:
        if response.status == 429:
            assert int(response.headers["Retry-After"]) >= 1
            assert (await response.json())["error"] == "err.activity_busy"
        return response.status


async def test_sign_ins_past_the_limit_never_reach_discord(tmp_path: Path) -> None:
    async with (
        world(tmp_path) as w,
        activity_bot(w, activity_sign_ins_per_ip_per_minute=3.0) as site,
    ):
        instance = w.fake.activity.open_instance(w.channel, [w.alice])
        statuses = [await post_junk(site, instance) for _ in range(20)]
        assert statuses == [401] * 3 + [429] * 17
        assert exchanges(w) == 3  # one request each, never retried
        # a real user from that address waits too
        code = w.fake.activity.issue_code(w.alice)
        body = {"code": code, "instance_id": instance}
        async with site.http.post(site.url + "/api/token", json=body) as response:
            assert response.status == 429
        assert exchanges(w) == 3


async def test_sign_ins_are_limited_per_forwarded_address_and_in_all(tmp_path: Path) -> None:
    async with (
        world(tmp_path) as w,
        activity_bot(
            w,
            activity_sign_ins_per_ip_per_minute=2.0,
            activity_sign_ins_per_second=2.0,  # 4 in a burst
            activity_forwarded_hops=2,  # the client's proxy, then ours
        ) as site,
    ):
        instance = w.fake.activity.open_instance(w.channel, [w.alice])
        assert [await post_junk(site, instance, "203.0.113.1") for _ in range(3)] == [401, 401, 429]
        # another address has its own allowance, until the global one runs out
        got = [await post_junk(site, instance, f"203.0.113.{n}") for n in (2, 3, 4)]
        assert got == [401, 401, 429]
        assert exchanges(w) == 4


@pytest.mark.slow
async def test_every_sign_in_request_waits_for_the_bots_request_budget(tmp_path: Path) -> None:
    """The code exchange and ``/users/@me`` count in the process's request budget too."""
    async with world(tmp_path) as w, activity_bot(w) as site:
        instance = w.fake.activity.open_instance(w.channel, [w.alice])
        budget = site.bot.notifier.limits.budget
        budget.rate = 40.0
        budget.slow_down(0.6)
        started = time.monotonic()
        assert await post_junk(site, instance) == 401  # refused at the exchange
        assert time.monotonic() - started >= 0.55


# -- 3. resume tokens -----------------------------------------------------------------------


def advance(server: ActivityServer, seconds: float) -> None:
    clock = server.signer.clock
    server.signer.clock = lambda: clock() + seconds


async def resumed(w: World, site: Site, token: str) -> Browser:
    browser = await connect(site, token)
    await w.fake.wait_for(lambda: browser.frames or browser.closed, what="the resume's answer")
    return browser


async def test_a_resume_after_the_instance_ended_is_refused(tmp_path: Path) -> None:
    async with world(tmp_path) as w, activity_bot(w) as site:
        server = server_of(site)
        instance = w.fake.activity.open_instance(w.channel, [w.alice])
        alice = await open_browser(w, site, w.alice, instance)
        resume = alice.frames[0]["resume"]
        await alice.close()
        checks = instance_checks(w)
        w.fake.activity.end_instance(instance)
        advance(server, site.bot.settings.activity_instance_check_seconds + 1)
        again = await resumed(w, site, resume)
        await closed_with(w, again, 4003)
        assert reasons(again) == ["err.activity_instance"]
        assert not again.tables()
        assert instance_checks(w) == checks + 1


async def test_resumes_recheck_at_a_bounded_rate_and_chains_end(tmp_path: Path) -> None:
    async with (
        world(tmp_path) as w,
        activity_bot(w, activity_session_max_hours=0.01, activity_instance_check_seconds=5) as site,
    ):
        server = server_of(site)  # a chain lasts 36 s here, Discord's answer is trusted 5 s
        instance = w.fake.activity.open_instance(w.channel, [w.alice, w.bob])
        alice = await open_browser(w, site, w.alice, instance)
        bob = await open_browser(w, site, w.bob, instance)
        checks = instance_checks(w)
        # within the check interval: no request to Discord
        resume = alice.frames[0]["resume"]
        again = await resumed(w, site, resume)
        assert again.frames[0]["type"] == "welcome"
        assert instance_checks(w) == checks
        # past it, one request for both users' resumes
        advance(server, 6)
        alice2 = await resumed(w, site, again.frames[0]["resume"])
        bob2 = await resumed(w, site, bob.frames[0]["resume"])
        assert [alice2.frames[0]["type"], bob2.frames[0]["type"]] == ["welcome", "welcome"]
        assert instance_checks(w) == checks + 1
        # the chain's age counts from the sign-in, however often it was renewed
        advance(server, 31)  # 37 s after the sign-in
        late = await resumed(w, site, alice2.frames[0]["resume"])
        await closed_with(w, late, 4001)
        assert reasons(late) == ["err.activity_session"]


async def test_sockets_of_users_who_left_are_closed(tmp_path: Path) -> None:
    async with world(tmp_path) as w, activity_bot(w) as site:
        server = server_of(site)
        instance = w.fake.activity.open_instance(w.channel, [w.alice, w.bob])
        alice = await open_browser(w, site, w.alice, instance)
        bob = await open_browser(w, site, w.bob, instance)
        w.fake.activity.leave_instance(instance, w.bob)
        advance(server, site.bot.settings.activity_instance_check_seconds + 1)
        checks = instance_checks(w)
        await server.sweep()
        await closed_with(w, bob, 4003)
        assert reasons(bob) == ["err.activity_instance"]
        assert not alice.closed
        assert instance_checks(w) == checks + 1  # one request for the instance


@pytest.mark.slow
async def test_the_sweep_is_spread_over_its_interval_within_the_request_budget(
    tmp_path: Path,
) -> None:
    """Security 3's cost: one check per instance with sockets and interval (3.3 requests a
    second at 200 instances, 60 s), each waiting for a slot of the bot's request budget, one
    at a time and spread evenly over the interval: never a burst."""
    async with world(tmp_path) as w, activity_bot(w) as site:
        server = server_of(site)
        # every call the Activity server makes to Discord waits for the bot's budget
        assert server.discord._pace == site.bot.notifier.limits.budget.acquire
        users = (w.alice, w.bob, w.carol)
        for user in users:
            instance = w.fake.activity.open_instance(w.channel, [user])
            await open_browser(w, site, user, instance)
        advance(server, site.bot.settings.activity_instance_check_seconds + 1)
        before = len(w.fake.requests)
        await server.instances.sweep(spread=0.9)
        checks = [r.at for r in w.fake.requests[before:] if "/activity-instances/" in r.path]
        assert len(checks) == 3  # one per instance
        gaps = [b - a for a, b in itertools.pairwise(checks)]
        assert min(gaps) >= 0.25, gaps  # 0.9 s / 3 instances apart
        # checked just now: a second sweep within the interval asks Discord nothing
        await server.instances.sweep()
        assert sum(1 for r in w.fake.requests[before:] if "/activity-instances/" in r.path) == 3


# -- 4. sockets per user and per instance ---------------------------------------------------


@pytest.mark.slow  # over a second: out of the quick subset
async def test_the_301st_socket_replaces_the_oldest(tmp_path: Path) -> None:
    """One sign-in, then resume after resume (each welcome's token opens the next socket):
    the user never holds more than ``ACTIVITY_SOCKETS_PER_USER``; the oldest is closed."""
    async with world(tmp_path) as w, activity_bot(w) as site:
        server = server_of(site)
        cap = site.bot.settings.activity_sockets_per_user
        instance = w.fake.activity.open_instance(w.channel, [w.alice])
        browsers = [await open_browser(w, site, w.alice, instance)]
        for _ in range(300):
            browsers.append(await resumed(w, site, browsers[-1].frames[0]["resume"]))
            assert len(server.hub.connections()) <= cap
        await w.fake.wait_for(
            lambda: sum(not b.closed for b in browsers) == cap, what="the old sockets to close"
        )
        assert all(not b.closed for b in browsers[-cap:])
        for old in browsers[:-cap]:
            assert old.close_code == 4004 and reasons(old) == ["err.activity_replaced"]
        for b in browsers[-cap:]:
            await b.close()


async def test_an_instance_holds_a_bounded_number_of_sockets(tmp_path: Path) -> None:
    async with (
        world(tmp_path) as w,
        activity_bot(w, activity_sockets_per_instance=3, activity_sockets_per_user=2) as site,
    ):
        instance = w.fake.activity.open_instance(w.channel, [w.alice, w.bob, w.carol])
        alice = [await open_browser(w, site, w.alice, instance) for _ in range(2)]
        bob = await open_browser(w, site, w.bob, instance)
        carol = await connect(site, await sign_in(w, site, w.carol, instance))
        await closed_with(w, carol, 4005)
        assert reasons(carol) == ["err.activity_full"] and not carol.tables()
        # alice's third replaces her first, which frees its place
        third = await open_browser(w, site, w.alice, instance)
        await closed_with(w, alice[0], 4004)
        assert not (alice[1].closed or bob.closed or third.closed)


async def test_sockets_without_hello_are_bounded_per_address(tmp_path: Path) -> None:
    async with world(tmp_path) as w, activity_bot(w, activity_unsigned_sockets_per_ip=3) as site:
        instance = w.fake.activity.open_instance(w.channel, [w.alice])
        silent = [await connect(site, None, hello=False) for _ in range(3)]
        with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
            await connect(site, None, hello=False)
        assert refused.value.status == 429
        await silent[0].send({"v": 1, "type": "hello", "token": "made.up"})
        await closed_with(w, silent[0], 4001)  # said (a bad) hello: its place is free again
        alice = await open_browser(w, site, w.alice, instance)
        assert alice.frames[0]["type"] == "welcome"
        for b in silent[1:]:
            await b.close()


# -- 5. "open" frames -----------------------------------------------------------------------


def open_frame() -> dict[str, Any]:
    return {"v": 1, "type": "open", "preset": "classic", "seats": 2}


async def test_open_frames_are_refused_before_discord_is_asked(tmp_path: Path) -> None:
    async with world(tmp_path) as w, activity_bot(w) as site:
        instance = w.fake.activity.open_instance(w.channel, [w.alice, w.bob])
        await w.fake.slash(w.alice, w.channel, "durak", "new")
        bob = await open_browser(w, site, w.bob, instance)
        checks = instance_checks(w)
        for _ in range(60):
            await bob.send(open_frame())
        await w.fake.wait_for(lambda: len(bob.errors()) == 60, what="60 refusals")
        assert set(reasons(bob)) == {"err.table_exists"}
        assert instance_checks(w) == checks

        # without a table, each open asks Discord (here: bob left), three in a row at most
        other = w.fake.add_channel(w.guild, "other")
        there = w.fake.activity.open_instance(other, [w.bob])
        bob2 = await open_browser(w, site, w.bob, there)
        w.fake.activity.leave_instance(there, w.bob)
        checks = instance_checks(w)
        for _ in range(10):
            await bob2.send(open_frame())
        await w.fake.wait_for(lambda: len(bob2.errors()) == 10, what="10 refusals")
        assert reasons(bob2) == ["err.activity_instance"] * 3 + ["err.activity_too_fast"] * 7
        assert instance_checks(w) == checks + 3


# -- 6. the frame parser --------------------------------------------------------------------


async def test_deeply_nested_frames_and_a_boolean_version_are_refused_cleanly(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    async with world(tmp_path) as w, activity_bot(w) as site:
        instance = w.fake.activity.open_instance(w.channel, [w.alice])
        with caplog.at_level(logging.INFO):
            nested = await connect(site, None, hello=False)
            await nested.ws.send_str("[" * 1020 + "]" * 1020)  # before sign-in
            await closed_with(w, nested, 4001)
            assert reasons(nested) == ["err.activity_session"]

            token = await sign_in(w, site, w.alice, instance)
            boolean = await connect(site, None, hello=False)
            await boolean.send({"v": True, "type": "hello", "token": token})
            await closed_with(w, boolean, 4001)

            alice = await open_browser(w, site, w.alice, instance)
            await alice.ws.send_str("[" * 1020 + "]" * 1020)
            await alice.send({"v": True, "type": "act", "code": 0, "version": 0})
            await w.fake.wait_for(lambda: len(alice.errors()) == 2, what="two refusals")
            assert reasons(alice) == ["err.activity_frame"] * 2 and not alice.closed
        assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
        assert not [r for r in caplog.records if r.exc_info]


# -- 7. headers, origins, assets ------------------------------------------------------------


async def test_headers_origins_and_compressed_immutable_assets(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    dist = built_client(tmp_path)
    script = "console.log('table');" * 200
    (dist / "assets" / "index-AbCd12_x.js").write_text(script, encoding="utf-8")
    monkeypatch.setattr(server_module, "CLIENT_DIR", dist)
    async with world(tmp_path) as w, activity_bot(w) as site:
        async with site.http.get(site.url + "/") as page:
            assert page.status == 200
            directives = page.headers["Content-Security-Policy"].split("; ")
            csp = {d.partition(" ")[0]: d.partition(" ")[2] for d in directives}
            assert csp["default-src"] == csp["script-src"] == csp["style-src"] == "'self'"
            host = site.url.removeprefix("http://")
            assert csp["connect-src"] == f"'self' wss://{host} ws://{host}"
            ancestors = csp["frame-ancestors"].split()
            assert "https://discord.com" in ancestors and "'self'" in ancestors
            own = f"https://{w.fake.application_id}.discordsays.com"
            assert [a for a in ancestors if "discordsays" in a] == [own]  # no other app's
            assert csp["object-src"] == "'none'"
            assert page.headers["Referrer-Policy"] == "no-referrer"
            assert page.headers["X-Content-Type-Options"] == "nosniff"
            assert page.headers["Server"] == "durak"
        plain = aiohttp.ClientSession(auto_decompress=False)
        async with (
            plain,
            plain.get(
                site.url + "/assets/index-AbCd12_x.js", headers={"Accept-Encoding": "gzip"}
            ) as asset,
        ):
            assert asset.status == 200
            assert asset.headers["Content-Encoding"] == "gzip"
            assert "immutable" in asset.headers["Cache-Control"]
            packed = await asset.read()
            assert gzip.decompress(packed).decode() == script and len(packed) < len(script) / 10

        instance = w.fake.activity.open_instance(w.channel, [w.alice])
        evil = {"Origin": "https://evil.example"}
        with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
            await site.http.ws_connect(site.url + "/ws", headers=evil)
        assert refused.value.status == 403
        discord = {"Origin": f"https://{w.fake.application_id}.discordsays.com"}
        ws = await site.http.ws_connect(site.url + "/ws", headers=discord)
        browser = Browser(ws)
        browser.start()
        await browser.send(
            {"v": 1, "type": "hello", "token": await sign_in(w, site, w.alice, instance)}
        )
        await w.fake.wait_for(lambda: browser.tables(), what="the table over an allowed origin")
        assert ws._response.headers["Server"] == "durak"
        await browser.close()
