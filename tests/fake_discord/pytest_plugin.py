"""pytest fixtures for the fake Discord.

Enable in tests/conftest.py with `pytest_plugins = ["fake_discord.pytest_plugin"]`.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

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


@pytest_asyncio.fixture
async def fake_discord() -> AsyncIterator[FakeDiscord]:
    async with started_fake() as fake:
        yield fake
