"""Launching the Activity from the chat, and saying when it cannot be: "Play at the table" on
the table message answers LAUNCH_ACTIVITY (interaction callback 12) only when the client is
built; ``/durak help`` says it is not built and how to build it; a global ``--sync`` keeps the
app's "Launch" entry point command (type 4) that Activities add."""

from __future__ import annotations

from pathlib import Path

import discord
import pytest

from bot.activity import server as server_module
from bot.text import t
from bot.ui.help_text import BUILD_COMMAND
from tests.bot.activity.helpers import activity_bot, post_token
from tests.bot.activity.test_client_files import built_client
from tests.bot.helpers import open_table, public_message, running_bot, world
from tests.fake_discord.results import LAUNCH_ACTIVITY, MESSAGE

PLAY = "Play at the table"


async def test_play_at_the_table_launches_the_activity_in_the_tables_channel(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(server_module, "CLIENT_DIR", built_client(tmp_path))
    async with world(tmp_path) as w, activity_bot(w) as site:
        w.fake.activity.enable()
        table = await open_table(w, site.bot, [w.alice, w.bob], w.channel)
        message = public_message(w, table)
        play = next(b for b in message.buttons if b.label == PLAY)
        assert play.custom_id == f"dkt:{table.table_id}:play"

        launched = await w.fake.click(w.carol, message, play.custom_id)
        assert launched.response_type == LAUNCH_ACTIVITY
        instance = w.fake.activity.launched[launched.id]
        assert w.fake.activity.instances[instance].channel_id == w.channel
        assert w.fake.violations == []
        # the launched instance signs carol in to this channel's table
        code = w.fake.activity.issue_code(w.carol)
        status, body = await post_token(site, {"code": code, "instance_id": instance})
        assert status == 200 and body["channel_id"] == str(w.channel)

        help_answer = await w.fake.slash(w.alice, w.channel, "durak", "help")
        assert help_answer.response_type == MESSAGE and help_answer.ephemeral
        assert "**Play at the table**" in help_answer.content
        assert BUILD_COMMAND not in help_answer.content

        # a button posted before the client went away (removed, and the bot restarted)
        site.bot.activity_built = False
        old = await w.fake.click(w.bob, message, play.custom_id)
        assert old.response_type == MESSAGE and old.ephemeral
        assert old.content == t("activity.not_built", "en")


async def test_not_built_no_button_and_help_says_how_to_build(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setattr(server_module, "CLIENT_DIR", tmp_path / "no-dist")
    async with world(tmp_path) as w, activity_bot(w) as site:
        w.fake.activity.enable()
        assert site.bot.activity_built is False
        assert any(
            "not built" in r.getMessage() and BUILD_COMMAND in r.getMessage()
            for r in caplog.records
        )
        table = await open_table(w, site.bot, [w.alice, w.bob], w.channel)
        message = public_message(w, table)
        assert PLAY not in [b.label for b in message.buttons]
        assert "My hand" in [b.label for b in message.buttons]

        answer = await w.fake.slash(w.alice, w.channel, "durak", "help")
        assert "not built" in answer.content and f"`{BUILD_COMMAND}`" in answer.content
        assert "/durak new" in answer.content


async def test_help_in_russian_and_without_the_activity(tmp_path: Path) -> None:
    async with world(tmp_path) as w, running_bot(w) as bot:
        assert bot.activity_built is None
        ivan = w.fake.add_user("ivan", locale="ru")
        answer = await w.fake.slash(ivan, w.channel, "durak", "help")
        assert "`/дурак новая`" in answer.content and "`/дурак сесть`" in answer.content
        english = await w.fake.slash(w.alice, w.channel, "durak", "help")
        assert "Activity" not in english.content and BUILD_COMMAND not in english.content


async def test_a_global_sync_keeps_the_launch_entry_point(tmp_path: Path) -> None:
    async with world(tmp_path) as w, running_bot(w) as bot:
        w.fake.activity.enable()  # Discord creates the "Launch" command (type 4)
        launch = w.fake.commands(None)["Launch"]
        assert launch["type"] == 4 and launch["handler"] == 2

        # discord.py's own sync leaves it out (it knows no type 4): Discord refuses that
        with pytest.raises(discord.HTTPException) as refused:
            await bot.tree.sync()
        assert refused.value.code == 50240
        w.fake.violations.clear()

        synced = await bot.sync_commands(None)
        commands = w.fake.commands(None)
        assert set(commands) == {"durak", "durak-tournament", "Launch"}
        assert synced == 2
        assert commands["Launch"]["id"] == launch["id"] and commands["Launch"]["handler"] == 2
        assert commands["durak"]["name_localizations"]["ru"] == "дурак"
        assert w.fake.violations == []


async def test_a_global_sync_without_activities_is_discord_pys_own(tmp_path: Path) -> None:
    async with world(tmp_path) as w, running_bot(w) as bot:
        assert await bot.sync_commands(None) == 2
        assert set(w.fake.commands(None)) == {"durak", "durak-tournament"}
