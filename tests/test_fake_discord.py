"""The fake Discord works with the real discord.py client: REST, gateway, interactions, faults."""

from __future__ import annotations

import asyncio
import io
import re
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

import aiohttp
import discord
import pytest
from discord import app_commands
from discord.ext import commands

from tests.fake_discord import (
    DEFERRED_MESSAGE,
    MESSAGE,
    MODAL,
    UPDATE_MESSAGE,
    ButtonInfo,
    InteractionResult,
)
from tests.fake_discord.pytest_plugin import Club, client_options, started_fake
from tests.fake_discord.validation import validate_message


@dataclass
class World(Club):
    alice: int
    bob: int


@pytest.fixture
async def world() -> AsyncIterator[World]:
    async with started_fake() as fake:
        guild, channel = Club.places(fake)
        alice = fake.add_user("alice")
        bob = fake.add_user("boris", locale="ru")
        yield World(fake, guild, channel, alice, bob)


# -- the demo bot ------------------------------------------------------------------------


class CounterView(discord.ui.View):
    def __init__(self) -> None:
        super().__init__(timeout=None)
        self.count = 0

    @discord.ui.button(label="+1", custom_id="demo:inc", style=discord.ButtonStyle.primary)
    async def inc(
        self, interaction: discord.Interaction, button: discord.ui.Button[CounterView]
    ) -> None:
        self.count += 1
        await interaction.response.edit_message(content=f"count: {self.count}", view=self)

    @discord.ui.button(
        label="stop", custom_id="demo:stop", emoji="🛑", style=discord.ButtonStyle.danger
    )
    async def stop_counting(
        self, interaction: discord.Interaction, button: discord.ui.Button[CounterView]
    ) -> None:
        for child in self.children:
            if isinstance(child, discord.ui.Button):
                child.disabled = True
        await interaction.response.edit_message(content=f"final: {self.count}", view=self)


class PickView(discord.ui.View):
    @discord.ui.select(
        custom_id="demo:pick",
        options=[discord.SelectOption(label=s, value=s) for s in ("6♠", "7♥", "A♦")],
    )
    async def pick(
        self, interaction: discord.Interaction, select: discord.ui.Select[PickView]
    ) -> None:
        await interaction.response.edit_message(content=f"played {select.values[0]}", view=None)


class NameModal(discord.ui.Modal, title="Your table name"):
    name: discord.ui.TextInput[NameModal] = discord.ui.TextInput(label="Name", custom_id="name")

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"table renamed to {self.name.value}")


class DynamicCounter(
    discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"counter:(?P<n>\d+)"
):
    def __init__(self, n: int) -> None:
        super().__init__(discord.ui.Button(label=f"n={n}", custom_id=f"counter:{n}"))
        self.n = n

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> DynamicCounter:
        return cls(int(match["n"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        view = discord.ui.View(timeout=None).add_item(DynamicCounter(self.n + 1))
        await interaction.response.edit_message(view=view)


class DemoBot(commands.Bot):
    def __init__(self, guild_id: int) -> None:
        super().__init__(command_prefix="!", **client_options())
        self.guild_id = guild_id
        self.release = asyncio.Event()  # lets a test hold a command mid-flight
        self.outcomes: list[Any] = []  # what commands observed, for assertions
        self.tree.add_command(self._demo_group(), guild=discord.Object(guild_id))

    async def setup_hook(self) -> None:
        self.add_dynamic_items(DynamicCounter)
        await self.tree.sync(guild=discord.Object(self.guild_id))

    def _demo_group(self) -> app_commands.Group:
        group = app_commands.Group(name="demo", description="Demo commands")
        bot = self

        @group.command(name="ping", description="Answer with pong")
        async def ping(interaction: discord.Interaction, secret: bool = False) -> None:
            await interaction.response.send_message(
                f"pong {interaction.locale.value}", ephemeral=secret
            )

        @group.command(name="buttons", description="Post a counter in the channel")
        async def buttons(interaction: discord.Interaction) -> None:
            assert isinstance(interaction.channel, discord.TextChannel)
            await interaction.channel.send("count: 0", view=CounterView())
            await interaction.response.send_message("posted", ephemeral=True)

        @group.command(name="hand", description="A private hand with buttons")
        async def hand(interaction: discord.Interaction) -> None:
            await interaction.response.send_message(
                "your hand: 6♠ 7♥", view=PickView(), ephemeral=True
            )

        @group.command(name="later", description="Defer, follow up, edit the original")
        async def later(interaction: discord.Interaction) -> None:
            await interaction.response.defer(thinking=True)
            await interaction.followup.send("thinking done")
            await interaction.followup.send("a second followup", wait=True)
            await interaction.edit_original_response(content="edited original")

        @group.command(name="slow", description="Answer, then edit much later")
        async def slow(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("working")
            await bot.release.wait()
            try:
                await interaction.edit_original_response(content="done")
            except discord.HTTPException as exc:
                bot.outcomes.append((exc.status, exc.code))

        @group.command(name="bad", description="Send a component Discord refuses")
        async def bad(interaction: discord.Interaction) -> None:
            view = discord.ui.View().add_item(discord.ui.Button(label="x", custom_id="c" * 101))
            try:
                await interaction.response.send_message("bad", view=view)
            except discord.HTTPException as exc:
                assert (exc.status, exc.code) == (400, 50035)
                await interaction.response.send_message("sorry")

        @group.command(name="sleepy", description="Answer only when released")
        async def sleepy(interaction: discord.Interaction) -> None:
            await bot.release.wait()
            try:
                await interaction.response.send_message("finally")
            except discord.NotFound as exc:
                bot.outcomes.append((exc.status, exc.code))

        @group.command(name="greet", description="Greet someone in private")
        async def greet(interaction: discord.Interaction, who: discord.Member) -> None:
            await who.send(f"psst {who.display_name}, your cards: 6♣")
            await interaction.response.send_message(f"greeted {who.mention}")

        @group.command(name="rename", description="Ask for a name in a modal")
        async def rename(interaction: discord.Interaction) -> None:
            await interaction.response.send_modal(NameModal())

        @group.command(name="dynamic", description="Post a button that survives restarts")
        async def dynamic(interaction: discord.Interaction) -> None:
            view = discord.ui.View(timeout=None).add_item(DynamicCounter(0))
            await interaction.response.send_message("dynamic", view=view)

        @group.command(name="image", description="Send a file and open a thread")
        async def image(interaction: discord.Interaction) -> None:
            file = discord.File(io.BytesIO(b"\x89PNG fake"), filename="table.png")
            await interaction.response.send_message("table", file=file)
            message = await interaction.original_response()
            thread = await message.create_thread(name="game 1")
            await thread.send("moves go here")

        return group


@pytest.fixture
async def bot(world: World) -> AsyncIterator[DemoBot]:
    client = DemoBot(world.guild)
    async with world.fake.run_client(client):
        yield client


# -- tests -------------------------------------------------------------------------------


async def test_connects_syncs_and_answers_with_exact_json(world: World, bot: DemoBot) -> None:
    fake = world.fake
    assert bot.user is not None and bot.user.id == fake.bot_user_id
    guild = bot.get_guild(world.guild)
    assert guild is not None and guild.name == "Durak Club"
    assert [c.name for c in guild.text_channels] == ["tables"]
    demo = fake.commands(world.guild)["demo"]
    assert {o["name"] for o in demo["options"]} >= {"ping", "buttons", "later", "slow", "bad"}
    assert discord.utils.snowflake_time(int(demo["id"])).year >= 2024
    async with aiohttp.ClientSession() as session:
        headers = {"Authorization": f"Bot {fake.token}"}
        async with session.get(f"{fake.api_url}/users/@me", headers=headers) as resp:
            assert resp.headers["Content-Type"] == "application/json"
        async with session.get(f"{fake.api_url}/users/@me") as resp:
            assert resp.status == 401


async def test_slash_public_and_ephemeral(world: World, bot: DemoBot) -> None:
    fake = world.fake
    public = await fake.slash(world.alice, world.channel, "demo", "ping")
    assert public.response_type == MESSAGE and not public.ephemeral and not public.late
    assert public.content == "pong en-US"
    assert [m.content for m in fake.channel_messages(world.channel)] == ["pong en-US"]

    secret = await fake.slash(world.bob, world.channel, "demo", "ping", options={"secret": True})
    assert secret.ephemeral and secret.content == "pong ru"
    assert [m.content for m in fake.ephemeral_messages(world.bob)] == ["pong ru"]
    assert fake.ephemeral_messages(world.alice) == []
    assert "pong ru" not in fake.all_public_payload_text()
    with pytest.raises(LookupError, match="no option"):
        await fake.slash(world.alice, world.channel, "demo", "ping", options={"loud": True})


async def test_button_click_edits_channel_message_in_place(world: World, bot: DemoBot) -> None:
    fake = world.fake
    await fake.slash(world.alice, world.channel, "demo", "buttons")
    board = await fake.wait_for(
        lambda: [m for m in fake.channel_messages(world.channel) if m.buttons]
    )
    message = board[0]
    assert fake.buttons(message) == [
        ButtonInfo("demo:inc", "+1", False, None, 1),
        ButtonInfo("demo:stop", "stop", False, "🛑", 4),
    ]
    for _ in range(2):
        click = await fake.click(world.bob, message, "demo:inc")
        assert click.response_type == UPDATE_MESSAGE
    stop = await fake.click(world.alice, message, "demo:stop")
    assert stop.message is not None and stop.message.id == message.id
    assert [v["content"] for v in fake.message(message.id).history] == [
        "count: 0",
        "count: 1",
        "count: 2",
        "final: 2",
    ]
    assert all(b.disabled for b in fake.buttons(message))
    with pytest.raises(ValueError, match="disabled"):
        await fake.click(world.alice, message, "demo:inc")


async def test_ephemeral_hand_select(world: World, bot: DemoBot) -> None:
    fake = world.fake
    hand = await fake.slash(world.alice, world.channel, "demo", "hand")
    assert hand.ephemeral and hand.message is not None
    assert hand.message.selects[0]["custom_id"] == "demo:pick"
    with pytest.raises(PermissionError):
        await fake.select(world.bob, hand.message, "demo:pick", ["7♥"])
    played = await fake.select(world.alice, hand.message, "demo:pick", ["7♥"])
    assert played.response_type == UPDATE_MESSAGE
    assert hand.content == "played 7♥" and hand.components == []
    assert "6♠" not in fake.all_public_payload_text()


async def test_defer_followups_and_original_edit(world: World, bot: DemoBot) -> None:
    fake = world.fake
    result = await fake.slash(world.alice, world.channel, "demo", "later")
    assert result.response_type == DEFERRED_MESSAGE
    await result.wait_until(lambda r: r.content == "edited original")
    assert result.message is not None and not result.message.loading
    # The first followup after a defer fills the "thinking" message; the second is new.
    assert [v["content"] for v in result.message.history] == [
        "",
        "thinking done",
        "edited original",
    ]
    assert [m.content for m in result.followups] == ["a second followup"]


async def test_dynamic_item_is_dispatched_after_restart(world: World) -> None:
    fake = world.fake
    async with fake.run_client(DemoBot(world.guild)):
        posted = await fake.slash(world.alice, world.channel, "demo", "dynamic")
    assert posted.message is not None
    async with fake.run_client(DemoBot(world.guild)):
        clicked = await fake.click(world.bob, posted.message, "counter:0")
    assert clicked.response_type == UPDATE_MESSAGE
    assert [b.custom_id for b in fake.buttons(posted.message)] == ["counter:1"]
    assert fake.gateway.identify_count == 2


async def test_expired_token_gives_401_invalid_webhook_token(world: World, bot: DemoBot) -> None:
    fake = world.fake
    result = await fake.slash(world.alice, world.channel, "demo", "slow")
    fake.advance_time(15 * 60 + 1)
    bot.release.set()
    assert await fake.wait_for(lambda: bot.outcomes) == [(401, 50027)]
    assert result.content == "working"
    assert any(r.status == 401 and r.path.endswith("/messages/@original") for r in fake.requests)


async def test_dropped_gateway_is_resumed(world: World, bot: DemoBot) -> None:
    fake = world.fake
    await fake.drop_gateway()
    assert (await fake.slash(world.alice, world.channel, "demo", "ping")).content == "pong en-US"
    # An interaction dispatched while the socket is down is replayed on RESUME.
    await fake.drop_gateway(wait_resumed=False)
    assert (await fake.slash(world.bob, world.channel, "demo", "ping")).content == "pong ru"
    assert fake.gateway.identify_count == 1 and fake.gateway.resume_count == 2
    assert fake.gateway.replayed_count >= 1


@pytest.mark.slow  # over a second: out of the quick subset
async def test_429_and_500_are_retried_transparently(world: World, bot: DemoBot) -> None:
    fake = world.fake
    channel = bot.get_channel(world.channel)
    assert isinstance(channel, discord.TextChannel)
    message = await channel.send("v0")
    fake.fail_next("PATCH", "/channels/*/messages/*", status=429, retry_after=0.05)
    fake.fail_next("POST", "/channels/*/messages", status=500)
    await message.edit(content="v1")
    await channel.send("after a 500")
    fake.fail_next("PATCH", "/webhooks/*/*/messages/@original", status=429, retry_after=0.05)
    later = await fake.slash(world.alice, world.channel, "demo", "later")
    await later.wait_until(lambda r: r.content == "edited original")
    fake.set_edit_rate_limit(limit=2, per=0.3)
    for n in range(2, 5):
        await message.edit(content=f"v{n}")
    assert fake.message(message.id).content == "v4"
    assert fake.rate_limit_count >= 3
    channel_edits = [r.status for r in fake.requests if r.path.startswith("/channels/")]
    assert channel_edits[:3] == [200, 429, 200]  # send, scripted 429, retried edit
    webhook_edits = [r.status for r in fake.requests if r.path.endswith("@original")]
    assert webhook_edits == [429, 200]


async def test_limit_violation_is_reported(world: World) -> None:
    fake = world.fake
    async with fake.run_client(DemoBot(world.guild), fail_on_violations=False):
        await _send_bad_component(world)
    # By default run_client fails the test on any violation, even one the bot survived.
    with pytest.raises(AssertionError, match="custom_id"):
        async with fake.run_client(DemoBot(world.guild)):
            await _send_bad_component(world)


async def _send_bad_component(world: World) -> None:
    fake = world.fake
    before = len(fake.violations)
    result = await fake.slash(world.alice, world.channel, "demo", "bad", wait=False)
    await fake.wait_for(lambda: len(fake.violations) > before and result.response_type)
    assert result.content == "sorry"  # the bot caught the 400 and answered anyway
    violation = fake.violations[-1]
    assert violation.field.endswith("custom_id") and "100" in violation.message


async def test_files_and_threads(world: World, bot: DemoBot) -> None:
    fake = world.fake
    result: InteractionResult = await fake.slash(world.alice, world.channel, "demo", "image")
    assert result.message is not None
    assert fake.attachment_bytes(result.message) == {"table.png": b"\x89PNG fake"}
    [thread] = await fake.wait_for(lambda: fake.threads(world.channel))
    assert thread["name"] == "game 1" and int(thread["id"]) == result.message.id
    posted = await fake.wait_for(lambda: fake.channel_messages(int(thread["id"])))
    assert posted[0].content == "moves go here"


async def test_late_first_response_is_unknown_interaction(world: World, bot: DemoBot) -> None:
    fake = world.fake
    result = await fake.slash(world.alice, world.channel, "demo", "sleepy", wait=False)
    fake.advance_time(3.5)
    bot.release.set()
    assert await fake.wait_for(lambda: bot.outcomes) == [(404, 10062)]
    assert result.late and result.response_type is None and result.message is None


async def test_user_option_dm_and_modal(world: World, bot: DemoBot) -> None:
    fake = world.fake
    greet = await fake.slash(
        world.alice, world.channel, "demo", "greet", options={"who": world.bob}
    )
    assert greet.content == f"greeted <@{world.bob}>"
    [dm] = fake.channel_messages(fake.dm_channel(world.bob))
    assert dm.content == "psst boris, your cards: 6♣"
    assert "6♣" not in fake.all_public_payload_text()

    opened = await fake.slash(world.alice, world.channel, "demo", "rename")
    assert opened.response_type == MODAL and opened.modal is not None
    submitted = await fake.submit_modal(world.alice, opened, {"name": "Table 7"})
    assert submitted.content == "table renamed to Table 7"


async def test_members_intent_chunking_history_and_threads(world: World) -> None:
    fake = world.fake
    intents = discord.Intents.default()
    intents.members = True  # makes discord.py chunk the guild (gateway op 8) before ready
    client = discord.Client(**{**client_options(), "intents": intents})
    async with fake.run_client(client):
        guild = client.get_guild(world.guild)
        assert guild is not None
        assert {m.name for m in guild.members} >= {"alice", "boris"}
        channel = guild.get_channel(world.channel)
        assert isinstance(channel, discord.TextChannel)
        for n in range(3):
            await channel.send(f"m{n}")
        assert [m.content async for m in channel.history(limit=2)] == ["m2", "m1"]
        thread = await channel.create_thread(name="side table")
        await thread.send("in thread")
    assert [t["name"] for t in fake.threads(world.channel)] == ["side table"]
    assert any(f.get("op") == 8 for f in fake.gateway.received)


def _button(custom_id: str) -> dict[str, Any]:
    return {"type": 2, "style": 1, "label": "b", "custom_id": custom_id}


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"content": "x" * 2001}, "content"),
        (
            {"components": [{"type": 1, "components": [_button(f"r{i}")]} for i in range(6)]},
            "components",
        ),
        (
            {"components": [{"type": 1, "components": [_button(f"b{i}") for i in range(6)]}]},
            "components.0.components",
        ),
        (
            {
                "components": [
                    {
                        "type": 1,
                        "components": [
                            {
                                "type": 3,
                                "custom_id": "s",
                                "options": [{"label": str(i), "value": str(i)} for i in range(26)],
                            }
                        ],
                    }
                ]
            },
            "components.0.components.0.options",
        ),
        ({"embeds": [{"title": "t" * 257}]}, "embeds.0.title"),
        ({"embeds": [{"fields": [{"name": "n", "value": "v" * 1025}]}]}, "embeds.0.fields.0.value"),
        (
            {
                "embeds": [
                    {"description": "d" * 4000, "fields": [{"name": "n", "value": "v" * 1024}] * 2}
                ]
            },
            "embeds.0",
        ),
        (
            {"components": [{"type": 1, "components": [_button("same"), _button("same")]}]},
            "components",
        ),
        ({}, "content"),
    ],
)
def test_discord_limits(body: dict[str, Any], field: str) -> None:
    problems = validate_message(body, creating=True)
    assert field in [f for f, _ in problems], problems
    assert (
        validate_message(
            {"content": "fine", "components": [{"type": 1, "components": [_button("a")]}]},
            creating=True,
        )
        == []
    )


async def test_global_command_in_a_dm(world: World) -> None:
    fake = world.fake
    client = discord.Client(**client_options())
    tree = app_commands.CommandTree(client)

    @tree.command(name="whoami", description="Say where we are")
    async def whoami(interaction: discord.Interaction) -> None:
        where = "dm" if isinstance(interaction.channel, discord.DMChannel) else "guild"
        await interaction.response.send_message(f"{interaction.user.name} in {where}")

    async with fake.run_client(client):
        await tree.sync()
        assert "whoami" in fake.commands()
        dm = await fake.slash(world.bob, fake.dm_channel(world.bob), "whoami")
        guild = await fake.slash(world.alice, world.channel, "whoami")
    assert (dm.content, guild.content) == ("boris in dm", "alice in guild")
    assert "boris in dm" not in fake.all_public_payload_text()
