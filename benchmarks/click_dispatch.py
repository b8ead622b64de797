"""What a click costs discord.py before the bot's handler runs: from the gateway's
INTERACTION_CREATE payload of a click on a hand button to the handler's call.

Usage: python -m benchmarks.click_dispatch [--clicks N] [--repeat R] [--buttons B]

In-process, no network: a ``discord.Client``'s connection state parses the payload
(``parse_interaction_create``, as the gateway hands it on) with the bot's dynamic items
registered, and a stand-in handler notes the call. The clicked message is an ephemeral hand of
``--buttons`` hand buttons (five to a row). Two paths: discord.py's own (``ViewStore``: a
``View.from_message`` of the clicked message per click) and the bot's (``ClickStore``,
bot/ui/click_dispatch.py); and, apart, the parse of the interaction alone (with the clicked
message) and ``View.from_message`` alone. Prints µs per click, best of R runs of N clicks
(CPU time of this process, which does nothing else); JSON on the last line.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import platform
import time
from collections.abc import Callable
from typing import Any, cast

import discord
from discord.ui.view import ViewStore

from bot.ui.buttons import DYNAMIC_ITEMS, hand_button_id
from bot.ui.click_dispatch import ClickStore

TABLE, SEAT, VERSION = "0123abcd", 1, 42
CHANNEL: Any = {"id": "400", "type": 0, "guild_id": "600", "name": "durak", "position": 0}
BOT_USER: Any = {
    "id": "100",
    "username": "durak",
    "discriminator": "0",
    "avatar": None,
    "bot": True,
}


class Clicks:
    """The handler the items hand a click to: it only notes the call."""

    def __init__(self) -> None:
        self.done: asyncio.Future[None] | None = None

    async def on_hand_click(self, *args: Any) -> None:
        assert self.done is not None
        self.done.set_result(None)


class Client(discord.Client):
    clicks: Clicks


def click_payload(n: int) -> Any:
    """A click on the first button of an ephemeral hand message of ``n`` buttons, as Discord
    sends it."""
    buttons_json = [
        {"type": 2, "style": 2, "label": f"{code}♠", "custom_id": i}
        for code, i in enumerate(hand_button_id(TABLE, SEAT, VERSION, str(c)) for c in range(n))
    ]
    rows = [{"type": 1, "components": buttons_json[k : k + 5]} for k in range(0, n, 5)]
    user = {"id": "200", "username": "alice", "discriminator": "0", "avatar": None}
    message = {
        "id": "300",
        "channel_id": "400",
        "type": 0,
        "author": BOT_USER,
        "content": "Your hand: " + "A♠ " * 12 + "\nTrump: ♥ · your turn to defend",
        "timestamp": "2026-12-02T07:00:00.000000+00:00",
        "edited_timestamp": None,
        "tts": False,
        "mention_everyone": False,
        "mentions": [],
        "mention_roles": [],
        "attachments": [],
        "embeds": [],
        "pinned": False,
        "flags": 64,
        "components": rows,
    }
    return {
        "id": "500",
        "application_id": "100",
        "type": 3,
        "data": {"custom_id": buttons_json[0]["custom_id"], "component_type": 2},
        "token": "token",
        "version": 1,
        "channel_id": "400",
        "channel": CHANNEL,
        "guild_id": "600",
        "guild": {"id": "600", "locale": "en-US", "features": []},
        "guild_locale": "en-US",
        "locale": "en-US",
        "member": {
            "user": user,
            "roles": [],
            "joined_at": "2026-01-01T00:00:00.000000+00:00",
            "deaf": False,
            "mute": False,
            "flags": 0,
            "permissions": "2048",
        },
        "app_permissions": "2048",
        "entitlements": [],
        "attachment_size_limit": 10_485_760,
        "authorizing_integration_owners": {"0": "600"},
        "context": 0,
        "message": message,
    }


async def clicks_per_run(state: Any, clicks: Clicks, payload: dict[str, Any], n: int) -> float:
    """Seconds for ``n`` clicks, each from its payload to the handler's call."""
    loop = asyncio.get_running_loop()
    start = time.process_time()
    for _ in range(n):
        clicks.done = loop.create_future()
        state.parse_interaction_create(payload)
        await clicks.done
    return time.process_time() - start


def timed(step: Callable[[], object], n: int) -> float:
    start = time.process_time()
    for _ in range(n):
        step()
    return time.process_time() - start


async def measure(args: argparse.Namespace) -> dict[str, Any]:
    client = Client(intents=discord.Intents.none())
    client.clicks = Clicks()
    state: Any = client._connection
    state.user = discord.ClientUser(state=state, data=BOT_USER)
    # the guild and its channel cached, as the bot has them (intents.guilds)
    guild = discord.Guild(data=cast(Any, {"id": "600", "name": "club"}), state=state)
    guild._add_channel(discord.TextChannel(state=state, guild=guild, data=CHANNEL))
    state._add_guild(guild)
    payload = click_payload(args.buttons)
    micros: dict[str, float] = {}
    for name, store_type in (("discord_py", ViewStore), ("click_store", ClickStore)):
        state._view_store = store_type(state)
        state._view_store.add_dynamic_items(*DYNAMIC_ITEMS)
        await clicks_per_run(state, client.clicks, payload, args.clicks // 10 or 1)  # warm up
        runs = [
            await clicks_per_run(state, client.clicks, payload, args.clicks)
            for _ in range(args.repeat)
        ]
        best = min(runs)
        micros[name] = best / args.clicks * 1e6
    interaction = discord.Interaction(data=payload, state=state)
    assert interaction.message is not None
    message = interaction.message
    for name, step in (
        ("interaction_parse", lambda: discord.Interaction(data=payload, state=state)),
        ("view_from_message", lambda: discord.ui.View.from_message(message, timeout=None)),
    ):
        micros[name] = min(timed(step, args.clicks) for _ in range(args.repeat)) / args.clicks * 1e6
    await client.close()
    return micros


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--clicks", type=int, default=5000)
    p.add_argument("--repeat", type=int, default=5)
    p.add_argument("--buttons", type=int, default=17, help="hand buttons on the clicked message")
    args = p.parse_args()
    micros = asyncio.run(measure(args))
    for name, us in micros.items():
        print(f"{name:>18}: {us:7.1f} µs per click")
    saved = micros["discord_py"] - micros["click_store"]
    print(f"saved per click: {saved:.1f} µs ({saved / micros['discord_py']:.0%})")
    out = {
        "python": platform.python_version(),
        "discord_py": discord.__version__,
        "buttons": args.buttons,
        "clicks": args.clicks,
        "repeat": args.repeat,
        "us_per_click": {k: round(v, 2) for k, v in micros.items()},
    }
    print(json.dumps(out))


if __name__ == "__main__":
    main()
