"""The Prometheus endpoint (``METRICS_PORT``), scraped during a game: the interaction histogram
counts the slash commands by kind, the tables gauge the game in play and the lobby beside it,
Discord's requests are there by route, and the endpoint goes away with the bot."""

from __future__ import annotations

import asyncio
import socket
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from prometheus_client.parser import text_string_to_metric_families

from tests.bot.helpers import open_table, running_bot, world


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def scrape(port: int) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=10) as answer:
        text = answer.read().decode()
    return {
        (s.name, tuple(sorted(s.labels.items()))): s.value
        for family in text_string_to_metric_families(text)
        for s in family.samples
    }


@pytest.mark.slow
async def test_metrics_scraped_during_a_game(tmp_path: Path) -> None:
    port = free_port()
    async with world(tmp_path) as w, running_bot(w, metrics_port=port) as bot:
        other = w.fake.add_channel(w.guild, "second")
        await open_table(w, bot, [w.alice, w.bob], w.channel, ai_seats=1)
        await w.fake.slash(w.carol, other, "durak", "new")  # a lobby beside the game
        # scraped from a thread, as Prometheus would, while the bot's loop runs
        found = await asyncio.to_thread(scrape, port)

        assert found[("durak_tables", (("status", "running"),))] == 1
        assert found[("durak_tables", (("status", "lobby"),))] == 1
        kinds = {
            dict(labels)["kind"]: value
            for (name, labels), value in found.items()
            if name == "durak_interaction_seconds_count"
        }
        assert kinds["/durak new"] == 2
        assert kinds["/durak join"] == 1
        assert kinds["/durak start"] == 1
        buckets = [
            value
            for (name, labels), value in found.items()
            if name == "durak_interaction_seconds_bucket"
            and dict(labels) == {"kind": "/durak new", "le": "+Inf"}
        ]
        assert buckets == [2]
        callbacks = [
            labels
            for (name, labels), value in found.items()
            if name == "durak_discord_request_seconds_count"
            and dict(labels)["route"] == "/interactions/{id}/{token}/callback"
        ]
        assert callbacks, "interaction answers are counted by route, without their token"
        assert w.fake.token not in str(found)
        assert found[("durak_activity_sockets", ())] == 0
    with pytest.raises(urllib.error.URLError):  # closed with the bot
        await asyncio.to_thread(scrape, port)
