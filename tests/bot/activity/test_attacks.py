"""Issue #46's attacks, each through the running server (127.0.0.1 only, bounded loops): a
socket that floods pings and never reads, before hello and after; over-rate frames; headers
sent byte by byte; versions from the future; many tables. Each is held, and meanwhile another
user still signs in and plays."""

from __future__ import annotations

import asyncio
import json
import socket
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from bot.activity import server as server_module
from bot.activity.server import ActivityServer
from bot.tables.table import Table
from tests.bot.activity.helpers import Browser, Site, activity_bot, applied, open_browser, sign_in
from tests.bot.activity.raw_socket import PING, close_quietly, flood, open_socket, upgrade, ws_frame
from tests.bot.activity.test_websocket import mover
from tests.bot.helpers import World, open_table, world


def server_of(site: Site) -> ActivityServer:
    server = site.bot.activity_server
    assert server is not None
    return server


async def plays(
    w: World,
    site: Site,
    table: Table,
    instance: str,
    headers: Callable[[int], dict[str, str] | None] = lambda user: None,
) -> None:
    """Alice and bob sign in, connect, and the one whose turn it is makes a move (``headers``:
    what a proxy in front adds for each)."""
    browsers = {u: await open_browser(w, site, u, instance, headers(u)) for u in (w.alice, w.bob)}
    user, _, action = mover(site, w, browsers)
    frame = {"v": 1, "type": "act", "code": action.code, "version": table.version}
    await applied(w.fake, table, browsers[user], frame)
    for b in browsers.values():
        await b.close()


async def closed(w: World, browser: Browser, code: int) -> None:
    await w.fake.wait_for(lambda: browser.closed, what=f"the socket to close with {code}")
    assert browser.close_code == code, browser.close_code


def reasons(browser: Browser) -> list[str]:
    return [f["reason"] for f in browser.errors()]


# -- pings that are never read ---------------------------------------------------------------


@pytest.mark.parametrize("rate", [0.0, 10.0])
@pytest.mark.slow
async def test_a_ping_flood_before_hello_that_never_reads_is_cut(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, rate: float
) -> None:
    """Pings before hello, never reading (the pongs' writes block). With no frame limit (0)
    the hello's deadline (1 s here) still cuts it, its write included; with one, the burst
    does at once. Its place among the sockets without hello is freed; meanwhile the others
    sign in and play."""
    monkeypatch.setattr(server_module, "HELLO_SECONDS", 1.0)
    async with world(tmp_path) as w, activity_bot(w, activity_frames_per_second=rate) as site:
        server = server_of(site)
        table = await open_table(w, site.bot, [w.alice, w.bob], w.channel)
        instance = w.fake.activity.open_instance(w.channel, [w.alice, w.bob])
        socks = [await upgrade(server.port) for _ in range(3)]
        started = time.monotonic()
        floods = [asyncio.create_task(flood(s, ws_frame(PING, b"p" * 125), 8.0)) for s in socks]
        await plays(w, site, table, instance)
        assert await asyncio.gather(*floods) == ["cut"] * 3
        assert time.monotonic() - started < 5.0  # 1 s to say hello, 1 s to close, then cut
        await w.fake.wait_for(lambda: len(server.unsigned) == 0, what="their places freed")
        for s in socks:
            close_quietly(s)


async def test_a_ping_flood_after_hello_counts_as_frames_and_closes(tmp_path: Path) -> None:
    """A signed-in socket's pings are frames: past the burst (twice the rate) it is closed,
    pongs and all (the issue: 137k pongs a second to one client, never closed)."""
    async with world(tmp_path) as w, activity_bot(w, activity_frames_per_second=10.0) as site:
        server = server_of(site)
        server.clock = lambda: 1000.0  # no refill while the test sends, however slowly
        table = await open_table(w, site.bot, [w.alice, w.bob], w.channel)
        instance = w.fake.activity.open_instance(w.channel, [w.alice, w.bob, w.carol])
        carol = await open_browser(w, site, w.carol, instance)
        for _ in range(60):  # three bursts' worth, as fast as it can
            if carol.ws.closed or carol.closed:
                break
            await carol.ws.ping(b"x")
        await closed(w, carol, 1008)
        assert reasons(carol) == ["err.activity_too_fast"]
        server.clock = time.monotonic
        await plays(w, site, table, instance)


@pytest.mark.slow
async def test_a_signed_in_ping_flood_that_never_reads_is_cut(tmp_path: Path) -> None:
    """Signed in, then pings without reading anything: cut within seconds (it stayed 60 s)."""
    async with world(tmp_path) as w, activity_bot(w, activity_frames_per_second=10.0) as site:
        server = server_of(site)
        table = await open_table(w, site.bot, [w.alice, w.bob], w.channel)
        instance = w.fake.activity.open_instance(w.channel, [w.alice, w.bob, w.carol])
        token = await sign_in(w, site, w.carol, instance)
        sock = await upgrade(server.port)
        hello = json.dumps({"v": 1, "type": "hello", "token": token}).encode()
        loop = asyncio.get_running_loop()
        await loop.sock_sendall(sock, ws_frame(0x1, hello))
        await w.fake.wait_for(lambda: server.hub.connections(), what="carol's socket")
        started = time.monotonic()

        async def timed_flood() -> tuple[str, float]:
            result = await flood(sock, ws_frame(PING, b"p" * 125), 8.0)
            return result, time.monotonic() - started

        flooding = asyncio.create_task(timed_flood())
        await plays(w, site, table, instance)  # meanwhile
        result, took = await flooding
        assert result == "cut" and took < 4.0, (result, took)
        await w.fake.wait_for(
            lambda: w.carol not in {c.user_id for c in server.hub.connections()},
            what="carol's socket gone",
        )
        close_quietly(sock)


# -- frames over the rate -----------------------------------------------------------------------


async def test_one_frame_over_the_rate_past_the_burst_closes(tmp_path: Path) -> None:
    """The burst (twice the rate, the hello included), a pause for one frame's worth, then two
    frames at once: the first fits, the second is over the rate and closes (two over-rate
    frames in a row were needed, so a client alternating them sent twice the rate)."""
    async with world(tmp_path) as w, activity_bot(w, activity_frames_per_second=10.0) as site:
        server = server_of(site)
        now = [1000.0]  # the frame budget's clock stands still unless the test moves it
        server.clock = lambda: now[0]
        table = await open_table(w, site.bot, [w.alice, w.bob], w.channel)
        instance = w.fake.activity.open_instance(w.channel, [w.alice, w.bob, w.carol])
        carol = await open_browser(w, site, w.carol, instance)
        for _ in range(19):  # the burst of 20, less the hello
            await carol.ws.send_str("x")
        await w.fake.wait_for(lambda: len(carol.errors()) == 19, what="19 refused frames")
        now[0] += 0.1  # one frame's worth refilled
        await carol.ws.send_str("x")
        await carol.ws.send_str("x")
        await closed(w, carol, 1008)
        assert reasons(carol) == ["err.activity_frame"] * 20 + ["err.activity_too_fast"]
        server.clock = time.monotonic
        await plays(w, site, table, instance)


# -- request headers sent byte by byte ---------------------------------------------------------


@pytest.mark.slow
async def test_slow_headers_are_cut_and_others_still_play(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """50 connections that send a request's headers a byte at a time are cut after the
    header deadline (1 s here; they were held 90 s)."""
    monkeypatch.setattr(server_module, "HEADER_SECONDS", 1.0)
    async with world(tmp_path) as w, activity_bot(w) as site:
        server = server_of(site)
        table = await open_table(w, site.bot, [w.alice, w.bob], w.channel)
        instance = w.fake.activity.open_instance(w.channel, [w.alice, w.bob])
        loop = asyncio.get_running_loop()
        socks = [await open_socket(server.port) for _ in range(50)]

        async def dribble(sock: socket.socket) -> str:
            request = b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: " + b"a" * 100
            try:
                async with asyncio.timeout(6.0):
                    for byte in request:
                        await loop.sock_sendall(sock, bytes([byte]))
                        await asyncio.sleep(0.1)
            except TimeoutError:
                return "held"
            except OSError:
                return "cut"
            return "sent"

        started = time.monotonic()
        tasks = [asyncio.create_task(dribble(s)) for s in socks]
        await plays(w, site, table, instance)
        assert await asyncio.gather(*tasks) == ["cut"] * 50
        assert time.monotonic() - started < 4.0
        for s in socks:
            close_quietly(s)


# -- versions from the future, and tables without end -----------------------------------------


async def test_an_action_with_a_version_ahead_is_refused_as_malformed(tmp_path: Path) -> None:
    async with world(tmp_path) as w, activity_bot(w) as site:
        table = await open_table(w, site.bot, [w.alice, w.bob], w.channel)
        instance = w.fake.activity.open_instance(w.channel, [w.alice, w.bob])
        browsers = {u: await open_browser(w, site, u, instance) for u in (w.alice, w.bob)}
        user, _, action = mover(site, w, browsers)
        browser, before = browsers[user], (table.version, table.state)
        for ahead in (1, 10**6):
            count = len(browser.errors())
            await browser.act(action.code, table.version + ahead, ref=f"v+{ahead}")
            await w.fake.wait_for(lambda c=count: len(browser.errors()) > c, what="a refusal")  # type: ignore[misc]
            error = browser.errors()[-1]
            assert (error["reason"], error["ref"]) == ("err.activity_frame", f"v+{ahead}")
            assert (table.version, table.state) == before
        count = len(browser.errors())
        ahead_op = {"v": 1, "type": "lobby", "op": "auto_pass_on", "version": table.version + 5}
        await browser.send(ahead_op)
        await w.fake.wait_for(lambda: len(browser.errors()) > count, what="the op's refusal")
        assert browser.errors()[-1]["reason"] == "err.activity_frame"
        await applied(w.fake, table, browser, {"v": 1, "type": "act", "code": action.code,
                                              "version": table.version})  # fmt: skip
        for b in browsers.values():
            await b.close()


async def test_one_user_hosts_a_bounded_number_of_tables(tmp_path: Path) -> None:
    """Past ``TABLES_PER_USER`` unfinished tables, opening one more is refused with
    a clear text (the issue: 8 tables of 5 Hard AIs in 51 s); another user still opens one."""
    async with (
        world(tmp_path) as w,
        activity_bot(w, tables_per_user=2, activity_open_interval_seconds=0) as site,
    ):
        channels = [w.fake.add_channel(w.guild, f"room-{n}") for n in range(4)]
        opened: list[str] = []
        for n, channel in enumerate(channels[:3]):
            instance = w.fake.activity.open_instance(channel, [w.alice])
            alice = await open_browser(w, site, w.alice, instance)
            await alice.send({"v": 1, "type": "open", "preset": "classic", "seats": 2,
                              "ai_seats": 1, "ref": f"o{n}"})  # fmt: skip
            await w.fake.wait_for(
                lambda a=alice: a.last_table() is not None or a.errors(),  # type: ignore[misc]
                what="the open's answer",
            )
            opened.append("table" if alice.last_table() else alice.errors()[-1]["reason"])
            if alice.errors():
                assert alice.errors()[-1]["ref"] == f"o{n}"
                assert "2" in alice.errors()[-1]["text"]
            await alice.close()
        assert opened == ["table", "table", "err.table_cap"]
        hosted = [t for t in site.bot.service.registry if t.host_id == w.alice]
        assert len(hosted) == 2
        instance = w.fake.activity.open_instance(channels[3], [w.bob])
        bob = await open_browser(w, site, w.bob, instance)
        await bob.send({"v": 1, "type": "open", "preset": "classic", "seats": 2})
        await w.fake.wait_for(lambda: bob.last_table() is not None, what="bob's table")
        await bob.close()
