"""The Discord side of the tournament runner (:class:`~bot.tournaments.runner.host.EventHost`): a
thread per table, the ping, who is still in the server, and the public sign-up and standings
messages, refreshed in place, within the channel's write pacing and the process's request
budget."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Coroutine, Sequence
from datetime import UTC, datetime
from typing import Any, Final

import discord

from bot.pacing.channel_limits import ChannelLimiter
from bot.storage import Storage
from bot.storage.preferences import NotifyPrefs
from bot.text import t
from bot.text.names import shown_name
from bot.tournaments.logic import Override, PlayedGame, TournamentError
from bot.tournaments.runner.coalesce import Coalesced
from bot.tournaments.runner.host import Recorded, ThreadsRefused
from bot.tournaments.runner.options import TableOptions
from bot.tournaments.runner.tournament_runner import (
    BREAK_ROUND,
    BREAK_UNTIL,
    CLOSING,
    is_paused,
)
from bot.tournaments.storage import (
    EntrantRecord,
    PairedTable,
    StoredRound,
    TournamentRecord,
    TournamentStatus,
    TournamentStore,
)
from bot.ui.table_embed import render_closed

from .tournament_signup import mention, signup_message, when_text
from .tournament_standings import standings_message

log = logging.getLogger(__name__)

#: Threads of a round's tables archive after a day without messages (Discord's choices).
THREAD_ARCHIVE_MINUTES: Final = 1440
#: ``ThreadsRefused.missing`` for a channel that can hold no threads (not a text channel).
NOT_TEXT: Final = "text_channel"
#: Discord's error code for a channel the bot cannot see (a 403 other than a permission).
MISSING_ACCESS: Final = 50001
#: The characters an embed may hold in all (the standings fill it; a note may push it over).
EMBED_LIMIT: Final = 6000


def override_result(o: Override, loc: str | None) -> str:
    """The organiser's result ``o`` in words: who won or forfeited the match."""
    return t(f"tournament.override.{o.kind}", loc, player=mention(o.player))


def override_line(
    key: str, loc: str | None, tr: TournamentRecord, o: Override, label: int, **more: object
) -> str:
    """A sentence on the organiser's result ``o`` of a table (``label``: its place among the
    round's tables, as its thread is named): the organiser's confirmation, or the tournament's
    log line (``more``: by whom, when)."""
    result = override_result(o, loc)
    return t(key, loc, name=shown_name(tr.name), round=o.round, table=label, result=result, **more)


class DiscordEventHost:
    def __init__(self, client: discord.Client, limits: ChannelLimiter, storage: Storage) -> None:
        self.client = client
        self.limits = limits
        self.store = TournamentStore(storage)
        #: Display names seen (sign-ups, member look-ups): a table seats players by name.
        self.known: dict[int, str] = {}
        self._refreshes = Coalesced(self.refresh, "tournament-messages")
        self._drawing = asyncio.Lock()
        #: What each public message shows now, so an unchanged one is not edited again.
        self._shown: dict[tuple[str, str], object] = {}
        #: Each user's ``/durak settings notify:`` (the bot sets the notifier's): reminders
        #: by DM go only to those who have not turned notifications off.
        self.prefs = NotifyPrefs()
        #: Tournaments whose tables cannot open, and why (``ThreadsRefused.missing``).
        self.problems: dict[str, str] = {}
        self._notices: set[asyncio.Task[object]] = set()

    # -- threads and pings ------------------------------------------------------------------

    async def open_thread(self, tr: TournamentRecord, round: int, table: int) -> int | None:
        channel = self.client.get_channel(tr.channel_id)
        if channel is None:  # not known yet (just connected) or deleted: the next try sees
            log.info("tournament %s: channel %s not known yet", tr.tournament_id, tr.channel_id)
            return None
        if not isinstance(channel, discord.TextChannel):
            raise ThreadsRefused(NOT_TEXT)
        lang = TableOptions.of(tr.options).language
        name = t("tournament.thread", lang, name=tr.name, round=round, table=table)[:100]
        try:
            async with self.limits.write(tr.channel_id, "post"):
                thread = await channel.create_thread(
                    name=name,
                    type=discord.ChannelType.public_thread,
                    auto_archive_duration=THREAD_ARCHIVE_MINUTES,
                )
        except discord.Forbidden as exc:
            raise ThreadsRefused(
                "view_channel" if exc.code == MISSING_ACCESS else "create_public_threads"
            ) from exc
        except discord.HTTPException:
            log.exception("tournament %s: could not create a thread", tr.tournament_id)
            return None
        return thread.id

    def blocked(self, tr: TournamentRecord, missing: str | None) -> None:
        if missing is None:
            self.problems.pop(tr.tournament_id, None)
        else:
            self.problems[tr.tournament_id] = missing
        lang = TableOptions.of(tr.options).language
        # pinging the organiser when they must act
        self._say(tr, tr.channel_id, blocked_text(tr, missing, lang, ping=True))
        self.changed(tr.tournament_id)

    def tables_cancelled(
        self, tr: TournamentRecord, notices: Sequence[tuple[int, int | None]]
    ) -> None:
        self._spawn(self._tables_cancelled(tr, notices))

    async def _tables_cancelled(
        self, tr: TournamentRecord, notices: Sequence[tuple[int, int | None]]
    ) -> None:
        lang = TableOptions.of(tr.options).language
        text = t("tournament.table_cancelled", lang, name=shown_name(tr.name))
        embed, view = render_closed(lang, tournament=True)
        told = True
        for thread, message in notices:
            told = await self._post(tr, thread, text) and told
            if message is None:
                continue
            try:  # the table's message says closed (its "My hand" gone), also after a restart
                async with self.limits.write(thread, "edit"):
                    await (
                        self.client.get_partial_messageable(thread)
                        .get_partial_message(message)
                        .edit(embed=embed, view=view, attachments=[])
                    )
            except discord.NotFound:
                pass  # deleted: nothing shows a live game
            except discord.HTTPException:
                told = False
        if told:
            await self.store.set_tournament_options(tr.tournament_id, {CLOSING: []})

    def withdrew(self, tr: TournamentRecord, thread_id: int, user_id: int, *, closed: bool) -> None:
        lang = TableOptions.of(tr.options).language
        key = "tournament.withdrew.walkover" if closed else "tournament.withdrew.ai"
        player = self.known.get(user_id) or mention(user_id)
        shown = mention(user_id) if user_id not in self.known else shown_name(player)
        self._say(tr, thread_id, t(key, lang, player=shown))

    def overridden(self, tr: TournamentRecord, recorded: Recorded) -> None:
        lang = TableOptions.of(tr.options).language
        r = recorded
        key = "tournament.override.replaced_log" if r.replaced else "tournament.override.log"
        by, at = mention(r.by), now_stamp()
        self._say(
            tr, tr.channel_id, override_line(key, lang, tr, r.override, r.label, by=by, at=at)
        )
        if r.thread_id is not None:
            result = override_result(r.override, lang)
            self._say(tr, r.thread_id, t("tournament.override.table", lang, result=result))

    def undone(self, tr: TournamentRecord, round: int, label: int, by: int) -> None:
        lang = TableOptions.of(tr.options).language
        text = t(
            "tournament.override.undo_log", lang, name=shown_name(tr.name), round=round,
            table=label, by=mention(by), at=now_stamp(),
        )  # fmt: skip
        self._say(tr, tr.channel_id, text)

    def break_started(
        self, tr: TournamentRecord, round: int, until: int, threads: Sequence[int]
    ) -> None:
        lang = TableOptions.of(tr.options).language
        text = t(
            "tournament.break", lang, name=shown_name(tr.name), round=round,
            when=f"<t:{until}:R>", at=f"<t:{until}:t>",
        )  # fmt: skip
        for channel in dict.fromkeys([tr.channel_id, *threads]):
            self._say(tr, channel, text)
        self.changed(tr.tournament_id)

    def check_in_opened(self, tr: TournamentRecord) -> None:
        self._spawn(self._remind(tr, "tournament.check_in.dm"))
        self.changed(tr.tournament_id)

    def check_in_closing(self, tr: TournamentRecord) -> None:
        self._spawn(self._remind(tr, "tournament.check_in.hour"))

    def _spawn(self, work: Coroutine[Any, Any, object]) -> None:
        task = asyncio.create_task(work, name="durak-tournament-notice")
        self._notices.add(task)
        task.add_done_callback(self._notices.discard)

    async def _remind(self, tr: TournamentRecord, key: str) -> None:
        """A DM to each entrant not checked in yet, unless their notifications are off; a
        closed DM is only logged (the sign-up message says the same)."""
        lang = TableOptions.of(tr.options).language
        link = f"https://discord.com/channels/{tr.guild_id}/{tr.channel_id}/{tr.signup_message_id}"
        deadline = tr.signup_deadline
        when = "" if deadline is None else when_text(deadline)
        text = t(key, lang, name=shown_name(tr.name), when=when, link=link)
        entrants = await self.store.tournament_entrants(tr.tournament_id)
        users = [e.user_id for e in entrants if not (e.checked_in or e.withdrawn)]
        await self._dm(tr, users, text, modes=("mention", "dm"))

    async def _dm(
        self, tr: TournamentRecord, users: Sequence[int], text: str, modes: Sequence[str]
    ) -> None:
        """A DM to each of ``users`` whose ``/durak settings notify:`` is one of ``modes``,
        within the request budget; a closed DM is only logged."""
        for user in users:
            if await self.prefs.get(user) not in modes:
                continue
            try:
                await self.limits.budget.acquire()
                channel = await self.client.create_dm(discord.Object(user))
                await channel.send(text[:2000])
            except discord.HTTPException as exc:
                log.info("tournament %s: no DM to %s (%s)", tr.tournament_id, user, exc)

    def deadline_failed(self, tr: TournamentRecord, error: TournamentError) -> None:
        self._spawn(self._deadline_failed(tr, error))

    async def _deadline_failed(self, tr: TournamentRecord, error: TournamentError) -> None:
        lang = TableOptions.of(tr.options).language
        entrants = await self.store.tournament_entrants(tr.tournament_id)
        users = [tr.organiser_id, *(e.user_id for e in entrants)]
        text = t(
            "tournament.deadline_cancelled",
            lang,
            name=shown_name(tr.name),
            reason=t(f"tournament.error.{error.code}", lang, **error.params),
            players=" ".join(mention(u) for u in dict.fromkeys(users)),
        )
        await self._post(tr, tr.channel_id, text, ping=users)

    def _say(self, tr: TournamentRecord, channel_id: int, text: str) -> None:
        self._spawn(self._post(tr, channel_id, text))

    async def _post(
        self, tr: TournamentRecord, channel_id: int, text: str, ping: Sequence[int] = ()
    ) -> bool:
        """Post ``text``; it pings the organiser (named in notices) and ``ping``, nobody else.
        False if Discord refused it (logged)."""
        channel = self.client.get_partial_messageable(channel_id)
        users = [discord.Object(u) for u in dict.fromkeys([tr.organiser_id, *ping])]
        try:
            async with self.limits.write(channel_id, "post"):
                await channel.send(
                    text[:2000], allowed_mentions=discord.AllowedMentions(users=users)
                )
        except discord.HTTPException:  # the bot cannot write there: the log says it
            log.warning("tournament %s: cannot post in %s: %s", tr.tournament_id, channel_id, text)
            return False
        return True

    async def welcome(
        self, tr: TournamentRecord, thread_id: int, round: int, table: PairedTable
    ) -> None:
        players = [p for p in table.seats if p is not None]
        if not players:
            return
        lang = TableOptions.of(tr.options).language
        text = t(
            "tournament.ping",
            lang,
            players=" ".join(mention(p) for p in players),
            name=shown_name(tr.name),
            round=round,
        )
        channel = self.client.get_partial_messageable(thread_id)
        with contextlib.suppress(discord.HTTPException):
            async with self.limits.write(thread_id, "post"):
                await channel.send(
                    text[:2000],
                    allowed_mentions=discord.AllowedMentions(
                        users=[discord.Object(p) for p in players]
                    ),
                )
        # those who asked for DMs (/durak settings notify: dm) also get one, with the link
        link = f"https://discord.com/channels/{tr.guild_id}/{thread_id}"
        opened = t("tournament.table_dm", lang, name=shown_name(tr.name), round=round, link=link)
        self._spawn(self._dm(tr, players, opened, modes=("dm",)))

    # -- members ----------------------------------------------------------------------------

    async def present(self, guild_id: int, users: Sequence[int]) -> set[int]:
        guild = self.client.get_guild(guild_id)
        if guild is None:
            return set(users)
        here: set[int] = set()
        for user in users:
            try:
                await self.limits.budget.acquire()
                member = await guild.fetch_member(user)
            except discord.NotFound:
                continue
            except discord.HTTPException:  # Discord unsure: keep them rather than drop them
                here.add(user)
                continue
            self.known[user] = member.display_name
            here.add(user)
        return here

    async def names(self, guild_id: int, users: Sequence[int]) -> dict[int, str]:
        missing = [u for u in users if u not in self.known]
        if missing:
            await self.present(guild_id, missing)
        return {u: self.known.get(u, str(u)) for u in users}

    # -- the public messages ----------------------------------------------------------------

    def changed(self, tournament_id: str) -> None:
        self._refreshes.want(tournament_id)

    async def refresh(self, tournament_id: str) -> None:
        """Edit the sign-up message; post the standings message once the tournament runs, and
        edit it from then on. A message that would show the same is not written again."""
        store = self.store
        tr = await store.get_tournament(tournament_id)
        entrants = await store.tournament_entrants(tournament_id)
        lang = TableOptions.of(tr.options).language
        channel = self.client.get_partial_messageable(tr.channel_id)
        if tr.signup_message_id is not None:
            embed, view = signup_message(tr, entrants, lang)
            key = (tournament_id, "signup")
            if self._shown.get(key) != embed.to_dict():
                async with self.limits.write(tr.channel_id, "edit"):
                    await channel.get_partial_message(tr.signup_message_id).edit(
                        embed=embed, view=view
                    )
                self._shown[key] = embed.to_dict()
        if tr.status is TournamentStatus.SIGNUP or (
            tr.status is TournamentStatus.CANCELLED and tr.standings_message_id is None
        ):
            return
        rounds = await store.tournament_rounds(tournament_id)
        games = await store.tournament_games(tournament_id)
        embed, files = await self.standings(tr, entrants, rounds, games, lang)
        problem = self.problems.get(tournament_id)
        notes = []
        if problem is not None and tr.status is TournamentStatus.RUNNING:
            notes.append(blocked_text(tr, problem, lang, ping=False))
        if is_paused(tr) and tr.status is TournamentStatus.RUNNING:
            notes.append(t("tournament.paused_note", lang))
        until = tr.options.get(BREAK_UNTIL)
        if (
            tr.status is TournamentStatus.RUNNING
            and tr.options.get(BREAK_ROUND) == tr.current_round + 1
            and isinstance(until, int)
            and until > datetime.now(UTC).timestamp()
        ):
            notes.append(t("tournament.break_note", lang, round=tr.current_round + 1,
                           when=f"<t:{until}:R>"))  # fmt: skip
        with_notes(embed, notes)
        key = (tournament_id, "standings")
        if self._shown.get(key) == embed.to_dict():
            return
        if tr.standings_message_id is None:
            async with self.limits.write(tr.channel_id, "post"):
                message = await channel.send(embed=embed, files=files)
            await store.set_tournament_message(tournament_id, "standings", message.id)
        else:
            async with self.limits.write(tr.channel_id, "edit"):
                await channel.get_partial_message(tr.standings_message_id).edit(
                    embed=embed, attachments=files
                )
        self._shown[key] = embed.to_dict()

    async def standings(
        self,
        tr: TournamentRecord,
        entrants: Sequence[EntrantRecord],
        rounds: Sequence[StoredRound],
        games: Sequence[PlayedGame],
        loc: str,
    ) -> tuple[discord.Embed, list[discord.File]]:
        """The standings message in ``loc``: its embed and its picture. Drawn in a thread (tens
        of milliseconds: the loop answers clicks meanwhile), one at a time (the words' cache)."""
        names = await self.names(tr.guild_id, [e.user_id for e in entrants])
        async with self._drawing:
            message = await asyncio.to_thread(
                standings_message, tr, entrants, rounds, games, names, loc
            )
        return message.embed, [message.file()]

    async def close(self) -> None:
        await self._refreshes.close()
        for task in list(self._notices):
            task.cancel()


def now_stamp() -> str:
    """Now, as a Discord timestamp (each reader sees it in their own time zone)."""
    return f"<t:{int(datetime.now(UTC).timestamp())}:f>"


def with_notes(embed: discord.Embed, notes: Sequence[str]) -> None:
    """Put ``notes`` (what the organiser must know: stuck, paused) above the standings; the
    standings fill Discord's 6,000 characters, so the last rounds' fields make room."""
    if not notes:
        return
    embed.description = "\n".join(notes) + f"\n\n{embed.description or ''}"
    while len(embed) > EMBED_LIMIT and embed.fields:
        embed.remove_field(-1)


def blocked_text(tr: TournamentRecord, missing: str | None, lang: str, *, ping: bool) -> str:
    """What keeps the tournament's tables from opening and who can fix it (or that they open
    again: ``missing`` None)."""
    name = shown_name(tr.name)
    if missing is None:
        return t("tournament.blocked.resumed", lang, name=name)
    organiser = mention(tr.organiser_id) if ping else t("tournament.blocked.organiser", lang)
    if missing == NOT_TEXT:
        return t("tournament.blocked.channel", lang, name=name, organiser=organiser)
    permission = t(f"tournament.permission.{missing}", lang)
    return t(
        "tournament.blocked.permission",
        lang,
        name=name,
        permission=permission,
        organiser=organiser,
    )
