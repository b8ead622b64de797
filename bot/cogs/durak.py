"""The thin ``/durak`` group and the click handlers: interactions in, service calls out.

Nothing here decides legality: clicks become engine actions that :class:`TableService`
re-checks under the table lock; answers are rendered from views.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Literal, cast

import discord
from discord import app_commands
from discord.app_commands import locale_str
from discord.ext import commands

from bot.storage import GameNotFound, GameRecord, LeaderboardSort, StorageError
from bot.tables.refusals import Refusal, Rejected
from bot.tables.table import MAX_SEATS, MIN_SEATS, Table
from bot.text import LANGUAGES, t
from bot.text import language as lang_of
from bot.text.translator import DurakTranslator, ls
from bot.ui.hand_view import AUTO_PASS_OFF, AUTO_PASS_ON, table_hand
from bot.ui.leaderboard import render_board, render_history, render_stats
from bot.ui.lobby import render_lobby, render_lobby_done
from bot.ui.refresher import updates_until
from bot.ui.rules_text import reason_text, rules_text, why_text
from bot.ui.turn_alerts import NOTIFY_MODES
from durak_core import PRESETS, Action, Card, RulesError, RuleSet, preset
from durak_core.ai import Level
from durak_core.cards import NUM_CARD_IDS
from durak_core.errors import ActionNotationError
from durak_core.verify import GameLog, Verdict, verify_game

if TYPE_CHECKING:
    from bot.app import DurakBot

log = logging.getLogger(__name__)


def _s(key: str) -> locale_str:
    """A translatable command text (description), keyed for :class:`DurakTranslator`."""
    return ls(key)


#: Every engine preset, named in the reader's language (≤ 25 choices).
PRESET_CHOICES = [app_commands.Choice(name=ls(f"preset.{name}"), value=name) for name in PRESETS]
LANGUAGE_CHOICES = [app_commands.Choice(name=ls(f"lang.{lang}"), value=lang) for lang in LANGUAGES]
LEVEL_CHOICES = [
    app_commands.Choice(name=ls(f"level.{level}"), value=level)
    for level in ("easy", "normal", "hard")
]
#: `/durak new` boolean options that map one to one onto RuleSet fields (V1, V4, V5, V11–V16).
RULE_FLAGS = {
    "transfer": "transfer",
    "first_five": "first_bout_five",
    "neighbours": "neighbours_only",
    "no_trump": "no_trump",
    "crazy": "crazy",
    "diamonds_apart": "diamonds_apart",
    "changing_trump": "changing_trump",
    "jokers": "jokers",
    "double_deck": "double_deck",
}
NEW_OPTIONS = (
    "preset", "transfer", "deck", "first_five", "neighbours", "teams", "seats", "timer",
    "ai_seats", "ai_level", "thread", "language", *RULE_FLAGS, "anyone_adds_ai",
)  # fmt: skip


def _loc(interaction: discord.Interaction) -> str:
    """The clicking user's language: every ephemeral answer follows it."""
    return lang_of(interaction.locale)


@app_commands.guild_only()
class DurakCog(commands.GroupCog, group_name=ls("name.durak"), group_description=_s("cmd.group")):
    def __init__(self, bot: DurakBot) -> None:
        self.bot = bot
        super().__init__()

    async def cog_load(self) -> None:
        # Before any sync: command names and descriptions go out in every catalogue language.
        await self.bot.tree.set_translator(DurakTranslator())

    # -- helpers ---------------------------------------------------------------------------

    async def _say(self, interaction: discord.Interaction, key: str, **params: object) -> None:
        """An ephemeral line: the answer to anything refused, and short confirmations."""
        text = t(key, _loc(interaction), **params)
        if interaction.response.is_done():
            await interaction.followup.send(text, ephemeral=True)
        else:
            await interaction.response.send_message(text, ephemeral=True)

    def _table_here(self, interaction: discord.Interaction) -> Table | None:
        if interaction.channel_id is None:
            return None
        return self.bot.service.registry.in_channel(interaction.channel_id)

    async def _table_or_say(self, interaction: discord.Interaction) -> Table | None:
        """This channel's table, or None after telling the user there is none."""
        table = self._table_here(interaction)
        if table is None:
            await self._say(interaction, "err.no_table")
        return table

    async def _send_hand(self, interaction: discord.Interaction, table: Table) -> None:
        seat = table.seat_of(interaction.user.id)
        if seat is None:
            await self._say(interaction, "err.not_seated")
            return
        if table.state is None:
            await self._say(
                interaction, "err.lobby_hand" if table.status == "lobby" else "err.not_running"
            )
            return
        await load_guild_settings(self.bot, table.guild_id)
        hand = table_hand(
            table,
            seat,
            loc=_loc(interaction),
            images=self.bot.notifier.images_on(table.guild_id),
            updates_until=updates_until(interaction),
        )
        await interaction.response.send_message(
            hand.content, view=hand.view, files=await hand.files(), ephemeral=True
        )
        self.bot.notifier.remember(table, interaction.user.id, interaction, hand)

    async def _update_hand(
        self,
        interaction: discord.Interaction,
        table: Table,
        seat: int,
        *,
        focus: Card | None = None,
        notice: str | None = None,
    ) -> None:
        """Answer a hand click by editing that hand message in place (type 7)."""
        hand = table_hand(
            table,
            seat,
            loc=_loc(interaction),
            images=self.bot.notifier.images_on(table.guild_id),
            updates_until=updates_until(interaction),
            focus=focus,
            notice=notice,
        )
        message = interaction.message
        user = interaction.user.id
        if message is None or not message.flags.ephemeral:
            # A hand id forged onto a public message: never turn that message into a hand.
            await interaction.response.send_message(
                content=hand.content, view=hand.view, files=await hand.files(), ephemeral=True
            )
            answered: int | None = None
        else:
            # The clicked hand keeps its picture when it would be the same one again.
            shown = self.bot.notifier.shown_picture(table, user, message.id)
            await interaction.response.edit_message(
                content=hand.content, view=hand.view, **await hand.attachments(shown)
            )
            answered = message.id
        self.bot.notifier.remember(
            table, user, interaction, hand, focus=focus, message_id=answered
        )

    # -- commands --------------------------------------------------------------------------

    async def _reject(
        self, interaction: discord.Interaction, rej: Rejected, table: Table | None = None
    ) -> None:
        """A refusal in the user's language; engine reasons are shown as local rule names."""
        loc = _loc(interaction)
        params = dict(rej.params)
        if rej.key in ("err.bad_rules", "err.rules_seats"):
            params["reason"] = reason_text(str(params.get("reason", "")), None, loc)
        if rej.key == "err.illegal":
            params["why"] = why_text(str(params.get("rule", "")), loc)
        await self._say(interaction, rej.key, **params)

    async def cog_app_command_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError
    ) -> None:
        """Every slash command's failure gets an answer: a refusal in the user's language, or
        "something went wrong" (logged) when storage or anything else failed."""
        cause = error.original if isinstance(error, app_commands.CommandInvokeError) else error
        await self._failed(interaction, cause)

    async def _failed(self, interaction: discord.Interaction, cause: BaseException) -> None:
        if isinstance(cause, Rejected):
            await self._reject(interaction, cause)
            return
        name = getattr(interaction.command, "name", None) or "button"
        log.error("/durak %s failed", name, exc_info=cause)
        await self._say(interaction, "err.internal")

    @app_commands.command(name=ls("name.new"), description=_s("cmd.new"))
    @app_commands.rename(**{name: ls(f"pname.{name}") for name in NEW_OPTIONS})
    @app_commands.describe(**{name: _s(f"opt.{name}") for name in NEW_OPTIONS})
    @app_commands.choices(preset=PRESET_CHOICES, language=LANGUAGE_CHOICES, ai_level=LEVEL_CHOICES)
    async def new(
        self,
        interaction: discord.Interaction,
        preset: str = "classic",
        transfer: bool | None = None,
        deck: Literal[24, 36, 52] | None = None,
        first_five: bool | None = None,
        neighbours: bool | None = None,
        teams: bool | None = None,
        seats: app_commands.Range[int, MIN_SEATS, MAX_SEATS] = MAX_SEATS,
        timer: app_commands.Range[int, 0, 600] | None = None,
        ai_seats: app_commands.Range[int, 0, MAX_SEATS - 1] = 0,
        ai_level: str = "normal",
        thread: bool = False,
        language: str | None = None,
        no_trump: bool | None = None,
        crazy: bool | None = None,
        diamonds_apart: bool | None = None,
        changing_trump: bool | None = None,
        jokers: bool | None = None,
        double_deck: bool | None = None,
        anyone_adds_ai: bool = False,
    ) -> None:
        if interaction.guild_id is None or interaction.channel is None:
            await self._say(interaction, "err.guild_only")
            return
        await load_guild_settings(self.bot, interaction.guild_id)
        existing = self._table_here(interaction)
        if existing is not None and existing.active:
            mid = existing.table_message_id or existing.lobby_message_id
            # The first /durak new may still be posting its lobby: link the channel meanwhile.
            link = f"https://discord.com/channels/{interaction.guild_id}/{existing.channel_id}"
            if mid is not None:
                link += f"/{mid}"
            await self._say(interaction, "err.table_exists_link", link=link)
            return
        flags = {
            "transfer": transfer, "first_five": first_five, "neighbours": neighbours,
            "no_trump": no_trump, "crazy": crazy, "diamonds_apart": diamonds_apart,
            "changing_trump": changing_trump, "jokers": jokers, "double_deck": double_deck,
        }  # fmt: skip
        changes: dict[str, object] = {
            RULE_FLAGS[name]: value for name, value in flags.items() if value is not None
        }
        if deck is not None:
            changes["deck_size"] = deck
        elif jokers:  # V15 needs the 52-card deck: asking for jokers implies it
            changes["deck_size"] = 52
        if teams is not None:
            changes["team_size"] = 2 if teams else 0
        try:
            rules = preset_rules(preset, changes)
        except RulesError as exc:
            reason = reason_text(str(exc), None, _loc(interaction))
            await self._say(interaction, "err.bad_rules", reason=reason)
            return
        # Public messages: the table's language option, else the server's (guild) locale.
        public = language_choice(language, interaction.guild_locale)
        channel: discord.abc.Messageable = cast(discord.abc.Messageable, interaction.channel)
        thread_id: int | None = None
        if thread and isinstance(interaction.channel, discord.TextChannel):
            try:
                created = await interaction.channel.create_thread(
                    name=t("table.thread", public, name=interaction.user.display_name)[:100],
                    type=discord.ChannelType.public_thread,
                )
                channel, thread_id = created, created.id
            except discord.HTTPException:
                log.warning("could not create a thread in %s", interaction.channel_id)
        # A refusal (Rejected) goes to cog_app_command_error, like every command's.
        table = await self.bot.service.lobby.create(
            guild_id=interaction.guild_id,
            channel_id=thread_id or interaction.channel.id,
            host_id=interaction.user.id,
            host_name=interaction.user.display_name,
            rules=rules,
            max_seats=seats,
            turn_timer=timer,
            thread_id=thread_id,
        )
        table.language = public
        table.anyone_adds_ai = anyone_adds_ai
        for _ in range(min(ai_seats, seats - 1)):
            await self._add_ai(table, interaction.user.id, Level(ai_level))
        embed, view = render_lobby(table)
        version = table.version
        if thread_id is not None:
            message = await channel.send(embed=embed, view=view)
            await self._say(interaction, "ok.created", where=f"<#{thread_id}>")
        else:
            await interaction.response.send_message(embed=embed, view=view)
            message = await interaction.original_response()
        table.lobby_message_id = message.id
        await self.bot.service.save_locked(table)
        self.bot.notifier.shown(table, version)

    async def _add_ai(self, table: Table, user_id: int, level: Level) -> None:
        n = sum(1 for s in table.seats if s.is_ai) + 1
        loc = table.language
        await self.bot.service.lobby.add_ai(
            table, user_id, level, t("ai.name", loc, n=n, level=t(f"level.{level}", loc))
        )

    async def _lobby_op(self, interaction: discord.Interaction, op: str) -> None:
        """join / leave / start / cancel from a slash command: answer, the lobby refreshes."""
        table = self._table_here(interaction)
        if table is None or not (table.active or table.status == "finished"):
            await self._say(interaction, "err.no_table")
            return
        await self._run_lobby_op(interaction, table, op)  # a refusal: cog_app_command_error
        await self._say(interaction, OK_KEYS[op])

    async def _run_lobby_op(self, interaction: discord.Interaction, table: Table, op: str) -> None:
        user = interaction.user
        service = self.bot.service
        if op == "join":
            seat = table.seat_of(user.id)
            if table.status == "running" and seat is not None and table.stand_in(seat):
                await service.lobby.back(table, user.id)  # joining again takes the seat back
            else:
                await service.lobby.join(table, user.id, user.display_name)
        elif op == "leave":
            await service.lobby.leave(table, user.id)
        elif op == "start":
            await service.lobby.start(table, user.id)
        elif op == "cancel":
            may = bool(interaction.permissions.manage_messages)
            await service.lobby.cancel(table, user.id, may_manage=may)
        elif op == "ai-remove":
            await service.lobby.remove_ai(table, user.id)
        elif op in ("ai-open", "ai-host"):
            await service.lobby.set_anyone_adds_ai(table, user.id, op == "ai-open")
        elif op in ("ai-easy", "ai-normal", "ai-hard"):
            await self._add_ai(table, user.id, Level(op[3:]))
        else:  # the regex admits only the ops above; anything else is refused, never mapped
            raise Rejected(Refusal.FORGED)

    @app_commands.command(name=ls("name.join"), description=_s("cmd.join"))
    async def join(self, interaction: discord.Interaction) -> None:
        await self._lobby_op(interaction, "join")

    @app_commands.command(name=ls("name.leave"), description=_s("cmd.leave"))
    async def leave(self, interaction: discord.Interaction) -> None:
        await self._lobby_op(interaction, "leave")

    @app_commands.command(name=ls("name.start"), description=_s("cmd.start"))
    async def start(self, interaction: discord.Interaction) -> None:
        await self._lobby_op(interaction, "start")

    @app_commands.command(name=ls("name.cancel"), description=_s("cmd.cancel"))
    async def cancel(self, interaction: discord.Interaction) -> None:
        await self._lobby_op(interaction, "cancel")

    @app_commands.command(name=ls("name.back"), description=_s("cmd.back"))
    async def back(self, interaction: discord.Interaction) -> None:
        table = await self._table_or_say(interaction)
        if table is None:
            return
        await self._take_seat_back(interaction, table)

    async def _take_seat_back(self, interaction: discord.Interaction, table: Table) -> None:
        """The owner of a seat an AI plays (after leaving, or idle) plays it again."""
        try:
            await self.bot.service.lobby.back(table, interaction.user.id)
        except Rejected as rej:
            await self._reject(interaction, rej)
            return
        await self._send_hand(interaction, table)

    @app_commands.command(name=ls("name.hand"), description=_s("cmd.hand"))
    async def hand(self, interaction: discord.Interaction) -> None:
        table = await self._table_or_say(interaction)
        if table is None:
            return
        await self._send_hand(interaction, table)

    @app_commands.command(name=ls("name.rules"), description=_s("cmd.rules"))
    async def rules(self, interaction: discord.Interaction) -> None:
        table = await self._table_or_say(interaction)
        if table is None:
            return
        await self._send_rules(interaction, table)

    async def _send_rules(self, interaction: discord.Interaction, table: Table) -> None:
        loc = _loc(interaction)
        embed = discord.Embed(
            title=t("rules.title", loc), description=rules_text(table.rules, table.turn_timer, loc)
        )
        await interaction.response.send_message(embed=embed, ephemeral=True)

    @app_commands.command(name=ls("name.leaderboard"), description=_s("cmd.leaderboard"))
    @app_commands.rename(sort=ls("pname.sort"))
    @app_commands.describe(sort=_s("opt.sort"))
    @app_commands.choices(
        sort=[
            app_commands.Choice(name=_s(f"sort.{s}"), value=s)
            for s in ("wins", "win_rate", "rating")
        ]
    )
    async def leaderboard(self, interaction: discord.Interaction, sort: str = "wins") -> None:
        await self._board(interaction, sort, 1, edit=False)

    async def _board(
        self, interaction: discord.Interaction, sort: str, page: int, *, edit: bool
    ) -> None:
        if interaction.guild_id is None:
            await self._say(interaction, "err.guild_only")
            return
        board = await self.bot.service.storage.leaderboard(
            interaction.guild_id, cast(LeaderboardSort, sort), page=max(page, 1)
        )
        embed, view = render_board(board, sort, _loc(interaction))
        if edit:
            await interaction.response.edit_message(embed=embed, view=view)
        else:
            await interaction.response.send_message(embed=embed, view=view, ephemeral=True)

    @app_commands.command(name=ls("name.stats"), description=_s("cmd.stats"))
    @app_commands.rename(user=ls("pname.user"))
    @app_commands.describe(user=_s("opt.user"))
    async def stats(
        self, interaction: discord.Interaction, user: discord.User | None = None
    ) -> None:
        who = user or interaction.user
        stats = await self.bot.service.storage.user_stats(who.id, interaction.guild_id)
        name = stats.display_name or who.display_name
        await interaction.response.send_message(
            embed=render_stats(stats, name, _loc(interaction)), ephemeral=True
        )

    @app_commands.command(name=ls("name.history"), description=_s("cmd.history"))
    async def history(self, interaction: discord.Interaction) -> None:
        if interaction.guild_id is None or interaction.channel_id is None:
            await self._say(interaction, "err.guild_only")
            return
        games = await self.bot.service.storage.channel_history(
            interaction.guild_id, interaction.channel_id
        )
        await interaction.response.send_message(
            embed=render_history(games, _loc(interaction)), ephemeral=True
        )

    @app_commands.command(name=ls("name.sync"), description=_s("cmd.sync"))
    async def sync(self, interaction: discord.Interaction) -> None:
        if not await self.bot.is_owner(interaction.user):
            await self._say(interaction, "err.owner_only")
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        synced = await self.bot.sync_commands(interaction.guild_id)
        await interaction.followup.send(t("ok.synced", _loc(interaction), n=synced), ephemeral=True)

    @app_commands.command(name=ls("name.verify"), description=_s("cmd.verify"))
    @app_commands.rename(game=ls("pname.game"))
    @app_commands.describe(game=_s("opt.game"))
    async def verify(
        self, interaction: discord.Interaction, game: app_commands.Range[str, 1, 100]
    ) -> None:
        """Recompute a finished game from its revealed seed and replay its log (R4)."""
        loc = _loc(interaction)
        game_id = game.strip().strip("`")
        storage = self.bot.service.storage
        try:
            record = await storage.get_game(game_id)
        except GameNotFound:
            await self._say(interaction, "verify.not_found", id=game_id)
            return
        except StorageError:
            log.exception("verify: loading %s failed", game_id)
            await self._say(interaction, "err.internal")
            return
        earlier: list[GameLog] = []
        verdict: Verdict | None = None
        for number in range(1, record.game_number):  # R22: earlier games fix the dealer
            try:
                earlier.append(game_log(await storage.get_game(f"{record.series_id}.{number}")))
            except GameNotFound:
                verdict = Verdict(False, "earlier", {"n": number})
                break
        if verdict is None:
            verdict = verify_game(game_log(record), earlier)
        embed = discord.Embed(
            title=t("verify.title", loc, id=record.game_id),
            colour=0x2E7D32 if verdict.ok else 0xC62828,
        )
        if verdict.ok:
            embed.description = t("verify.ok", loc, n=verdict.moves)
        else:
            reason = t(f"verify.r.{verdict.reason}", loc, **verdict.detail)
            embed.description = t("verify.fail", loc, reason=reason)
        embed.add_field(name=t("verify.commitment", loc), value=f"`{record.seed_commitment}`")
        embed.add_field(name=t("verify.seed", loc), value=f"`{record.seed}`", inline=False)
        await interaction.response.send_message(embed=embed, ephemeral=True)

    @app_commands.command(name=ls("name.settings"), description=_s("cmd.settings"))
    @app_commands.rename(images=ls("pname.images"), notify=ls("pname.notify"))
    @app_commands.describe(images=_s("opt.images"), notify=_s("opt.notify"))
    @app_commands.choices(
        notify=[app_commands.Choice(name=_s(f"notify.{m}"), value=m) for m in NOTIFY_MODES]
    )
    async def settings(
        self,
        interaction: discord.Interaction,
        images: bool | None = None,
        notify: str | None = None,
    ) -> None:
        """Per-guild switches (Manage Server) and the user's own turn notifications (anyone);
        without options, shows the current ones."""
        if interaction.guild_id is None:
            await self._say(interaction, "err.guild_only")
            return
        notifier = self.bot.notifier
        await load_guild_settings(self.bot, interaction.guild_id)
        if images is not None:
            if not interaction.permissions.manage_guild:
                await self._say(interaction, "err.manage_guild")
                return
            await save_images_setting(self.bot, interaction.guild_id, images)
        prefs = notifier.alerts.prefs
        if notify in NOTIFY_MODES:
            await prefs.set(interaction.user.id, notify)
        on = notifier.images_on(interaction.guild_id)
        loc = _loc(interaction)
        lines = [
            t("settings.images_on" if on else "settings.images_off", loc),
            t(f"settings.notify_{await prefs.get(interaction.user.id)}", loc),
        ]
        await interaction.response.send_message("\n".join(lines), ephemeral=True)

    # -- clicks (ClickHandler) -------------------------------------------------------------

    async def on_lobby_button(
        self, interaction: discord.Interaction, table_id: str, op: str
    ) -> None:
        table = self.bot.service.registry.get(table_id)
        if table is None or table.status not in ("lobby",):
            await self._say(interaction, "err.gone")
            return
        try:
            await self._run_lobby_op(interaction, table, op)
        except Rejected as rej:
            await self._reject(interaction, rej)
            return
        version = table.version
        if table.status == "lobby":
            embed, view = render_lobby(table)
        else:
            key = "lobby.started" if table.status == "running" else "lobby.cancelled"
            embed, view = render_lobby_done(table, key)
        await interaction.response.edit_message(embed=embed, view=view)
        if table.status == "lobby":
            self.bot.notifier.shown(table, version)

    async def on_table_button(
        self, interaction: discord.Interaction, table_id: str, op: str
    ) -> None:
        table = self.bot.service.registry.get(table_id)
        if table is None:
            await self._say(interaction, "err.gone")
            return
        if op == "rules":
            await self._send_rules(interaction, table)
        elif op == "hand":
            await self._send_hand(interaction, table)
        elif op == "back":  # a player takes the seat back from the AI
            await self._take_seat_back(interaction, table)
        elif op == "rematch":
            try:
                await self.bot.service.lobby.rematch(table, interaction.user.id)
            except Rejected as rej:
                await self._reject(interaction, rej)
                return
            await self._send_hand(interaction, table)
        else:  # the regex admits only the ops above; anything else is refused, never mapped
            await self._say(interaction, "err.forged")

    async def on_hand_click(
        self, interaction: discord.Interaction, table_id: str, seat: int, version: int, code: str
    ) -> None:
        table = await self._checked_table(interaction, table_id, seat)
        if table is None:
            return
        if code in (AUTO_PASS_ON, AUTO_PASS_OFF):  # "done for this bout", or taking it back
            await self._auto_pass(interaction, table, seat, version, code == AUTO_PASS_ON)
            return
        if code.startswith("a"):  # aim at an open attack card: a view change, not an action
            index = int(code[1:])
            if version != table.version or table.state is None or index >= NUM_CARD_IDS:
                notice = t("err.stale", _loc(interaction))
                await self._update_hand(interaction, table, seat, notice=notice)
                return
            await self._update_hand(interaction, table, seat, focus=Card.from_index(index))
            return
        await self._act(interaction, table, seat, version, code)

    async def on_hand_select(
        self, interaction: discord.Interaction, table_id: str, seat: int, version: int, value: str
    ) -> None:
        table = await self._checked_table(interaction, table_id, seat)
        if table is None:
            return
        if not value.isdigit() or len(value) > 5:
            await self._say(interaction, "err.forged")
            return
        await self._act(interaction, table, seat, version, value)

    async def _checked_table(
        self, interaction: discord.Interaction, table_id: str, seat: int
    ) -> Table | None:
        table = self.bot.service.registry.get(table_id)
        if table is None or table.state is None:
            await self._say(interaction, "err.gone")
            return None
        mine = table.seat_of(interaction.user.id)
        if mine is None:
            await self._say(interaction, "err.not_seated")
            return None
        if mine != seat:
            await self._say(interaction, "err.not_your_seat")
            return None
        return table

    async def _auto_pass(
        self, interaction: discord.Interaction, table: Table, seat: int, version: int, on: bool
    ) -> None:
        try:
            await self.bot.service.play.set_auto_pass(
                table, seat, on, version=version, user_id=interaction.user.id
            )
        except Rejected as rej:
            await self._refused_click(interaction, table, seat, rej)
            return
        await self._update_hand(interaction, table, seat)

    async def _refused_click(
        self, interaction: discord.Interaction, table: Table, seat: int, rej: Rejected
    ) -> None:
        """A refused hand click: the hand is re-rendered with the reason where it can be."""
        if rej.key in ("err.stale", "err.illegal", "err.no_auto_pass") and table.state is not None:
            params = dict(rej.params)
            if rej.key == "err.illegal":
                params["why"] = why_text(str(params.get("rule", "")), _loc(interaction))
            notice = t(rej.key, _loc(interaction), **params)
            await self._update_hand(interaction, table, seat, notice=notice)
        else:
            await self._reject(interaction, rej)

    async def _act(
        self, interaction: discord.Interaction, table: Table, seat: int, version: int, code: str
    ) -> None:
        try:
            action = Action.from_code(int(code))
        except ActionNotationError:
            await self._say(interaction, "err.forged")
            return
        try:
            await self.bot.service.play.act(
                table, seat, action, version=version, user_id=interaction.user.id
            )
        except Rejected as rej:
            await self._refused_click(interaction, table, seat, rej)
            return
        await self._update_hand(interaction, table, seat)

    async def on_board_page(self, interaction: discord.Interaction, sort: str, page: int) -> None:
        try:
            await self._board(interaction, sort, page, edit=True)
        except StorageError as exc:  # buttons are not app commands: no cog error handler
            await self._failed(interaction, exc)


OK_KEYS = {
    "join": "ok.joined",
    "ai-remove": "ok.ai_removed",
    "ai-open": "ok.ai_open",
    "ai-host": "ok.ai_host",
    "leave": "ok.left",
    "start": "ok.started",
    "cancel": "ok.cancelled",
    "ai-easy": "ok.ai_added",
    "ai-normal": "ok.ai_added",
    "ai-hard": "ok.ai_added",
}


def preset_rules(name: str, changes: dict[str, object]) -> RuleSet:
    rules = preset(name)
    return rules.with_options(**changes) if changes else rules


def language_choice(option: str | None, guild_locale: object | None) -> str:
    """`/durak new language:` wins; otherwise the guild's locale (English if unknown)."""
    return option if option in LANGUAGES else lang_of(guild_locale)


def game_log(record: GameRecord) -> GameLog:
    """What verification needs from a storage record."""
    return GameLog(
        rules=record.rules,
        seats=len(record.seats),
        seed=record.seed,
        commitment=record.seed_commitment,
        card_order=record.card_order,
        actions=record.actions,
        finishing_order=record.finishing_order,
        losers=record.losing_seats,
        durak=record.durak_seat,
    )


async def save_images_setting(bot: DurakBot, guild_id: int, on: bool) -> None:
    """Remember the guild's pictures switch (storage table ``guild_settings``)."""
    bot.notifier.images[guild_id] = on
    await bot.service.storage.set_guild_setting(guild_id, "images", "on" if on else "off")


async def load_guild_settings(bot: DurakBot, guild_id: int | None) -> None:
    """Load a guild's switches once per process (the refresher reads the cached value)."""
    if guild_id is None or guild_id in bot.notifier.images:
        return
    try:
        stored = await bot.service.storage.guild_settings(guild_id)
    except StorageError:
        log.warning("could not load the settings of guild %s; using the defaults", guild_id)
        return
    bot.notifier.images[guild_id] = stored.get("images", "on") == "on"
