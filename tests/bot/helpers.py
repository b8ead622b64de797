"""Shared setup for the bot tests: a fake Discord world and a DurakBot connected to it."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import SecretStr

from bot.app import DurakBot
from bot.settings import Settings
from bot.tables.table import Table
from durak_core import Action
from tests.bot.quick_settings import QUICK
from tests.fake_discord import FakeMessage
from tests.fake_discord.pytest_plugin import Club, started_fake

HAND_ID = re.compile(r"^dk:(?P<table>[0-9a-f]{8}):(?P<seat>\d):(?P<version>\d+):(?P<code>\d+)$")


@dataclass
class World(Club):
    alice: int
    bob: int
    carol: int
    db: Path


def settings(db: Path, **overrides: object) -> Settings:
    values: dict[str, object] = {
        "discord_token": SecretStr("fake-bot-token"),
        "database_path": db,
        **QUICK,
        "hand_idle_refresh_seconds": 0.05,
        "table_picture_interval_seconds": 0.0,
    }
    values.update(overrides)
    return Settings.model_validate(values)


@asynccontextmanager
async def world(tmp_path: Path) -> AsyncIterator[World]:
    async with started_fake() as fake:
        guild, channel = Club.places(fake)
        w = World(
            fake,
            guild,
            channel,
            fake.add_user("alice"),
            fake.add_user("bob"),
            fake.add_user("carol"),
            tmp_path / "durak.sqlite3",
        )
        yield w


@asynccontextmanager
async def running_bot(w: World, **overrides: object) -> AsyncIterator[DurakBot]:
    bot = DurakBot(
        settings(w.db, **overrides), sync=True, sync_guild=w.guild, guild_ready_timeout=0.05
    )
    async with w.fake.run_client(bot):
        yield bot


def table_of(bot: DurakBot, channel: int) -> Table:
    table = bot.service.registry.in_channel(channel)
    assert table is not None
    return table


async def open_table(
    w: World, bot: DurakBot, users: list[int], channel: int, **options: Any
) -> Table:
    """``users[0]`` opens a table in ``channel`` (with ``/durak new``'s ``options``), the others
    join, the host starts; returns the table once its public message exists (no hand opened
    yet)."""
    await w.fake.slash(users[0], channel, "durak", "new", options=options)
    for u in users[1:]:
        await w.fake.slash(u, channel, "durak", "join")
    await w.fake.slash(users[0], channel, "durak", "start")
    table = table_of(bot, channel)
    await w.fake.wait_for(lambda: table.table_message_id is not None)
    return table


def public_message(w: World, table: Table) -> FakeMessage:
    assert table.table_message_id is not None
    return w.fake.message(table.table_message_id)


def hand_codes(message: FakeMessage) -> tuple[set[int], set[int]]:
    """(action codes on buttons and in selects, versions they carry) of a hand message."""
    codes: set[int] = set()
    versions: set[int] = set()
    for b in message.buttons:
        m = HAND_ID.match(b.custom_id or "")
        if m:
            codes.add(int(m["code"]))
            versions.add(int(m["version"]))
    for sel in message.selects:
        versions.add(int(sel["custom_id"].split(":")[3]))
        codes |= {int(o["value"]) for o in sel.get("options", [])}
    return codes, versions


def expected_codes(table: Table, seat: int, message: FakeMessage) -> set[int]:
    """The engine's legal actions for ``seat``, restricted to the attack card the hand aims at
    when several are open (the hand shows one target's defences at a time)."""
    assert table.state is not None
    legal: tuple[Action, ...] = table.state.legal_actions(seat)
    aimed = [
        int(b.custom_id.split(":")[4][1:])
        for b in message.buttons
        if b.custom_id and b.custom_id.split(":")[-1].startswith("a") and b.disabled
    ]
    out = set()
    for a in legal:
        attack = getattr(a, "attack", None)
        if attack is not None and aimed and attack.index != aimed[0]:
            continue
        out.add(a.code)
    return out
