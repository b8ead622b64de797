"""The bot: a ``commands.Bot`` that opens storage, restores tables, registers the dynamic
buttons and the ``/durak`` cog. No privileged intents: slash commands and components only."""

from __future__ import annotations

import asyncio
import gc
import logging
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import discord
from discord.ext import commands

import durak_core
from bot.cogs.durak import DurakCog
from bot.cogs.table_opening import ActivityTables
from bot.compiled_twins import stale_twins
from bot.events.runner import TournamentRunner
from bot.gc_pacing import GcPacer
from bot.render.warm import warm_pictures
from bot.settings import Settings
from bot.storage import Storage, open_storage
from bot.tables.core import Notifier
from bot.tables.service import TableService
from bot.text import t
from bot.ui.buttons import DYNAMIC_ITEMS, is_ours, matches_template
from bot.ui.channel_limits import GlobalLimitWatch
from bot.ui.click_dispatch import install_click_store, on_message
from bot.ui.help_text import BUILD_COMMAND
from bot.ui.http_buckets import sweep_buckets_rarely
from bot.ui.refresher import DiscordNotifier
from bot.ui.tournament_checkin import TOURNAMENT_ITEMS, is_tournament_item
from bot.ui.tournament_host import DiscordEventHost

if TYPE_CHECKING:
    from bot.activity.server import ActivityServer

log = logging.getLogger(__name__)

UNANSWERED_GRACE_SECONDS = 1.0
#: Application command type PRIMARY_ENTRY_POINT (the Activity's "Launch"), and what of it a
#: bulk overwrite sends back (the id keeps it the same command).
ENTRY_POINT = 4
ENTRY_POINT_FIELDS = frozenset(
    (
        "id",
        "type",
        "name",
        "name_localizations",
        "description",
        "description_localizations",
        "handler",
        "integration_types",
        "contexts",
        "default_member_permissions",
        "nsfw",
    )
)


class DurakBot(commands.Bot):
    service: TableService
    notifier: DiscordNotifier
    tournaments: TournamentRunner
    event_host: DiscordEventHost

    def __init__(
        self,
        settings: Settings,
        *,
        sync: bool = False,
        sync_guild: int | None = None,
        storage: Storage | None = None,
        clock: Callable[[], float] | None = None,
        **options: Any,
    ) -> None:
        intents = discord.Intents.none()
        intents.guilds = True  # channels and threads; members/messages/presences not needed
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents,
            help_command=None,
            **options,
        )
        self.settings = settings
        self.sync_on_setup = sync
        self.sync_guild = sync_guild
        self._storage = storage
        self._clock = clock  # tests inject a fake clock for timers and timeouts
        self.clicks: Any = None
        self._limit_watch: GlobalLimitWatch | None = None
        #: How long a click with an id not in our formats may wait for another handler.
        self.unanswered_grace = UNANSWERED_GRACE_SECONDS
        #: The Activity's web server (docs/activity.md), when ACTIVITY_ENABLED.
        self.activity_server: ActivityServer | None = None
        #: None when the Activity is off, else whether its browser client is built.
        self.activity_built: bool | None = None

    async def setup_hook(self) -> None:
        # The AI thinks with ~4x the playouts when the engine is compiled (docs/performance.md).
        log.info("durak_core compiled: %s", "yes" if durak_core.COMPILED else "no")
        stale = stale_twins(Path(__file__).resolve().parents[1])
        if stale:
            log.warning(
                "edited since the last build, so their old compiled code still runs: %s; "
                "rebuild with `python -m pip install -e .` (or install with DURAK_PURE_PYTHON=1 "
                "while editing them)",
                ", ".join(stale),
            )

        await asyncio.to_thread(warm_pictures)  # before the gateway: no one waits for it
        # DATABASE_URL picks the backend; with shards, only this process's guilds' tables
        # come back from load_tables, so two processes never resume the same table.
        storage = self._storage or await open_storage(
            self.settings.storage_url, shards=self.settings.shard_scope
        )
        self._storage = storage
        self.notifier = DiscordNotifier(
            self,
            self.settings.table_edit_interval_seconds,
            hand_idle_interval=self.settings.hand_idle_refresh_seconds,
            requests_per_second=self.settings.discord_requests_per_second,
            notify_delay=self.settings.turn_notify_delay_seconds,
            picture_interval=self.settings.table_picture_interval_seconds,
            pictures_per_second=self.settings.table_pictures_per_second,
        )
        self.notifier.alerts.prefs.storage = storage
        self._limit_watch = GlobalLimitWatch.install(self.notifier.limits.budget)
        sweep_buckets_rarely(self.http)
        notifier: Notifier = self.notifier
        if self.settings.activity_enabled:  # browsers hear of every change the chat does
            from bot.activity.listeners import TableListeners
            from bot.activity.server import ActivityServer

            self.activity_server = ActivityServer(
                self.settings, pace=self.notifier.limits.budget.acquire
            )
            notifier = TableListeners(self.notifier, self.activity_server.hub)
            self.activity_built = self.activity_server.client_built
            # the table message offers "Play at the table" only where there is a table to open
            self.notifier.activity_launch = self.activity_built
            if not self.activity_built:
                log.warning(
                    "the Activity is enabled but its client is not built (%s has no index.html): "
                    "tables are played with the buttons; to build it: %s, then restart",
                    self.activity_server.client_dir,
                    BUILD_COMMAND,
                )
        if self._clock is None:
            self.service = TableService(storage, self.settings, notifier)
        else:
            self.service = TableService(storage, self.settings, notifier, self._clock)
        self.notifier.save_ids = self.service.save_locked
        self.event_host = DiscordEventHost(self, self.notifier.limits, storage)
        self.event_host.prefs = self.notifier.alerts.prefs  # reminders follow notify:
        self.tournaments = TournamentRunner(self.service, self.event_host)
        install_click_store(self)  # our clicks skip discord.py's view of the clicked message
        self.add_dynamic_items(*DYNAMIC_ITEMS, *TOURNAMENT_ITEMS)
        cog = DurakCog(self)
        await self.add_cog(cog)
        self.clicks = cog
        if self.activity_server is not None:  # a browser opens a table as /durak new does
            self.activity_server.opener = ActivityTables(self)
        if self.sync_on_setup:
            n = await self.sync_commands(self.sync_guild)
            log.info("synced %d command(s) to %s", n, self.sync_guild or "all guilds")
        for table in await self.service.restore():
            log.info("restored table %s (%s)", table.table_id, table.status)
            self.notifier.table_changed(table, actor=None)
        await self.tournaments.resume()  # after the tables: a round goes on with its tables
        if self.activity_server is not None:
            await self.activity_server.start(self.service)

    async def sync_commands(self, guild_id: int | None) -> int:
        """Register the commands: in one guild (instant) or globally (may take an hour)."""
        if guild_id is None:
            return await self._sync_global()
        guild = discord.Object(guild_id)
        self.tree.copy_global_to(guild=guild)
        return len(await self.tree.sync(guild=guild))

    async def _sync_global(self) -> int:
        """A global sync is a bulk overwrite. An app with Activities has a "Launch" entry point
        command (type 4), which discord.py does not know (its command types stop at 3), and
        Discord refuses an overwrite that leaves it out (docs/activity.md, "Launching"): it is
        sent back as Discord holds it, with our commands."""
        app_id = self.application_id
        assert app_id is not None
        held = await self.http.get_global_commands(app_id)
        kept: list[Any] = [
            {k: v for k, v in c.items() if k in ENTRY_POINT_FIELDS}
            for c in held
            if int(c.get("type", 1)) == ENTRY_POINT
        ]
        if not kept:
            return len(await self.tree.sync())
        translator = self.tree.translator
        ours: list[Any] = []
        for command in self.tree.get_commands():
            if translator is None:
                ours.append(command.to_dict(self.tree))
            else:
                ours.append(await command.get_translated_payload(self.tree, translator))
        synced = await self.http.bulk_upsert_global_commands(app_id, payload=ours + kept)
        return len(synced) - len(kept)

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """Answer our component clicks that no DynamicItem will: a custom_id that matches no
        template or is not on the clicked message (forged), so the user gets a reason."""
        if interaction.type is not discord.InteractionType.component:
            return
        data: Any = interaction.data or {}
        custom_id = str(data.get("custom_id", ""))
        if not is_ours(custom_id):
            # Not one of our formats, yet on a message of ours (forged, or from an old release):
            # if no view answers it shortly, the user still gets a reason, not "failed".
            await asyncio.sleep(self.unanswered_grace)
            if not interaction.response.is_done():
                await interaction.response.send_message(
                    t("err.forged", str(interaction.locale)), ephemeral=True
                )
            return
        clicked = on_message(interaction.message, int(data.get("component_type", 0)), custom_id)
        if (matches_template(custom_id) or is_tournament_item(custom_id)) and clicked:
            return
        if not interaction.response.is_done():
            await interaction.response.send_message(
                t("err.forged", str(interaction.locale)), ephemeral=True
            )

    async def close(self) -> None:
        if self.activity_server is not None:
            await self.activity_server.stop()
        if self._limit_watch is not None:
            self._limit_watch.remove()
        if hasattr(self, "tournaments"):
            await self.tournaments.close()
            await self.event_host.close()
        if hasattr(self, "service"):
            await self.service.close()
            await self.notifier.close()
        if self._storage is not None:
            await self._storage.close()
            self._storage = None
        await super().close()


class ShardedDurakBot(DurakBot, commands.AutoShardedBot):
    """The same bot over several gateway shards in one process (discord.py's sharding)."""


def make_bot(settings: Settings, **kwargs: Any) -> DurakBot:
    """A ``DurakBot``, or with ``SHARD_COUNT`` set a ``ShardedDurakBot`` that runs
    ``SHARD_IDS`` (default: every shard) of ``SHARD_COUNT``."""
    if settings.shard_count is None:
        return DurakBot(settings, **kwargs)
    ids = list(settings.shard_ids) if settings.shard_ids is not None else None
    return ShardedDurakBot(settings, shard_count=settings.shard_count, shard_ids=ids, **kwargs)


def quiet_gc() -> GcPacer:
    """Fewer, shorter garbage-collection pauses: everything loaded at start (modules,
    discord.py) is frozen out of the cyclic collector, and its passes are paced by the clock
    (``bot/gc_pacing.py``). Under load a full collection of the unfrozen heap stopped the event
    loop for ~0.1 s. Call on the running loop; stop the returned pacer at the end."""
    gc.collect()
    gc.freeze()
    pacer = GcPacer()
    pacer.start()
    return pacer


async def run_bot(settings: Settings, *, sync: bool = False, sync_guild: int | None = None) -> int:
    """Run until stopped (or, with ``sync``, register the commands and exit). Exit code 2 with
    one line when Discord rejects the token."""
    token = settings.discord_token.get_secret_value()
    bot = make_bot(settings, sync=sync, sync_guild=sync_guild)
    pacer = quiet_gc()
    try:
        async with bot:
            if sync:
                await bot.login(token)  # runs setup_hook, which syncs
                return 0
            await bot.start(token)
    except discord.LoginFailure:
        print(
            "error: Discord rejected DISCORD_TOKEN (401 Unauthorized); check the token in "
            ".env or the environment.",
            file=sys.stderr,
        )
        return 2
    except discord.PrivilegedIntentsRequired:  # pragma: no cover - we request none
        print("error: Discord refused the gateway intents.", file=sys.stderr)
        return 2
    finally:
        pacer.stop()
    return 0
