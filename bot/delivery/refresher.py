"""Keeps a table's Discord messages in step with its state, within Discord's limits.

- The public table message (and the lobby) is edited by one coalescing task per table: at most
  one edit per ``interval``, rendering the latest state when it runs, so bursts collapse.
- Ephemeral hands can only be edited through the owner's interaction webhook: we keep each
  player's latest interaction and refresh through it while its token lives (15 minutes);
  afterwards the public message asks the player to press "My hand" again.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import time
from collections.abc import Awaitable, Callable, Coroutine, Hashable
from dataclasses import dataclass, field
from typing import Any

import discord

from bot.domain import TableStatus
from bot.pacing.channel_limits import ChannelLimiter, DrawBudget, RequestBudget
from bot.pacing.coalescer import Coalescer
from bot.tables.table import Table
from bot.ui.hand_view import HandMessage, offers, table_hand
from bot.ui.lobby import render_lobby, render_lobby_done
from bot.ui.table_embed import render_closed, render_table
from bot.ui.table_picture import table_file, table_picture
from durak_core import Card

from .interaction_limits import answer_lost
from .message_writes import edit_channel_message, edit_interaction_answer
from .turn_alerts import TurnAlerts

log = logging.getLogger(__name__)

TOKEN_LIFETIME = 15 * 60
TOKEN_MARGIN = 30  # stop using a token a little early: an edit in flight must still land


def updates_until(interaction: discord.Interaction) -> float:
    """Unix time until which a message answered through ``interaction`` can be edited (its
    token's lifetime, less the margin we keep)."""
    return interaction.created_at.timestamp() + TOKEN_LIFETIME - TOKEN_MARGIN


#: "Which picture this message shows" when the bot does not know (a restart, an edit that
#: may have raced another): the next edit uploads the picture again.
UNKNOWN_PICTURE = object()


@dataclass
class HandLink:
    """A player's latest interaction: the only way to edit their ephemeral hand."""

    interaction: discord.Interaction
    opened: float  # monotonic time of the interaction
    focus: Card | None = None
    shown_version: int = -1
    #: The hand message this link edits, once known, and the picture it shows.
    message_id: int | None = None
    picture: object = UNKNOWN_PICTURE
    #: What the shown hand offers (``hand_view.offers``; None: unknown).
    shown_offers: Hashable = None


@dataclass
class _TableMessages:
    public: Coalescer
    hands: dict[int, Coalescer] = field(default_factory=dict)
    shown_public: int = -1
    #: What the running table's message shows: (version, "press My hand" names, picture).
    shown_table: tuple[int, tuple[str, ...], object] | None = None
    #: The picture the table message shows (see ``table_picture``).
    picture: object = UNKNOWN_PICTURE
    #: Monotonic time of the last new picture, and whether a catch-up edit is scheduled.
    picture_at: float = -math.inf
    catching_up: bool = False


class DiscordNotifier:
    def __init__(
        self,
        client: discord.Client,
        interval: float,
        *,
        hand_idle_interval: float = 0.0,
        requests_per_second: float = 0.0,
        notify_delay: float = 0.0,
        picture_interval: float = 0.0,
        pictures_per_second: float = 0.0,
    ) -> None:
        self.client = client
        self.interval = interval
        #: Minimum seconds between two refreshes of a hand whose buttons stay the same.
        self.hand_idle_interval = hand_idle_interval
        #: Minimum seconds between two new pictures of a table message (``Settings``).
        self.picture_interval = picture_interval
        #: New table pictures a second across all tables (``Settings``): past it they lag more.
        self.draw_budget = DrawBudget(pictures_per_second)
        self._tables: dict[str, _TableMessages] = {}
        self.links: dict[tuple[str, int], HandLink] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        #: Saves message ids under the table lock (set by the bot: it owns the service).
        self.save_ids: Callable[[Table], Awaitable[None]] | None = None
        #: Paces message writes per channel and in all (Discord's limits), shared with
        #: turn_alerts.
        self.limits = ChannelLimiter(interval, RequestBudget(requests_per_second))
        #: Turn notifications (mention or DM), retired when obsolete.
        self.alerts = TurnAlerts(client, self.limits, notify_delay)
        #: Whether a guild shows cards as pictures (`/durak settings images:`); on by default.
        self.images: dict[int, bool] = {}
        #: Whether table messages offer "Play at the table" (the Activity is on and built).
        self.activity_launch = False

    def images_on(self, guild_id: int) -> bool:
        return self.images.get(guild_id, True)

    async def table_message(
        self, table: Table
    ) -> tuple[discord.Embed, discord.ui.View, list[discord.File], Hashable | None]:
        """The public table message: embed, buttons, (pictures on) the table picture and what
        it shows (see ``table_picture``)."""
        images = self.images_on(table.guild_id)
        embed, rows = render_table(
            table, press_hand=self.press_hand(table), images=images, launch=self.activity_launch
        )
        view = rows.as_view()  # a new message: discord.py keeps its view
        if not images:
            return embed, view, [], None
        picture = table_picture(table)
        return embed, view, [await table_file(picture)], picture

    # -- Notifier protocol ---------------------------------------------------------------

    def table_changed(self, table: Table, *, actor: int | None) -> None:
        self._messages(table).public.mark()
        if table.status in (TableStatus.RUNNING, TableStatus.FINISHED):
            for user in table.humans:
                if user != actor:
                    self._hand(table, user).mark(lazy=self._same_buttons(table, user))
        self.alerts.update(table)

    def game_started(self, table: Table) -> None:
        self.alerts.forget(table)
        self._spawn(self._post_table(table), f"durak-post-{table.table_id}")

    def table_closed(self, table: Table) -> None:
        self.alerts.forget(table)
        self._spawn(self._close(table), f"durak-close-{table.table_id}")

    def _spawn(self, work: Coroutine[Any, Any, None], name: str) -> None:
        task = asyncio.create_task(work, name=name)
        self._tasks.add(task)  # keep a reference until done (asyncio holds only weak ones)
        task.add_done_callback(self._tasks.discard)

    # -- hands ---------------------------------------------------------------------------

    def link(self, table: Table, user: int) -> HandLink | None:
        found = self.links.get((table.table_id, user))
        if found is not None and time.monotonic() - found.opened > TOKEN_LIFETIME - TOKEN_MARGIN:
            del self.links[(table.table_id, user)]
            return None
        return found

    def remember(
        self,
        table: Table,
        user: int,
        interaction: discord.Interaction,
        hand: HandMessage,
        *,
        focus: Card | None = None,
        message_id: int | None = None,
    ) -> None:
        """Called after answering ``interaction`` with ``hand`` (``message_id``: the hand
        message answered in place, if known)."""
        had = (table.table_id, user) in self.links
        self.links[(table.table_id, user)] = HandLink(
            interaction,
            time.monotonic(),
            focus,
            hand.version,
            message_id,
            hand.picture,
            hand.offers,
        )
        if table.version != hand.version:  # the table moved while we answered
            self._hand(table, user).mark()
        if not had:  # the "press My hand" line may change
            self._messages(table).public.mark()

    def answer_lost(self, table: Table, user: int) -> None:
        """``user``'s click changed the table but its answer (their hand) never reached Discord
        (too late): their hand is refreshed through the link kept before, while it lives, and
        otherwise the table message asks them to press "My hand"."""
        self._hand(table, user).mark()
        self._messages(table).public.mark()

    def shown_picture(self, table: Table, user: int, message_id: int | None) -> object:
        """The picture ``message_id`` (a hand message of ``user``) shows, if the bot knows."""
        link = self.links.get((table.table_id, user))
        if link is None or message_id is None or link.message_id != message_id:
            return UNKNOWN_PICTURE
        return link.picture

    def press_hand(self, table: Table) -> list[str]:
        """Names of seated humans whose hand message cannot be refreshed any more."""
        return [
            s.name
            for s in table.seats
            if s.user_id is not None and self.link(table, s.user_id) is None
        ]

    def _same_buttons(self, table: Table, user: int) -> bool:
        """Whether ``user``'s shown hand still offers exactly what it may do now (its legal
        actions and "done for this bout"): then the change (another player's move) may wait
        for the hand's idle pace. The end of a game never waits."""
        link = self.links.get((table.table_id, user))
        seat = table.seat_of(user)
        if link is None or link.shown_offers is None or seat is None or table.state is None:
            return False
        return not table.state.finished and link.shown_offers == offers(table, seat)

    def _hand(self, table: Table, user: int) -> Coalescer:
        msgs = self._messages(table)
        if user not in msgs.hands:

            async def flush() -> None:
                await self._refresh_hand(table, user)

            msgs.hands[user] = Coalescer(
                flush,
                0,
                f"durak-hand-{table.table_id}-{user}",
                lazy_interval=self.hand_idle_interval,
            )
        return msgs.hands[user]

    async def _refresh_hand(self, table: Table, user: int) -> None:
        link = self.link(table, user)
        seat = table.seat_of(user)
        if link is None or seat is None or table.state is None:
            return
        if link.shown_version == table.version:
            return
        hand = table_hand(
            table,
            seat,
            loc=str(link.interaction.locale),
            images=self.images_on(table.guild_id),
            updates_until=updates_until(link.interaction),
            focus=link.focus,
        )
        try:
            message_id = await edit_interaction_answer(
                link.interaction,
                content=hand.content,
                view=hand.view,
                **hand.attachments(link.picture),
            )
            link.shown_version, link.shown_offers = hand.version, hand.offers
            link.picture, link.message_id = hand.picture, message_id
            if self.links.get((table.table_id, user)) is not link:
                # A click was answered meanwhile (a new link): which of the two edits landed
                # last is unknown, so show the table as it is now, picture included.
                newer = self.links[(table.table_id, user)]
                newer.shown_version, newer.picture, newer.shown_offers = -1, UNKNOWN_PICTURE, None
                self._hand(table, user).mark()
        except discord.HTTPException as exc:
            if isinstance(exc, discord.NotFound) or answer_lost(exc):
                # The token expired (Discord's clock, not ours) or the message is gone: the
                # table message asks the player to press "My hand".
                if self.links.get((table.table_id, user)) is link:
                    del self.links[(table.table_id, user)]
                self._messages(table).public.mark()
                return
            log.warning("could not refresh the hand of %s at %s: %s", user, table.table_id, exc)

    # -- the public messages -------------------------------------------------------------

    def _messages(self, table: Table) -> _TableMessages:
        msgs = self._tables.get(table.table_id)
        if msgs is None:

            async def flush() -> None:
                await self._refresh_public(table)

            msgs = _TableMessages(Coalescer(flush, self.interval, f"durak-table-{table.table_id}"))
            self._tables[table.table_id] = msgs
        return msgs

    def shown(self, table: Table, version: int) -> None:
        """A handler rendered the lobby at ``version`` itself (a type-7 answer, or the first
        post); refresh again if the table moved on meanwhile."""
        msgs = self._messages(table)
        msgs.shown_public = max(msgs.shown_public, version)
        if table.version != version:
            msgs.public.mark()

    async def _edit(self, table: Table, message_id: int, **fields: Any) -> None:
        """Edit one of the table's channel messages within the channel's and the process's
        write limits (the running table's message renders inside the limits itself)."""
        async with self.limits.write(table.channel_id):
            await edit_channel_message(self.client, table.channel_id, message_id, **fields)

    async def _refresh_public(self, table: Table) -> None:
        msgs = self._messages(table)
        if msgs.shown_public == table.version and table.status == TableStatus.LOBBY:
            return
        if table.status == TableStatus.LOBBY:
            if table.lobby_message_id is None:
                return
            embed, view = render_lobby(table)
            version = table.version
            await self._edit(table, table.lobby_message_id, embed=embed, view=view)
            msgs.shown_public = version
            return
        if table.table_message_id is None or table.state is None:
            return
        # Rendered once the write may go: with many tables the budget makes a write wait, and
        # it must then show the table as it is, not as it was when the edit was asked for.
        async with self.limits.write(table.channel_id, start_in_block=True) as slot:
            images = self.images_on(table.guild_id)
            scene = table_picture(table) if images else None
            picture: object = scene
            files: dict[str, Any] = {}
            # The same picture as shown: the message keeps its attachment (no upload, no drawing).
            if picture != msgs.picture:
                wait = self._picture_wait(table, msgs) if images else 0.0
                if wait > 0:  # the text goes now, the picture follows
                    picture = msgs.picture
                    self._catch_up(table, msgs, wait)
                else:
                    files["attachments"] = [await table_file(scene)] if scene is not None else []
                    msgs.picture_at = time.monotonic()
            press_hand = self.press_hand(table)
            shown = (table.version, tuple(press_hand), picture)
            if shown == msgs.shown_table:
                return  # a mark that came while this write waited, already shown by it
            await slot.start()  # counted from here: the picture may have queued in a thread
            launch = self.activity_launch
            embed, rows = render_table(table, press_hand=press_hand, images=images, launch=launch)
            msgs.picture, msgs.shown_table = UNKNOWN_PICTURE, None  # until the edit has landed
            await edit_channel_message(
                self.client,
                table.channel_id,
                table.table_message_id,
                embed=embed,
                view=rows,
                **files,
            )
        msgs.picture, msgs.shown_table = picture, shown

    def _picture_wait(self, table: Table, msgs: _TableMessages) -> float:
        """Seconds until the table message may show a new picture: at most one per
        ``picture_interval`` per table, and within the process's drawing budget; 0 for the
        first picture of a message and for the end of a game."""
        assert table.state is not None
        if msgs.picture is UNKNOWN_PICTURE or table.state.finished:
            return 0.0
        wait = msgs.picture_at + self.picture_interval - time.monotonic()
        return wait if wait > 0 else self.draw_budget.take()

    def _catch_up(self, table: Table, msgs: _TableMessages, wait: float) -> None:
        """One more edit of the table message once its picture may change again."""
        if msgs.catching_up:
            return
        msgs.catching_up = True

        async def later() -> None:
            await asyncio.sleep(wait)
            msgs.catching_up = False
            msgs.public.mark()

        self._spawn(later(), f"durak-picture-{table.table_id}")

    async def _post_table(self, table: Table) -> None:
        """A new game: a new message (old ones cannot be edited forever) and fresh hands."""
        channel = self.client.get_partial_messageable(table.channel_id)
        try:
            if table.game_number == 1 and table.lobby_message_id is not None:
                embed, view = render_lobby_done(table, "lobby.started")
                with contextlib.suppress(discord.HTTPException):
                    await self._edit(table, table.lobby_message_id, embed=embed, view=view)
            old = table.table_message_id
            embed, view, files, picture = await self.table_message(table)
            msgs = self._messages(table)
            msgs.picture, msgs.shown_table = UNKNOWN_PICTURE, None
            async with self.limits.write(table.channel_id, "post"):
                message = await channel.send(embed=embed, view=view, files=files)
            table.table_message_id = message.id
            msgs.picture, msgs.picture_at = picture, time.monotonic()
            if old is not None:  # the finished game's message keeps its result, loses buttons
                with contextlib.suppress(discord.HTTPException):
                    await self._edit(table, old, view=None)
            if self.save_ids is not None:
                await self.save_ids(table)
        except discord.HTTPException:
            log.exception("could not post the table message of %s", table.table_id)
        self.table_changed(table, actor=None)
        self._draw_hands_ahead(table)

    def _draw_hands_ahead(self, table: Table) -> None:
        """A new game: each human's hand picture is drawn now, in the table's language, so
        that the "My hand" most players press next is answered without waiting for it."""
        if table.state is None or not self.images_on(table.guild_id):
            return
        for user in table.humans:
            seat = table.seat_of(user)
            if seat is not None and table.state is not None:
                hand = table_hand(table, seat, loc=table.language, images=True, updates_until=None)
                hand.files()

    async def _close(self, table: Table) -> None:
        msgs = self._tables.pop(table.table_id, None)
        if msgs is not None:
            await msgs.public.close()
            for hand in msgs.hands.values():
                await hand.close()
        embed, view = render_lobby_done(table, "lobby.cancelled")
        with contextlib.suppress(discord.HTTPException):
            if table.lobby_message_id is not None and table.table_message_id is None:
                await self._edit(table, table.lobby_message_id, embed=embed, view=view)
            if table.table_message_id is not None:
                embed, view = render_closed(table.language, tournament=table.match is not None)
                await self._edit(
                    table, table.table_message_id, embed=embed, view=view, attachments=[]
                )
        for key in [k for k in self.links if k[0] == table.table_id]:
            del self.links[key]

    def idle(self) -> bool:
        """No refresh pending (for tests and shutdown)."""
        return all(
            m.public.idle and all(h.idle for h in m.hands.values()) for m in self._tables.values()
        )

    async def close(self) -> None:
        await self.alerts.close()
        for msgs in self._tables.values():
            await msgs.public.close()
            for hand in msgs.hands.values():
                await hand.close()
