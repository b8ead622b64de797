"""What entrants do, and the organiser's seeds: joining (in the sign-up, in the check-in window,
or late into a running Swiss or round robin), asking for a bye, and the seeds by hand (issue
#47). The bodies of the controls that ``tournament_commands`` declares."""

from __future__ import annotations

import discord

from bot.cogs.base import loc_of
from bot.text import t
from bot.text.names import shown_name
from bot.tournaments.logic import Signup, SignupError, join
from bot.tournaments.runner.check_in import announced as check_in_announced
from bot.tournaments.storage import TournamentRecord, TournamentStatus
from bot.tournaments.storage.tournament_entrants import SEEDS

from .tournament_client import TournamentClient


async def join_tournament(
    client: TournamentClient, user: discord.User | discord.Member, tr: TournamentRecord
) -> tuple[str, dict[str, object]]:
    """``user`` joins: the answer's key and its values. In the sign-up (and its check-in
    window, where joining is checking in), or into a running Swiss or round robin while late
    entrants are taken (``TournamentRunner.late_join``)."""
    store = client.tournaments.store
    stats = await client.service.storage.user_stats(user.id, tr.guild_id)
    rating = stats.rating or 0.0
    client.event_host.known[user.id] = user.display_name
    if tr.status is TournamentStatus.RUNNING:
        first = await client.tournaments.late_join(tr.tournament_id, user.id, rating)
        return "tournament.ok.joined_late", {"round": first}
    entrants = await store.tournament_entrants(tr.tournament_id)
    # the core's rules first: the same answer as the stored refusal, with its numbers
    signup = Signup(tr.settings, tuple(e.entrant for e in entrants if not e.withdrawn))
    if tr.status is TournamentStatus.SIGNUP:
        join(signup, user.id, 0.0)
    await store.add_entrant(tr.tournament_id, user.id, rating)
    if check_in_announced(tr):  # joining in the check-in window is checking in
        await store.check_in_entrant(tr.tournament_id, user.id)
        return "tournament.ok.joined_checked_in", {}
    return "tournament.ok.joined", {}


async def ask_bye(
    client: TournamentClient, interaction: discord.Interaction, tr: TournamentRecord
) -> None:
    """A Swiss player sits out the next round (``TournamentRunner.request_bye``)."""
    rnd = await client.tournaments.request_bye(tr.tournament_id, interaction.user.id)
    text = t("tournament.ok.bye", loc_of(interaction), name=shown_name(tr.name), round=rnd)
    await interaction.response.send_message(text, ephemeral=True)


async def seed_player(
    client: TournamentClient,
    interaction: discord.Interaction,
    tr: TournamentRecord,
    user: discord.User,
    position: int,
) -> None:
    """The organiser seeds ``user`` at ``position`` (1 first) before the start: the bracket,
    a Swiss's first round and a round robin's schedule follow the seeds by hand, the others
    by rating after them. Position 0 takes the seed back (by rating again)."""
    if tr.status is not TournamentStatus.SIGNUP:
        raise SignupError("seed_started", "the tournament has started")
    store = client.tournaments.store
    entrants = await store.tournament_entrants(tr.tournament_id)
    if not any(e.user_id == user.id for e in entrants):
        raise SignupError("player_not_joined", "that player has not joined")
    stored = tr.options.get(SEEDS)
    seeds = [u for u in (stored if isinstance(stored, list) else []) if u != user.id]
    if position > len(seeds) + 1:
        raise SignupError("seed_range", "seed the players before", position=len(seeds) + 1)
    if position:
        seeds.insert(position - 1, user.id)
    tr = await store.set_tournament_options(tr.tournament_id, {SEEDS: seeds})
    client.event_host.changed(tr.tournament_id)
    order = ", ".join(f"{i}. <@{u}>" for i, u in enumerate(seeds, 1)) or "—"
    text = t("tournament.ok.seeded", loc_of(interaction), name=shown_name(tr.name), seeds=order)
    await interaction.response.send_message(
        text, ephemeral=True, allowed_mentions=discord.AllowedMentions.none()
    )
