"""The fake Discord serves sharded clients: each shard sees only its guilds' events."""

from __future__ import annotations

import discord

from tests.fake_discord import FakeDiscord
from tests.fake_discord.gateway import shard_of


def two_guilds(fake: FakeDiscord) -> tuple[int, int]:
    """Guilds on shard 0 and shard 1 of 2 (ids are time-based, so add until both exist)."""
    by_shard: dict[int, int] = {}
    while len(by_shard) < 2:
        g = fake.add_guild(f"guild-{len(fake.store.guilds)}")
        by_shard.setdefault(shard_of(g, 2), g)
    return by_shard[0], by_shard[1]


async def test_two_sharded_clients_split_the_guilds(fake_discord: FakeDiscord) -> None:
    g0, g1 = two_guilds(fake_discord)
    seen: dict[int, list[int]] = {0: [], 1: []}
    clients = []
    for shard in (0, 1):
        client = discord.AutoShardedClient(
            intents=discord.Intents.none(), shard_count=2, shard_ids=[shard],
            guild_ready_timeout=0.05,
        )  # fmt: skip

        async def on_guild_update(
            before: discord.Guild, after: discord.Guild, s: int = shard
        ) -> None:
            seen[s].append(after.id)

        client.event(on_guild_update)
        clients.append(client)
    async with fake_discord.run_client(clients[0]), fake_discord.run_client(clients[1]):
        assert {g.id for g in clients[0].guilds} == {
            g for g in fake_discord.store.guilds if shard_of(g, 2) == 0
        }
        assert g1 not in {g.id for g in clients[0].guilds}
        assert {g.id for g in clients[1].guilds} == {
            g for g in fake_discord.store.guilds if shard_of(g, 2) == 1
        }
        assert [s.id for s in clients[1].shards.values()] == [1]
        # A guild event reaches only the process holding that guild's shard.
        for g in (g0, g1):
            guild = fake_discord.store.guilds[g]
            await fake_discord.gateway.dispatch("GUILD_UPDATE", {"id": str(g), "name": guild.name})
        await fake_discord.wait_for(lambda: seen[0] == [g0] and seen[1] == [g1])
