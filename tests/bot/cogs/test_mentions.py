"""#45: no message can ping more than it means to. Every send and edit states its
``allowed_mentions`` (never everyone, here nor roles; users only by id), and names from
Discord are shown as typed (bot/text/names.py). The fake flags a message that breaks the rule
(tests/fake_discord/mentions.py), and ``run_client`` fails a test on any flag."""

from __future__ import annotations

from pathlib import Path

import discord
import pytest

from bot.text.names import shown_name
from tests.bot.helpers import open_table, public_message, running_bot, world

pytestmark = pytest.mark.asyncio

#: A member's display name that would ping everyone, a role and a user if sent raw.
PINGING = "@everyone <@&42> <@7> **boss**"


async def test_a_planted_everyone_ping_is_flagged(tmp_path: Path) -> None:
    async with world(tmp_path) as w, running_bot(w) as bot:
        channel = bot.get_partial_messageable(w.channel)
        await channel.send("fine")  # the client's default: nobody
        assert w.fake.violations == []
        await channel.send("@everyone", allowed_mentions=discord.AllowedMentions(everyone=True))
        await channel.send("<@&42>", allowed_mentions=discord.AllowedMentions(roles=True))
        await bot.http.send_message(w.channel, params=_raw("no allowed_mentions"))
        flagged = [v.message for v in w.fake.violations]
        assert any("@everyone" in m for m in flagged), flagged
        assert any("role" in m for m in flagged), flagged
        assert any("not stated" in m for m in flagged), flagged
        assert all(v.field.endswith("allowed_mentions") for v in w.fake.violations)
        w.fake.violations.clear()  # planted: run_client would fail the test on them


def _raw(content: str) -> discord.http.MultipartParameters:
    return discord.http.handle_message_parameters(content=content)


async def test_a_name_that_would_ping_is_shown_as_typed(tmp_path: Path) -> None:
    """A member named like a mention hosts a table: the lobby and the table show the name as
    typed, and no message the bot sends could ping (the fake flags none)."""
    async with world(tmp_path) as w:
        pinger = w.fake.add_user(PINGING)
        async with running_bot(w) as bot:
            table = await open_table(w, bot, [pinger, w.bob], w.channel)
            embed = public_message(w, table).embeds[0]
            texts = [embed.get("title", ""), embed.get("description", "")]
            texts += [f"{f['name']} {f['value']}" for f in embed.get("fields", [])]
            text = "\n".join(texts)
            assert shown_name(PINGING) in text, text
            assert "@everyone" not in text and "<@&42>" not in text and "**boss**" not in text
            assert w.fake.violations == []
