"""The bot: a ``commands.Bot`` that opens storage, restores tables, registers the dynamic
buttons and the ``/durak`` cog. No privileged intents: slash commands and components only."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import signal
import sys
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

import aiohttp
import discord
from discord.ext import commands

import bot
import durak_core
from bot.coach.reviews import Reviews, reviews_for
from bot.coach.ui.puzzle_board import PUZZLE_ITEMS, is_puzzle_item
from bot.cogs.table_opening import ActivityTables
from bot.delivery.refresher import DiscordNotifier
from bot.durak_cog import DurakCog
from bot.gc_pacing import GcPacer
from bot.health import Health
from bot.pacing.channel_limits import GlobalLimitWatch
from bot.pacing.http_buckets import sweep_buckets_rarely
from bot.render.warm import warm_pictures
from bot.settings import Settings
from bot.storage import Storage, open_storage
from bot.tables.core import Notifier
from bot.tables.service import TableService
from bot.text import t
from bot.tournaments.messages.tournament_checkin import TOURNAMENT_ITEMS, is_tournament_item
from bot.tournaments.messages.tournament_host import DiscordEventHost
from bot.tournaments.runner.tournament_runner import TournamentRunner
from bot.ui.buttons import DYNAMIC_ITEMS, is_ours, matches_template
from bot.ui.click_dispatch import install_click_store, on_message
from bot.ui.help_text import BUILD_COMMAND
from durak_core.compiled_sources import REBUILD

if TYPE_CHECKING:
    from bot.activity.server import ActivityServer
    from bot.metrics import Metrics

log = logging.getLogger(__name__)

UNANSWERED_GRACE_SECONDS = 1.0
#: The waits between two attempts to reach Discord at start: doubling from the first to the
#: last (docs/bot.md, "When Discord cannot be reached").
FIRST_RETRY_SECONDS = 1.0
MAX_RETRY_SECONDS = 60.0
#: Discord cannot be reached: no network, no name resolution, refused, dropped or timed-out
#: connections, Discord's own 5xx answers. A retry may help; nothing in the settings would.
#: (Not every OSError: a data folder the bot may not write is the admin's to fix.)
UNREACHABLE: tuple[type[BaseException], ...] = (
    aiohttp.ClientConnectionError,
    asyncio.TimeoutError,
    discord.DiscordServerError,
    discord.GatewayNotFound,
)
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


class ReconnectLine(logging.Filter):
    """Once connected, discord.py retries a lost connection itself and logs every attempt
    with a traceback ("Attempting a reconnect in 4.32s"). The traceback says nothing an admin
    can act on: each attempt becomes one warning line with the reason, as at start
    (docs/bot.md, "When Discord cannot be reached")."""

    def filter(self, record: logging.LogRecord) -> bool:
        msg = str(record.msg)
        if not msg.startswith("Attempting a reconnect") or not record.exc_info:
            return True
        exc = record.exc_info[1]
        reason = _reason(exc) if exc is not None else "connection lost"
        *shard, retry = record.args if isinstance(record.args, tuple) else (record.args,)
        where = f"shard {shard[0]} " if shard else ""
        record.msg = "%slost the connection to Discord: %s, reconnecting in %.0f s"
        record.args = (where, reason, retry)
        record.exc_info = record.exc_text = None
        record.levelno, record.levelname = logging.WARNING, "WARNING"
        return True


def quiet_reconnects() -> None:
    """Install :class:`ReconnectLine` on discord.py's loggers that retry (once per process)."""
    for name in ("discord.client", "discord.shard"):
        logger = logging.getLogger(name)
        if not any(isinstance(f, ReconnectLine) for f in logger.filters):
            logger.addFilter(ReconnectLine())


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
        # The bot never joins a voice channel: discord.py's warnings at every start that the
        # voice libraries (PyNaCl, davey) are missing say nothing an admin should act on.
        discord.VoiceClient.warn_nacl = False
        discord.VoiceClient.warn_dave = False
        quiet_reconnects()
        intents = discord.Intents.none()
        intents.guilds = True  # channels and threads; members/messages/presences not needed
        #: Uptime, answer times, 429s, the last error id (``/durak status``, ``bot/metrics.py``).
        self.health = Health()
        options.setdefault("http_trace", self.health.trace_config())
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents,
            help_command=None,
            # Every send and edit states it: no ping unless the call names its users (turn
            # alerts, tournament calls, the organiser in a notice); never everyone or roles.
            allowed_mentions=discord.AllowedMentions.none(),
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
        #: The Prometheus endpoint, when METRICS_PORT is set.
        self.metrics: Metrics | None = None
        self._reviews: Reviews | None = None

    @property
    def reviews(self) -> Reviews:
        """The coach's game reviews and hints (made on first use): worker processes of their
        own, so that they never queue in front of a table's AI move."""
        if self._reviews is None:
            self._reviews = reviews_for(
                self.settings.ai_processes, self.settings.ai_budget_iterations
            )
        return self._reviews

    async def setup_hook(self) -> None:
        self._log_build()
        await asyncio.to_thread(warm_pictures)  # before the gateway: no one waits for it
        # DATABASE_URL picks the backend; with shards, only this process's guilds' tables
        # come back from load_tables, so two processes never resume the same table.
        storage = self._storage or await open_storage(
            self.settings.storage_url, shards=self.settings.shard_scope
        )
        self._storage = storage
        notifier = self._notifiers(storage)
        if self._clock is None:
            self.service = TableService(storage, self.settings, notifier)
        else:
            self.service = TableService(storage, self.settings, notifier, self._clock)
        self.notifier.save_ids = self.service.save_locked
        self.health.watch(ai=self.service.ai, saves=self.service.saves, storage=storage)
        if self.settings.metrics_port is not None:
            self._serve_metrics(self.settings.metrics_host, self.settings.metrics_port)
        self.event_host = DiscordEventHost(self, self.notifier.limits, storage)
        self.event_host.prefs = self.notifier.alerts.prefs  # reminders follow notify:
        self.tournaments = TournamentRunner(self.service, self.event_host)
        await self._add_commands()
        for table in await self.service.restore():
            log.info("restored table %s (%s)", table.table_id, table.status)
            self.notifier.table_changed(table, actor=None)
        await self.tournaments.resume()  # after the tables: a round goes on with its tables
        if self.activity_server is not None:
            await self.activity_server.start(self.service)

    def _log_build(self) -> None:
        # The AI thinks with ~4x the playouts when the engine is compiled (docs/performance.md).
        log.info("durak_core compiled: %s", "yes" if durak_core.COMPILED else "no")
        edited = durak_core.EDITED_SINCE_BUILD + bot.EDITED_SINCE_BUILD
        if edited:  # their groups run as Python (durak_core.compiled_sources)
            log.warning(
                "edited since the install compiled them, so they run as Python (slower): %s; "
                "compile them again with `%s`",
                ", ".join(edited),
                REBUILD,
            )

    def _notifiers(self, storage: Storage) -> Notifier:
        """Discord's notifier (``self.notifier``) and, with the Activity on, the browsers'
        beside it: what the table service tells of every change."""
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
        if not self.settings.activity_enabled:
            return self.notifier
        # browsers hear of every change the chat does
        from bot.activity.listeners import TableListeners
        from bot.activity.server import ActivityServer

        self.activity_server = ActivityServer(
            self.settings, pace=self.notifier.limits.budget.acquire
        )
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
        return TableListeners(self.notifier, self.activity_server.hub)

    async def _add_commands(self) -> None:
        """The cog, its clicks and commands (synced when asked), and the Activity's opener."""
        install_click_store(self)  # our clicks skip discord.py's view of the clicked message
        self.add_dynamic_items(*DYNAMIC_ITEMS, *TOURNAMENT_ITEMS, *PUZZLE_ITEMS)
        cog = DurakCog(self)
        await self.add_cog(cog)
        for command in cog.own_commands():
            self.tree.add_command(command)
        self.clicks = cog
        if self.activity_server is not None:  # a browser opens a table as /durak new does
            self.activity_server.opener = ActivityTables(self)
        if self.sync_on_setup:
            n = await self.sync_commands(self.sync_guild)
            log.info("synced %d command(s) to %s", n, self.sync_guild or "all guilds")

    def _serve_metrics(self, host: str, port: int) -> None:
        """The Prometheus endpoint (METRICS_PORT); prometheus-client is imported only then."""
        from bot.metrics import Metrics

        def state() -> tuple[list[str], int]:
            sockets = 0 if self.activity_server is None else len(self.activity_server.hub)
            return [str(table.status) for table in self.service.registry], sockets

        metrics = Metrics(self.health, asyncio.get_running_loop(), state)
        try:
            metrics.serve(host, port)
        except OSError as exc:  # the port taken, say: the bot plays on without metrics
            log.error("cannot serve metrics on %s:%d (%s); check METRICS_PORT", host, port, exc)
            return
        self.metrics = metrics
        log.info("metrics at http://%s:%d/metrics", host, port)

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

    async def on_ready(self) -> None:
        """What an admin who starts the bot waits for (README, "First run")."""
        log.info("ready: logged in as %s, in %d server(s)", self.user, len(self.guilds))

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """Answer our component clicks that no DynamicItem will: a custom_id that matches no
        template or is not on the clicked message (forged), so the user gets a reason."""
        self.health.interaction_started(interaction.id, interaction_kind(interaction))
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
        ours = (
            matches_template(custom_id)
            or is_tournament_item(custom_id)
            or is_puzzle_item(custom_id)
        )
        if ours and clicked:
            return
        if not interaction.response.is_done():
            await interaction.response.send_message(
                t("err.forged", str(interaction.locale)), ephemeral=True
            )

    async def close(self) -> None:
        if self.metrics is not None:
            await asyncio.to_thread(self.metrics.close)
            self.metrics = None
        if self.activity_server is not None:
            await self.activity_server.stop()
        if self._limit_watch is not None:
            self._limit_watch.remove()
        if hasattr(self, "tournaments"):
            await self.tournaments.close()
            await self.event_host.close()
        if self._reviews is not None:
            await self._reviews.close()
            self._reviews = None
        if hasattr(self, "service"):
            await self.service.close()
            await self.notifier.close()
        if self._storage is not None:
            await self._storage.close()
            self._storage = None
        await super().close()


def interaction_kind(interaction: discord.Interaction) -> str:
    """What an interaction was, for its timing: ``/durak new`` and the like, ``component``,
    ``modal_submit``, ``autocomplete``."""
    data: Any = interaction.data or {}
    if interaction.type is discord.InteractionType.application_command:
        words = [str(data.get("name", "?"))]
        options = data.get("options") or []
        while options and int(options[0].get("type", 0)) in (1, 2):  # subcommand (group)
            words.append(str(options[0].get("name", "?")))
            options = options[0].get("options") or []
        return "/" + " ".join(words)
    return interaction.type.name


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
    one line when Discord rejects the token. While Discord cannot be reached (no network,
    Discord down), one line per attempt and another attempt after a doubling wait."""
    token = settings.discord_token.get_secret_value()
    pacer = quiet_gc()
    stop = asyncio.Event()
    delay = FIRST_RETRY_SECONDS
    try:
        with stop_on_signals(stop):
            while True:
                try:
                    return await _run_once(settings, token, stop, sync=sync, sync_guild=sync_guild)
                except UNREACHABLE as exc:
                    log.warning("cannot reach Discord: %s, retrying in %g s", _reason(exc), delay)
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(stop.wait(), delay)
                    return 0  # stopped while waiting to retry
                delay = min(delay * 2, MAX_RETRY_SECONDS)
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


@contextlib.contextmanager
def stop_on_signals(stop: asyncio.Event) -> Iterator[None]:
    """While inside: SIGINT (Ctrl-C) and SIGTERM (systemd's stop) set ``stop``, on which the bot
    closes itself. Not asyncio.Runner's own Ctrl-C, which cancels the main task: Python 3.11's
    ``wait_for`` loses a cancellation that arrives as its awaitable completes (discord.py waits
    for the gateway with it), and the bot then ran on after Ctrl-C."""
    loop = asyncio.get_running_loop()
    handled = []
    for sig in (signal.SIGINT, signal.SIGTERM):
        try:
            loop.add_signal_handler(sig, stop.set)
        except (NotImplementedError, RuntimeError, ValueError):  # not POSIX, not the main thread
            continue
        handled.append(sig)
    try:
        yield
    finally:
        for sig in handled:
            loop.remove_signal_handler(sig)


async def _run_once(
    settings: Settings, token: str, stop: asyncio.Event, *, sync: bool, sync_guild: int | None
) -> int:
    """One attempt with a new bot (a closed one cannot log in again), until it ends or
    ``stop`` is set."""
    bot = make_bot(settings, sync=sync, sync_guild=sync_guild)
    async with bot:
        if sync:
            await bot.login(token)  # runs setup_hook, which syncs
            return 0
        running = asyncio.create_task(bot.start(token), name="durak-bot")
        stopping = asyncio.create_task(stop.wait(), name="durak-stop")
        await asyncio.wait({running, stopping}, return_when=asyncio.FIRST_COMPLETED)
        stopping.cancel()
        if stop.is_set():
            log.info("stopping: closing the connection to Discord")
            await bot.close()
        await running  # its outcome: returns once closed, or raises why it could not run
    return 0


def _reason(exc: BaseException) -> str:
    """One line saying why Discord could not be reached (never the token: no error here
    carries it)."""
    if isinstance(exc, asyncio.TimeoutError):
        return "timed out"
    text = " ".join(str(exc).split())
    return text or type(exc).__name__
