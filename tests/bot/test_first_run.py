"""The README's first-run block, as written, in a fresh copy of the repository and a fresh
virtual environment, against the fake Discord: the install, ``--sync --guild``, the start, and
a slash command answered. The block is read from the README, so the README cannot drift.

Only two things differ from an admin's machine, both outside the block: the fake Discord's
address reaches discord.py through a ``sitecustomize`` on ``PYTHONPATH``
(tests/bot/fake_redirect.py), and the token comes from the environment (which wins over
``.env``). The install is the pure-Python one without the Activity's client
(``DURAK_PURE_PYTHON=1``, ``DURAK_SKIP_ACTIVITY_BUILD=1``), which skips only the slow compiling:
the other steps are the same."""

from __future__ import annotations

import asyncio
import os
import re
import shutil
import signal
import subprocess
from pathlib import Path

import pytest

from bot.ui.help_text import help_text
from tests.fake_discord import MESSAGE
from tests.fake_discord.pytest_plugin import started_fake

ROOT = Path(__file__).resolve().parents[2]
MARKER = "<!-- first-run:"
GUILD_PLACEHOLDER = "<your server id>"

pytestmark = pytest.mark.slow


def first_run_block(readme: str) -> str:
    """The shell block right after the README's first-run marker, without its indentation."""
    after = readme[readme.index(MARKER) :]
    found = re.search(r"```sh\n(.*?)\n\s*```", after, re.DOTALL)
    assert found, "no ```sh block after the first-run marker"
    lines = [line.strip() for line in found[1].splitlines()]
    return "\n".join(line for line in lines if line)


def test_first_run_block_is_one_path_each_command_once() -> None:
    block = first_run_block((ROOT / "README.md").read_text())
    commands = block.splitlines()
    assert len(commands) == len(set(commands)), block
    assert commands[0].startswith("python3 -m venv "), block  # nothing installed outside it
    assert sum("--sync" in c for c in commands) == 1, block  # registered in one place only
    assert commands[-1] == "python -m bot", block


def repository_copy(dest: Path) -> Path:
    """The repository's files (tracked and new, not ignored ones) copied to ``dest``."""
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT,
        capture_output=True,
        check=True,
    ).stdout.decode()
    for name in filter(None, listed.split("\0")):
        source = ROOT / name
        if source.is_file():
            target = dest / name
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target)
    return dest


async def test_readme_first_run_block_runs_as_written(tmp_path: Path) -> None:
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("needs the repository's git checkout to copy its files")
    work = repository_copy(tmp_path / "durak")
    hook = tmp_path / "hook"
    hook.mkdir()
    shutil.copy(ROOT / "tests" / "bot" / "fake_redirect.py", hook / "sitecustomize.py")
    block = first_run_block((ROOT / "README.md").read_text())
    out = tmp_path / "first-run.log"
    async with started_fake() as fake:
        guild = fake.add_guild("Club")
        channel = fake.add_channel(guild, "games")
        admin = fake.add_user("admin")
        env = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "PYTHONPATH")} | {
            "PATH": os.pathsep.join(
                p for p in os.environ["PATH"].split(os.pathsep) if "/.venv/" not in p + "/"
            ),
            "PYTHONPATH": str(hook),
            "DURAK_FAKE_DISCORD_URL": fake.http_url,
            "DISCORD_TOKEN": fake.token,
            "DURAK_PURE_PYTHON": "1",
            "DURAK_SKIP_ACTIVITY_BUILD": "1",
        }
        script = "set -e\n" + block.replace(GUILD_PLACEHOLDER, str(guild))
        with out.open("wb") as log:
            proc = await asyncio.create_subprocess_exec(
                "bash",
                "-c",
                script,
                cwd=work,
                env=env,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        try:
            ready = asyncio.create_task(
                fake.wait_for(
                    lambda: fake.gateway.connected and "ready: logged in as" in out.read_text(),
                    900,
                    what="the bot started by the README's block to say it is ready",
                )
            )
            done, _ = await asyncio.wait(
                [ready, asyncio.create_task(proc.wait())], return_when=asyncio.FIRST_COMPLETED
            )
            assert ready in done, f"the block ended early:\n{out.read_text()[-4000:]}"
            answer = await fake.slash(admin, channel, "durak", "help", timeout=30)
            assert answer.response_type == MESSAGE and answer.ephemeral
            assert answer.content == help_text("en-US", activity_built=None), answer.content
        finally:
            if proc.returncode is None:
                os.killpg(proc.pid, signal.SIGINT)
                try:
                    await asyncio.wait_for(proc.wait(), 30)
                except TimeoutError:
                    os.killpg(proc.pid, signal.SIGKILL)
                    await proc.wait()
    text = out.read_text()
    assert proc.returncode == 0, text[-4000:]
    assert (work / ".venv" / "bin" / "python").exists()  # the install went into the venv
    assert f"synced 2 command(s) to {guild}" in text, text[-4000:]
    assert "Traceback" not in text, text[-4000:]
    assert fake.token not in text
