"""#45: the slash commands ``--sync`` registers fit Discord's documented size rule with room.

Discord counts a command's name, description and choice values over its whole tree, the
longest localization of each field (tests/fake_discord/command_size.py), and refuses a bulk
overwrite with any command over 8,000 characters: then nothing is registered at all.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import discord
import pytest

from tests.bot.helpers import running_bot, world
from tests.fake_discord.command_size import (
    COMMAND_SIZE_BOUND,
    DISCORD_COMMAND_SIZE,
    OPTIONS_PER_LEVEL_BOUND,
    command_size,
    levels,
)

pytestmark = pytest.mark.asyncio


def _localized(command: dict[str, Any], locale: str) -> dict[str, Any]:
    """The command as a user of ``locale`` sees it (its localizations only)."""
    out: dict[str, Any] = {}
    for field in ("name", "description"):
        out[field] = (command.get(f"{field}_localizations") or {}).get(locale, command.get(field))
    if "value" in command:
        out["value"] = command["value"]
    for key in ("options", "choices"):
        out[key] = [_localized(child, locale) for child in command.get(key) or []]
    return out


def _texts(command: dict[str, Any]) -> list[str]:
    """Every name and description in the tree of a localized command."""
    found = [str(command.get("name", "")), str(command.get("description", ""))]
    for key in ("options", "choices"):
        for child in command.get(key) or []:
            found += _texts(child)
    return found


def _locales(command: dict[str, Any]) -> set[str]:
    found = set(
        (command.get("name_localizations") or {}) | (command.get("description_localizations") or {})
    )
    for key in ("options", "choices"):
        for child in command.get(key) or []:
            found |= _locales(child)
    return found


async def test_every_synced_command_fits_with_room(tmp_path: Path) -> None:
    async with world(tmp_path) as w, running_bot(w):
        synced = [c.payload for c in w.fake.store.commands.values()]
    names = {c["name"] for c in synced}
    assert {"durak", "durak-tournament"} <= names, names
    for command in synced:
        locales = _locales(command)
        assert {"ru", "uk", "de", "es-ES"} <= locales, locales  # sent in every language
        size = command_size(command)
        by_locale = {loc: command_size(_localized(command, loc)) for loc in sorted(locales)}
        assert size <= COMMAND_SIZE_BOUND, (command["name"], size, by_locale)
        # the rule's longest-of-each-field sum bounds every single language's size
        assert max(by_locale.values()) <= size
        for path, count in levels(command):
            assert count <= OPTIONS_PER_LEVEL_BOUND, (path, count)
        for loc in locales:  # every placeholder of a catalogue text was filled in
            text = str(_localized(command, loc))
            assert "{" not in text.replace("{'", "").replace('{"', ""), (loc, text)


async def test_an_oversized_command_registers_nothing(tmp_path: Path) -> None:
    """A planted violation: Discord refuses the whole overwrite (50035) and keeps what it had."""
    async with world(tmp_path) as w, running_bot(w) as bot:
        before = {k: c.payload["version"] for k, c in w.fake.store.commands.items()}
        assert bot.application_id is not None
        big = {
            "name": "huge",
            "description": "x" * 100,
            "options": [
                {
                    "name": f"opt{i}",
                    "description": "d" * 100,
                    "type": 3,
                    "choices": [{"name": "c" * 100, "value": "v" * 100} for _ in range(25)],
                }
                for i in range(2)
            ],
        }
        assert command_size(big) > DISCORD_COMMAND_SIZE
        small = {"name": "small", "description": "fits"}
        with pytest.raises(discord.HTTPException) as refused:
            await bot.http.bulk_upsert_guild_commands(bot.application_id, w.guild, [small, big])
        assert refused.value.status == 400 and refused.value.code == 50035
        assert "APPLICATION_COMMAND_TOO_LARGE" in str(refused.value)
        after = {k: c.payload["version"] for k, c in w.fake.store.commands.items()}
        assert after == before  # not even the small one
        w.fake.violations.clear()  # planted: run_client would fail the test on it
