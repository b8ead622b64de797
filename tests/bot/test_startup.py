"""Starting the bot while Discord cannot be reached (no network, Discord down): one line per
attempt, no traceback, and the bot connects once Discord answers; the same once connected,
when Discord goes away and comes back (docs/bot.md, "When Discord cannot be reached")."""

from __future__ import annotations

import asyncio
import os
import re
import signal
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from tests.bot.quick_settings import bot_env
from tests.fake_discord import FakeDiscord

ROOT = Path(__file__).resolve().parents[2]
RUNNER = ROOT / "tests" / "bot" / "robust_runner.py"
RETRY_LINE = re.compile(r"cannot reach Discord: .+, retrying in (\d+) s$")

pytestmark = pytest.mark.slow


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_bot(fake: FakeDiscord, tmp_path: Path) -> tuple[subprocess.Popen[bytes], Path]:
    """``python -m bot`` (through the test runner) pointed at ``fake``, logging to a file."""
    env = bot_env(
        fake,
        PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]),
        database_path=tmp_path / "durak.sqlite3",
        log_level="INFO",
    )
    log_path = tmp_path / "bot.log"
    with log_path.open("wb") as log:
        proc = subprocess.Popen(
            [sys.executable, str(RUNNER)], env=env, cwd=tmp_path, stdout=log, stderr=log
        )
    return proc, log_path


async def test_discord_down_then_up_one_line_per_retry_then_connects(tmp_path: Path) -> None:
    fake = FakeDiscord()
    fake.port = free_port()  # nothing listens there yet: Discord is "down"
    fake.add_guild("Club")
    proc, log_path = start_bot(fake, tmp_path)
    try:

        def retries() -> list[str]:
            lines = log_path.read_text().splitlines()
            return [line for line in lines if "cannot reach Discord" in line]

        for _ in range(300):  # the first two attempts: at once, then after 1 s
            if len(retries()) >= 2 or proc.poll() is not None:
                break
            await asyncio.sleep(0.1)
        assert proc.poll() is None, log_path.read_text()
        await fake.start(port=fake.port)  # Discord is back
        try:
            await fake.wait_for(
                lambda: fake.gateway.identify_count > 0 and fake.gateway.connected,
                30,
                what="the bot to connect once Discord is up",
            )
            await asyncio.sleep(0.5)
            await fake.stop()  # Discord goes away while the bot is connected ...
            for _ in range(300):
                if "lost the connection to Discord" in log_path.read_text():
                    break
                await asyncio.sleep(0.1)
            links = fake.gateway.identify_count + fake.gateway.resume_count
            await fake.start(port=fake.port)  # ... and comes back
            await fake.wait_for(
                lambda: (
                    fake.gateway.identify_count + fake.gateway.resume_count > links
                    and fake.gateway.connected
                ),
                60,
                what="the bot to reconnect once Discord is back",
            )
        finally:
            proc.send_signal(signal.SIGINT)
            await asyncio.to_thread(proc.wait, 20)
            await fake.stop()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()

    text = log_path.read_text()
    assert "Traceback" not in text, text
    lines = retries()
    assert len(lines) >= 2, text
    waits = []
    for line in lines:
        found = RETRY_LINE.search(line)
        assert found, line
        waits.append(int(found[1]))
    assert waits[:2] == [1, 2], lines  # the wait doubles
    assert "Connect call failed" in lines[0] or "Cannot connect" in lines[0], lines[0]
    lost = [line for line in text.splitlines() if "lost the connection to Discord" in line]
    assert lost and all(re.search(r"reconnecting in \d+ s$", line) for line in lost), text
    assert "Attempting a reconnect" not in text
    # the voice libraries are never used: no warning about them at start
    assert "PyNaCl" not in text and "davey" not in text, text
    assert fake.token not in text  # the token is never logged
    assert proc.returncode == 0, text


async def test_sigterm_closes_the_bot_cleanly(tmp_path: Path) -> None:
    """systemd stops a service with SIGTERM: the bot closes its connection and exits 0 (it
    handles SIGINT the same way, as above)."""
    fake = FakeDiscord()
    fake.add_guild("Club")
    await fake.start()
    proc, log_path = start_bot(fake, tmp_path)
    try:
        await fake.wait_for(lambda: fake.gateway.connected, 30, what="the bot to connect")
        proc.send_signal(signal.SIGTERM)
        code = await asyncio.to_thread(proc.wait, 20)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        await fake.stop()
    text = log_path.read_text()
    assert code == 0, text
    assert "stopping: closing the connection to Discord" in text and "Traceback" not in text
