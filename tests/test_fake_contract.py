"""The fake Discord enforces Discord's published contract (docs/fake_discord.md, "The
contract"): the pinned subset of the OpenAPI description is what its script makes and covers
every route the fake serves, and requests that break the description or a documented limit
are refused as Discord refuses them (400, code 50035, the errors nested by field path)."""

from __future__ import annotations

import json
import re
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiohttp
import discord
import pytest
import pytest_asyncio
from discord import app_commands
from discord.ext import commands

from bot.activity.discord_api import DiscordApi
from tests.fake_discord import FakeDiscord
from tests.fake_discord.contract import PINNED
from tests.fake_discord.contract.make_subset import ROUTES, SUPPLEMENTS, dumps, make_subset
from tests.fake_discord.contract.openapi_check import pinned_contract
from tests.fake_discord.contract.relaxations import RELAXATIONS
from tests.fake_discord.http_util import API_PREFIX
from tests.fake_discord.pytest_plugin import client_options, started_fake
from tests.fake_discord.rest import RestApi

ROOT = Path(__file__).resolve().parents[1]


def test_pinned_subset_is_what_the_script_makes() -> None:
    pinned = json.loads(PINNED.read_text(encoding="utf-8"))
    meta = pinned["x-pinned"]
    assert re.fullmatch(r"[0-9a-f]{40}", meta["commit"])
    assert re.fullmatch(r"[0-9a-f]{40}", meta["docs_commit"])
    again = make_subset(pinned, commit=meta["commit"], docs_commit=meta["docs_commit"])
    # Every route and every schema a $ref reaches is in it, and nothing more.
    assert dumps(again) == PINNED.read_text(encoding="utf-8")
    assert set(pinned["paths"]) == set(ROUTES) | set(SUPPLEMENTS)


def test_every_route_the_fake_serves_has_its_schema() -> None:
    fake = FakeDiscord()
    served = [*RestApi(fake).routes(), *fake.activity.routes()]
    contract = pinned_contract()
    checked = 0
    for route in served:
        assert isinstance(route, aiohttp.web.RouteDef)
        if not route.path.startswith(API_PREFIX):
            continue  # attachment downloads and the harness's own code route
        concrete = re.sub(r"\{[^}]+\}", "1", route.path.removeprefix(API_PREFIX))
        operation = contract.operation(route.method, concrete)
        assert operation is not None, f"{route.method} {route.path} is not in the subset"
        checked += 1
    assert checked >= 30
    # The bodies the bot sends most have their schemas.
    for method, path in [("POST", "/channels/1/messages"), ("PUT", "/applications/1/commands")]:
        operation = contract.operation(method, path)
        assert operation is not None and "application/json" in operation.bodies
    original = contract.operation("PATCH", "/webhooks/1/tok/messages/@original")
    assert original is not None and original.path.endswith("/@original")


def test_relaxations_are_few_named_and_documented() -> None:
    doc = (ROOT / "docs" / "fake_discord.md").read_text(encoding="utf-8")
    subset = json.loads(PINNED.read_text(encoding="utf-8"))
    for relaxation in RELAXATIONS:
        assert relaxation.name in doc
        assert relaxation.reason
        node: Any = subset
        for part in relaxation.pointer.strip("/").split("/"):
            node = node[part]  # the spot exists upstream: a refresh that moves it fails here


# -- planted violations, sent as raw requests ------------------------------------------------


@pytest_asyncio.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    async with started_fake() as started:
        yield started


async def _send(
    fake: FakeDiscord, method: str, path: str, body: Any = None, **kwargs: Any
) -> tuple[int, Any]:
    headers = {"Authorization": f"Bot {fake.token}"}
    async with (
        aiohttp.ClientSession() as session,
        session.request(method, fake.api_url + path, json=body, headers=headers, **kwargs) as r,
    ):
        return r.status, await r.json(content_type=None)


def _row(*components: dict[str, Any]) -> dict[str, Any]:
    return {"type": 1, "components": list(components)}


def _button(custom_id: str = "b", label: str = "ok") -> dict[str, Any]:
    return {"type": 2, "style": 1, "custom_id": custom_id, "label": label}


def _select(custom_id: str = "s", options: int = 2, placeholder: str = "pick") -> dict[str, Any]:
    choices = [{"label": f"o{i}", "value": f"v{i}"} for i in range(options)]
    return {"type": 3, "custom_id": custom_id, "options": choices, "placeholder": placeholder}


MESSAGE_VIOLATIONS: list[tuple[str, dict[str, Any], str, str]] = [
    ("content of 2,001", {"content": "x" * 2001}, "content", "2000"),
    ("content of the wrong type", {"content": 5}, "content", "is not string"),
    ("embeds not a list", {"embeds": "x"}, "embeds", "is not array"),
    (
        "a label of 81",
        {"components": [_row(_button(label="x" * 81))]},
        "components.0.components.0.label",
        "80",
    ),
    (
        "a sixth action row",
        {"components": [_row(_button(f"b{i}")) for i in range(6)]},
        "components",
        "5 or fewer",
    ),
    (
        "six buttons in a row",
        {"components": [_row(*(_button(f"b{i}") for i in range(6)))]},
        "components.0.components",
        "5 or fewer",
    ),
    (
        "a select beside a button",
        {"components": [_row(_select(), _button())]},
        "components.0.components",
        "alone",
    ),
    (
        "a custom_id of 101",
        {"components": [_row(_button("c" * 101))]},
        "components.0.components.0.custom_id",
        "100",
    ),
    (
        "an empty custom_id",
        {"components": [_row(_button(""))]},
        "components.0.components.0.custom_id",
        "1",
    ),
    (
        "a custom_id twice",
        {"components": [_row(_button("x"), _button("x"))]},
        "components",
        "duplicated",
    ),
    (
        "a placeholder of 151",
        {"components": [_row(_select(placeholder="p" * 151))]},
        "components.0.components.0.placeholder",
        "150",
    ),
    (
        "26 options",
        {"components": [_row(_select(options=26))]},
        "components.0.components.0.options",
        "25",
    ),
    (
        "no options",
        {"components": [_row(_select(options=0))]},
        "components.0.components.0.options",
        "1",
    ),
    ("an embed title of 257", {"embeds": [{"title": "t" * 257}]}, "embeds.0.title", "256"),
    (
        "an embed description of 4,097",
        {"embeds": [{"description": "d" * 4097}]},
        "embeds.0.description",
        "4096",
    ),
    (
        "26 embed fields",
        {"embeds": [{"fields": [{"name": "n", "value": "v"}] * 26}]},
        "embeds.0.fields",
        "25",
    ),
    (
        "a field name of 257",
        {"embeds": [{"fields": [{"name": "n" * 257, "value": "v"}]}]},
        "embeds.0.fields.0.name",
        "256",
    ),
    (
        "a field value of 1,025",
        {"embeds": [{"fields": [{"name": "n", "value": "v" * 1025}]}]},
        "embeds.0.fields.0.value",
        "1024",
    ),
    (
        "a footer of 2,049",
        {"embeds": [{"footer": {"text": "f" * 2049}}]},
        "embeds.0.footer.text",
        "2048",
    ),
    (
        "embeds over 6,000 in all",
        {
            "embeds": [
                {"description": "d" * 4000, "fields": [{"name": "n", "value": "v" * 1000}] * 3}
            ]
        },
        "embeds.0",
        "6000",
    ),
    (
        "11 attachments",
        {"content": "x", "attachments": [{"id": str(i), "filename": "a.png"} for i in range(11)]},
        "attachments",
        "10",
    ),
    (
        "an attachment id not a snowflake",
        {"content": "x", "attachments": [{"id": "abc", "filename": "a.png"}]},
        "attachments.0.id",
        "",
    ),
]


@pytest.mark.parametrize(
    ("body", "field", "words"),
    [case[1:] for case in MESSAGE_VIOLATIONS],
    ids=[case[0] for case in MESSAGE_VIOLATIONS],
)
async def test_message_violation_fails_as_on_discord(
    fake: FakeDiscord, body: dict[str, Any], field: str, words: str
) -> None:
    channel = fake.add_channel(fake.add_guild())
    status, answer = await _send(fake, "POST", f"/channels/{channel}/messages", body)
    assert (status, answer["code"], answer["message"]) == (400, 50035, "Invalid Form Body")
    node = answer["errors"]
    for part in field.split("."):
        node = node[part]
    assert words in node["_errors"][0]["message"] and node["_errors"][0]["code"]
    assert any(v.field == field for v in fake.violations)
    assert fake.channel_messages(channel) == []  # nothing was posted


async def test_attachment_placeholder_id_0_is_accepted(fake: FakeDiscord) -> None:
    channel = fake.add_channel(fake.add_guild())
    body = {
        "content": "x",
        "attachments": [{"id": 0, "filename": "a.png"}],
        "allowed_mentions": {"parse": []},
    }
    status, _ = await _send(fake, "POST", f"/channels/{channel}/messages", body)
    assert status == 200 and fake.violations == []


@pytest.mark.parametrize(
    ("query", "field"),
    [({"limit": "500"}, "limit"), ({"limit": "0"}, "limit"), ({"before": "soon"}, "before")],
)
async def test_bad_query_parameter_fails_as_on_discord(
    fake: FakeDiscord, query: dict[str, str], field: str
) -> None:
    channel = fake.add_channel(fake.add_guild())
    status, answer = await _send(fake, "GET", f"/channels/{channel}/messages", params=query)
    assert (status, answer["code"]) == (400, 50035)
    assert answer["errors"][field]["_errors"][0]["code"] in (
        "NUMBER_TYPE_MAX",
        "NUMBER_TYPE_MIN",
        "STRING_TYPE_REGEX",
    )
    status, _ = await _send(fake, "GET", f"/channels/{channel}/messages", params={"limit": "100"})
    assert status == 200


def _command() -> dict[str, Any]:
    choice = {"name": "n", "value": "v"}
    option = {"type": 3, "name": "who", "description": "Who plays", "choices": [choice]}
    return {"name": "durak", "description": "Play", "type": 1, "options": [option]}


def _with(field: str, value: Any) -> dict[str, Any]:
    """A valid command with ``value`` put at ``field``: its path in the PUT body (the list of
    commands, this one at 0), which is where Discord's answer names the error."""
    command = _command()
    *parents, last = (int(p) if p.isdigit() else p for p in field.split("."))
    node: Any = [command]
    for part in parents:
        node = node[part] if isinstance(part, int) else node.setdefault(part, {})
    node[last] = value
    return command


_26_CHOICES = [{"name": f"c{i}", "value": f"{i}"} for i in range(26)]
_26_OPTIONS = [{"type": 3, "name": f"o{i}", "description": "d"} for i in range(26)]
#: (what is wrong, where, the bad value put there).
COMMAND_VIOLATIONS: list[tuple[str, str, Any]] = [
    ("a locale Discord does not have", "0.name_localizations.en", "durak"),
    ("a 101-character localized description", "0.description_localizations.ru", "д" * 101),
    ("an empty localized description", "0.description_localizations.de", ""),
    ("an upper-case localized name", "0.name_localizations.fr", "Durak"),
    ("an option's description of 101", "0.options.0.description", "x" * 101),
    ("an option's bad locale", "0.options.0.description_localizations.xx", "y"),
    ("a choice name of 101", "0.options.0.choices.0.name", "n" * 101),
    ("a choice's localized name of 101", "0.options.0.choices.0.name_localizations.uk", "n" * 101),
    ("26 choices", "0.options.0.choices", _26_CHOICES),
    ("26 options", "0.options", _26_OPTIONS),
    ("an option type the description does not know", "0.options.0.type", 99),
]


@pytest.mark.parametrize(
    ("field", "value"),
    [case[1:] for case in COMMAND_VIOLATIONS],
    ids=[case[0] for case in COMMAND_VIOLATIONS],
)
async def test_command_violation_fails_as_on_discord(
    fake: FakeDiscord, field: str, value: Any
) -> None:
    path = f"/applications/{fake.application_id}/commands"
    status, answer = await _send(fake, "PUT", path, [_with(field, value)])
    assert (status, answer["code"]) == (400, 50035)
    node = answer["errors"]
    for part in field.split("."):
        node = node[part]
    assert node["_errors"], answer
    assert fake.commands() == {}  # the whole overwrite is refused
    status, _ = await _send(fake, "PUT", path, [_command()])
    assert status == 200 and set(fake.commands()) == {"durak"}


async def test_token_exchange_is_checked_against_the_contract(fake: FakeDiscord) -> None:
    user = fake.add_user("alice")
    form = {"client_id": str(fake.application_id), "client_secret": fake.activity.client_secret}
    async with aiohttp.ClientSession() as session:
        missing_code = dict(form, grant_type="authorization_code")
        async with session.post(fake.api_url + "/oauth2/token", data=missing_code) as r:
            assert r.status == 400 and (await r.json())["error"] == "invalid_request"
        assert [v.field for v in fake.violations] == ["code"]
        good = dict(form, grant_type="authorization_code", code=fake.activity.issue_code(user))
        async with session.post(fake.api_url + "/oauth2/token", data=good) as r:
            assert r.status == 200
    assert len(fake.violations) == 1


async def test_the_activitys_calls_to_discord_keep_the_contract(fake: FakeDiscord) -> None:
    """The Activity's three calls (bot/activity/discord_api.py) go to routes of the pinned
    description and pass it: the form-encoded token exchange, /users/@me, the instance."""
    guild = fake.add_guild()
    channel = fake.add_channel(guild)
    alice = fake.add_user("alice")
    instance_id = fake.activity.open_instance(channel, [alice])
    api = DiscordApi(fake.application_id, fake.activity.client_secret, fake.token)
    try:
        token = await api.exchange_code(fake.activity.issue_code(alice))
        assert (await api.user(token)).id == alice
        assert alice in (await api.instance(instance_id)).users
    finally:
        await api.close()
    assert fake.violations == []
    calls = [(r.method, r.path) for r in fake.requests]
    assert len(calls) == 3
    contract = pinned_contract()
    operations = [contract.operation(method, path) for method, path in calls]
    assert [op.operation_id if op else None for op in operations] == [
        "x_oauth2_token_exchange",
        "get_my_user",
        "applications_get_activity_instance",
    ]


# -- through discord.py: what the bot's library sees -------------------------------------------


class LabelBot(commands.Bot):
    """Sends one message with an over-long button label when asked."""

    def __init__(self, guild_id: int) -> None:
        super().__init__(command_prefix="!", **client_options())
        self.guild_id = guild_id
        self.errors: list[discord.HTTPException] = []
        bot = self

        @app_commands.command(name="label", description="Send an over-long label")
        async def label(interaction: discord.Interaction) -> None:
            view = discord.ui.View().add_item(discord.ui.Button(label="x" * 81, custom_id="c"))
            try:
                await interaction.response.send_message("hi", view=view)
            except discord.HTTPException as exc:
                bot.errors.append(exc)
                await interaction.response.send_message("refused")

        self.tree.add_command(label, guild=discord.Object(guild_id))

    async def setup_hook(self) -> None:
        await self.tree.sync(guild=discord.Object(self.guild_id))


async def test_discord_py_sees_discords_error_for_an_over_long_label(fake: FakeDiscord) -> None:
    guild = fake.add_guild()
    channel = fake.add_channel(guild)
    alice = fake.add_user("alice")
    bot = LabelBot(guild)
    async with fake.run_client(bot, fail_on_violations=False):
        result = await fake.slash(alice, channel, "label")
        assert result.content == "refused"
    [error] = bot.errors
    assert (error.status, error.code) == (400, 50035)
    # discord.py flattens Discord's nested errors into this line: the same as from Discord.
    assert "In data.components.0.components.0.label: Must be 80 or fewer in length." in error.text
