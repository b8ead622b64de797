"""pytest fixtures for the fake Discord.

Enable in tests/conftest.py with `pytest_plugins = ["fake_discord.pytest_plugin"]`.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any

import discord
import pytest_asyncio

from .driver import FakeDiscord


@asynccontextmanager
async def started_fake(**kwargs: object) -> AsyncIterator[FakeDiscord]:
    """A started FakeDiscord with discord.py pointed at it; stopped and unpatched on exit."""
    fake = FakeDiscord(**kwargs)  # type: ignore[arg-type]
    await fake.start()
    try:
        with fake.patch_discord():
            yield fake
    finally:
        await fake.stop()


@dataclass
class Club:
    """Where a test plays: a started fake Discord, its guild and the guild's channel (each
    suite's ``World`` adds its users)."""

    fake: FakeDiscord
    guild: int
    channel: int

    @staticmethod
    def places(fake: FakeDiscord) -> tuple[int, int]:
        """A new guild, "Durak Club", with its "tables" channel: (guild, channel)."""
        guild = fake.add_guild("Durak Club")
        return guild, fake.add_channel(guild, "tables")


@pytest_asyncio.fixture
async def fake_discord() -> AsyncIterator[FakeDiscord]:
    async with started_fake() as fake:
        yield fake


def client_options() -> dict[str, Any]:
    """What a test's own discord.py client needs against the fake: discord.py waits
    ``guild_ready_timeout`` after the last GUILD_CREATE (short here), and a message without
    ``allowed_mentions`` is flagged (tests/fake_discord/mentions.py)."""
    return {
        "intents": discord.Intents.default(),
        "guild_ready_timeout": 0.05,
        "allowed_mentions": discord.AllowedMentions.none(),
    }
