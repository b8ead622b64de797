"""``/durak-tournament``: new, start, cancel, remove, standings, history, and the sign-up
message's Join / Leave buttons. The runner (``bot.tournaments.runner``) plays the rounds; this
part parses, checks who may, and answers."""

from __future__ import annotations

import secrets
from datetime import UTC, datetime
from typing import Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.cogs.base import CogBase, HandRef, click, loc_of
from bot.cogs.guild_settings import load_guild_settings
from bot.cogs.new_table import LANGUAGE_CHOICES, PRESET_CHOICES, NewTable, language_choice
from bot.domain import MAX_TURN_TIMER
from bot.settings import DEFAULT_TURN_TIMER
from bot.tables.refusals import Refusal, Rejected
from bot.text import t
from bot.text.names import shown_name
from bot.text.translator import ls
from bot.tournaments.logic import (
    SettingsError,
    SignupError,
    TournamentError,
    seating_fit,
)
from bot.tournaments.logic import configuration as limits
from bot.tournaments.messages.tournament_signup import signup_message
from bot.tournaments.runner.check_in import MINUTES as CHECK_IN_MINUTES
from bot.tournaments.runner.check_in import announced as check_in_announced
from bot.tournaments.runner.deciding import DECIDER
from bot.tournaments.storage import (
    NewTournament,
    SignupRefused,
    TournamentNotFound,
    TournamentRecord,
    TournamentStatus,
)
from bot.ui.buttons import SignupOp
from bot.ui.rules_text import reason_text

from .tournament_checks import check_channel, check_opener, fit_warning
from .tournament_client import TournamentClient
from .tournament_history import history_embed
from .tournament_looks import send_export, show_standings
from .tournament_options import (
    EDITABLE,
    FORMAT_CHOICES,
    TOURNAMENT_OPTIONS,
    NewTournamentAsk,
    TournamentEdit,
    controls,
    option_key,
    option_text,
    parse_deadline,
    table_options,
)
from .tournament_pick import choices, named, pick, tournament_option
from .tournament_players import ask_bye, join_tournament, seed_player
from .tournament_results import record_result, suggest_tables, take_back

#: The check-in window's minutes before the deadline.
CheckInMinutes = app_commands.Range[int, limits.MIN_CHECK_IN_MINUTES, limits.MAX_CHECK_IN_MINUTES]


class TournamentCommands(CogBase):
    bot: TournamentClient

    tournament = app_commands.Group(name=ls("name.tournament"), description=ls("cmd.tournament"))

    async def _failed(
        self, interaction: discord.Interaction, cause: BaseException, hand: HandRef | None = None
    ) -> None:
        """A tournament's refusal (the core's or the stored tournament's) by its code; any
        other failure as every part of the cog answers it."""
        if isinstance(cause, Rejected) and cause.kind is Refusal.TOURNAMENT_AMBIGUOUS:
            option = t(str(cause.params.get("option")), loc_of(interaction))  # its own name
            await self._say(interaction, cause.key, **{**cause.params, "option": option})
        elif isinstance(cause, TournamentNotFound):
            await self._say(interaction, Refusal.NO_TOURNAMENT.key)
        elif isinstance(cause, TournamentError | SignupRefused):
            params = cause.params if isinstance(cause, TournamentError) else {}
            await self._say(interaction, f"tournament.error.{cause.code}", **params)
        else:
            await super()._failed(interaction, cause, hand)

    @tournament.command(name=ls("name.new"), description=ls("cmd.t_new"))
    @app_commands.rename(**{n: ls(option_key("pname", n)) for n in TOURNAMENT_OPTIONS})
    @app_commands.describe(**{n: option_text(n) for n in TOURNAMENT_OPTIONS})
    @app_commands.choices(format=FORMAT_CHOICES, preset=PRESET_CHOICES, language=LANGUAGE_CHOICES)
    async def t_new(
        self,
        interaction: discord.Interaction,
        name: app_commands.Range[str, 1, limits.MAX_NAME_LENGTH],
        format: str = "swiss",
        table_size: app_commands.Range[int, limits.MIN_SEATS, limits.MAX_SEATS] = 2,
        games: app_commands.Range[int, 1, limits.MAX_GAMES_PER_MATCH] | None = None,
        losses: app_commands.Range[int, 1, limits.MAX_LOSSES_PER_MATCH] | None = None,
        timer: app_commands.Range[int, 1, MAX_TURN_TIMER] | None = None,
        rounds: app_commands.Range[int, 1, limits.MAX_ROUNDS] | None = None,
        limit: app_commands.Range[int, limits.MIN_ENTRANTS, limits.MAX_ENTRANTS] | None = None,
        deadline: str | None = None,
        ai_fill: bool = False,
        preset: str = "classic",
        transfer: bool | None = None,
        deck: Literal[24, 36, 52] | None = None,
        first_five: bool | None = None,
        neighbours: bool | None = None,
        language: str | None = None,
        check_in: CheckInMinutes | None = None,
        decider: bool = True,
        late_join: app_commands.Range[int, 0, limits.MAX_ROUNDS] | None = None,
        break_minutes: app_commands.Range[int, 0, limits.MAX_BREAK_MINUTES] = 0,
    ) -> None:
        guild, channel = check_opener(interaction, loc_of(interaction))
        await load_guild_settings(self.bot, guild)
        ask = NewTournamentAsk(name, format, table_size, games, losses, rounds, limit, ai_fill)
        settings = ask.settings()
        when = parse_deadline(deadline, datetime.now(UTC))
        if check_in is not None and when is None:  # the window is the last minutes before it
            raise SettingsError("check_in_deadline", "check-in needs a deadline")
        rules_asked = NewTable.asked(
            preset=preset, transfer=transfer, deck=deck, first_five=first_five,
            neighbours=neighbours, seats=table_size, timer=timer, language=language,
        )  # fmt: skip
        lang = language_choice(language, interaction.guild_locale)
        try:
            options = table_options(settings, rules_asked, timer or self._default_timer(), lang)
            options.rules.check_seats(table_size)
        except ValueError as exc:
            reason = reason_text(str(exc), None, loc_of(interaction))
            await self._say(interaction, "err.bad_rules", reason=reason)
            return
        record = await self.bot.tournaments.store.create_tournament(
            NewTournament(
                tournament_id=secrets.token_hex(4),
                guild_id=guild,
                channel_id=channel,
                organiser_id=interaction.user.id,
                settings=settings,
                options={
                    **options.stored(),
                    CHECK_IN_MINUTES: check_in or 0,
                    DECIDER: decider,
                    **controls(settings, late_join, break_minutes, None),
                },
                signup_deadline=when,
            )
        )
        await self._post_signup(interaction, record, lang)

    async def _post_signup(
        self, interaction: discord.Interaction, record: TournamentRecord, lang: str
    ) -> None:
        """The new tournament's sign-up message, as the answer to ``new``."""
        embed, view = signup_message(record, [], lang)
        if view is None:
            await interaction.response.send_message(embed=embed)
        else:
            await interaction.response.send_message(embed=embed, view=view)
        message = await interaction.original_response()
        await self.bot.tournaments.store.set_tournament_message(
            record.tournament_id, "signup", message.id
        )
        self.bot.tournaments.ensure_ticker()

    def _default_timer(self) -> int:
        # a tournament always has a turn timer: it is what plays a no-show's seat
        return self.bot.service.settings.turn_timer_seconds or DEFAULT_TURN_TIMER

    # -- sign-up ----------------------------------------------------------------------------

    @click
    async def on_signup_button(
        self, interaction: discord.Interaction, tournament: str, op: SignupOp
    ) -> None:
        store = self.bot.tournaments.store
        tr = await store.get_tournament(tournament)
        user = interaction.user
        values: dict[str, object] = {}
        if op is SignupOp.JOIN:
            key, values = await join_tournament(self.bot, user, tr)
        else:
            key = await self._take_off(tr, user.id)
        await self._say(interaction, key, name=shown_name(tr.name), **values)
        self.bot.event_host.changed(tournament)

    @click
    async def on_check_in(self, interaction: discord.Interaction, tournament: str) -> None:
        await self._check_in(
            interaction, await self.bot.tournaments.store.get_tournament(tournament)
        )

    async def _check_in(self, interaction: discord.Interaction, tr: TournamentRecord) -> None:
        """An entrant confirms in the check-in window (the button, or the command)."""
        if tr.status is TournamentStatus.SIGNUP and not check_in_announced(tr):
            raise SignupError("check_in_closed", "the check-in window is not open")
        if not await self.bot.tournaments.store.check_in_entrant(
            tr.tournament_id, interaction.user.id
        ):
            raise_not_joined()
        await self._say(interaction, "tournament.ok.checked_in", name=shown_name(tr.name))
        self.bot.event_host.changed(tr.tournament_id)

    # -- the organiser's commands -------------------------------------------------------------

    async def _current(
        self, interaction: discord.Interaction, wanted: str | None = None
    ) -> TournamentRecord:
        """The tournament ``wanted`` names (its id, as autocomplete gives it, or its name),
        else the only open one of this channel or of the server (``tournament_pick``)."""
        if interaction.guild_id is None:
            raise Rejected(Refusal.NO_TOURNAMENT)
        found = await self._known(interaction.guild_id)
        return pick(found, interaction.channel_id, wanted)

    async def _known(self, guild_id: int) -> list[TournamentRecord]:
        """The server's open tournaments (all of them), then its newest ones, newest first."""
        store = self.bot.tournaments.store
        found = await store.guild_open_tournaments(guild_id)
        ids = {tr.tournament_id for tr in found}
        newest = await store.guild_tournaments(guild_id, 50)
        return sorted(
            [*found, *(tr for tr in newest if tr.tournament_id not in ids)],
            key=lambda tr: tr.created_at,
            reverse=True,
        )

    async def _open_choices(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return await self._choices(interaction, current, open_only=True)

    async def _any_choices(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return await self._choices(interaction, current, open_only=False)

    async def _choices(
        self, interaction: discord.Interaction, current: str, *, open_only: bool
    ) -> list[app_commands.Choice[str]]:
        if interaction.guild_id is None:
            return []
        found = await self._known(interaction.guild_id)
        return choices(found, current, loc_of(interaction), open_only=open_only)

    async def _organised(
        self, interaction: discord.Interaction, wanted: str | None = None
    ) -> TournamentRecord:
        tr = await self._current(interaction, wanted)
        if interaction.user.id != tr.organiser_id and not interaction.permissions.manage_events:
            raise Rejected(Refusal.TOURNAMENT_DENIED)
        return tr

    @tournament.command(name=ls("name.t_check_in"), description=ls("cmd.t_check_in"))
    @tournament_option(_open_choices)
    async def t_check_in(
        self, interaction: discord.Interaction, tournament: str | None = None
    ) -> None:
        await self._check_in(interaction, await self._current(interaction, tournament))

    @tournament.command(name=ls("name.start"), description=ls("cmd.t_start"))
    @tournament_option(_open_choices)
    async def t_start(
        self, interaction: discord.Interaction, tournament: str | None = None
    ) -> None:
        tr = await self._organised(interaction, tournament)
        if interaction.channel_id == tr.channel_id:  # else its channel is checked as it runs
            check_channel(interaction, loc_of(interaction))
        await interaction.response.defer(ephemeral=True, thinking=True)
        tr = await self.bot.tournaments.start(tr.tournament_id)
        loc = loc_of(interaction)
        lines = [t("tournament.ok.started", loc, name=shown_name(tr.name))]
        entrants = await self.bot.tournaments.store.tournament_entrants(tr.tournament_id)
        playing = sum(not e.withdrawn for e in entrants)
        fit = seating_fit(tr.settings, playing)
        if fit is not None:  # issue #30 bug 12: players left without a table every round
            lines.append(fit_warning(fit, playing, tr.settings.table_size, loc))
        await interaction.followup.send("\n".join(lines), ephemeral=True)

    @tournament.command(name=ls("name.cancel"), description=ls("cmd.t_cancel"))
    @tournament_option(_open_choices)
    async def t_cancel(
        self, interaction: discord.Interaction, tournament: str | None = None
    ) -> None:
        tr = await self._organised(interaction, tournament)
        tr = await self.bot.tournaments.cancel(tr.tournament_id)
        await self._say(interaction, "tournament.ok.cancelled", name=shown_name(tr.name))

    @tournament.command(name=ls("name.t_edit"), description=ls("cmd.t_edit"))
    @app_commands.rename(**{n: ls(option_key("pname", n)) for n in EDITABLE})
    @app_commands.describe(**{n: option_text(n) for n in EDITABLE})
    @tournament_option(_open_choices)
    async def t_edit(
        self,
        interaction: discord.Interaction,
        tournament: str | None = None,
        name: app_commands.Range[str, 1, limits.MAX_NAME_LENGTH] | None = None,
        deadline: str | None = None,
        limit: app_commands.Range[int, limits.MIN_ENTRANTS, limits.MAX_ENTRANTS] | None = None,
        rounds: app_commands.Range[int, 1, limits.MAX_ROUNDS] | None = None,
        timer: app_commands.Range[int, 1, MAX_TURN_TIMER] | None = None,
        late_join: app_commands.Range[int, 0, limits.MAX_ROUNDS] | None = None,
        break_minutes: app_commands.Range[int, 0, limits.MAX_BREAK_MINUTES] | None = None,
        byes: app_commands.Range[int, 0, limits.MAX_ROUNDS] | None = None,
    ) -> None:
        """Before the start: what was given changes, the rest stays; refused as a whole."""
        tr = await self._organised(interaction, tournament)
        if tr.status is not TournamentStatus.SIGNUP:
            raise SignupError("edit_started", "the tournament has started")
        entrants = await self.bot.tournaments.store.tournament_entrants(tr.tournament_id)
        edit = TournamentEdit(name, limit, rounds, timer)
        settings = edit.settings(tr.settings, len(entrants))
        when = (
            tr.signup_deadline if deadline is None else parse_deadline(deadline, datetime.now(UTC))
        )
        changes = {**edit.options(), **controls(settings, late_join, break_minutes, byes)}
        tr = await self.bot.tournaments.store.edit_tournament(
            tr.tournament_id, settings, changes, when
        )
        self.bot.event_host.changed(tr.tournament_id)
        self.bot.tournaments.ensure_ticker()
        await self._say(interaction, "tournament.ok.edited", name=shown_name(tr.name))

    @tournament.command(name=ls("name.t_pause"), description=ls("cmd.t_pause"))
    @tournament_option(_open_choices)
    async def t_pause(
        self, interaction: discord.Interaction, tournament: str | None = None
    ) -> None:
        await self._pause(interaction, tournament, True)

    @tournament.command(name=ls("name.t_resume"), description=ls("cmd.t_resume"))
    @tournament_option(_open_choices)
    async def t_resume(
        self, interaction: discord.Interaction, tournament: str | None = None
    ) -> None:
        await self._pause(interaction, tournament, False)

    async def _pause(
        self, interaction: discord.Interaction, tournament: str | None, paused: bool
    ) -> None:
        tr = await self._organised(interaction, tournament)
        tr, last = await self.bot.tournaments.pause(tr.tournament_id, paused)
        key = "tournament.ok.resumed"
        if paused:
            key = "tournament.ok.paused_last" if last else "tournament.ok.paused"
        await self._say(interaction, key, name=shown_name(tr.name))

    async def _table_choices(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return await suggest_tables(self, interaction, current, recorded=False)

    async def _recorded_choices(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return await suggest_tables(self, interaction, current, recorded=True)

    @tournament.command(name=ls("name.t_override"), description=ls("cmd.t_override"))
    @app_commands.rename(
        table=ls("pname.t_table"), winner=ls("pname.t_winner"), forfeit=ls("pname.t_forfeit")
    )
    @app_commands.describe(
        table=ls("opt.t_table"), winner=ls("opt.t_winner"), forfeit=ls("opt.t_forfeit")
    )
    @app_commands.autocomplete(table=_table_choices)
    @tournament_option(_open_choices)
    async def t_override(
        self,
        interaction: discord.Interaction,
        table: str,
        winner: discord.User | None = None,
        forfeit: discord.User | None = None,
        tournament: str | None = None,
    ) -> None:
        await record_result(self, interaction, table, winner, forfeit, tournament)

    @tournament.command(name=ls("name.t_undo"), description=ls("cmd.t_undo"))
    @app_commands.rename(table=ls("pname.t_table"))
    @app_commands.describe(table=ls("opt.t_recorded"))
    @app_commands.autocomplete(table=_recorded_choices)
    @tournament_option(_open_choices)
    async def t_undo(
        self, interaction: discord.Interaction, table: str, tournament: str | None = None
    ) -> None:
        await take_back(self, interaction, table, tournament)

    @tournament.command(name=ls("name.remove"), description=ls("cmd.t_remove"))
    @app_commands.rename(user=ls("pname.user"))
    @app_commands.describe(user=ls("opt.t_user"))
    @tournament_option(_open_choices)
    async def t_remove(
        self,
        interaction: discord.Interaction,
        user: discord.User,
        tournament: str | None = None,
    ) -> None:
        tr = await self._organised(interaction, tournament)
        try:
            await self._take_off(tr, user.id)
        except SignupError as exc:  # said of that player, not of "you"
            raise SignupError(f"player_{exc.code}", str(exc)) from None
        await self._say(
            interaction, "tournament.ok.removed", user=f"<@{user.id}>", name=shown_name(tr.name)
        )

    @tournament.command(name=ls("name.t_leave"), description=ls("cmd.t_leave"))
    @tournament_option(_open_choices)
    async def t_leave(
        self, interaction: discord.Interaction, tournament: str | None = None
    ) -> None:
        tr = await self._current(interaction, tournament)
        key = await self._take_off(tr, interaction.user.id)
        await self._say(interaction, key, name=shown_name(tr.name))

    @tournament.command(name=ls("name.t_bye"), description=ls("cmd.t_bye"))
    @tournament_option(_open_choices)
    async def t_bye(self, interaction: discord.Interaction, tournament: str | None = None) -> None:
        await ask_bye(self.bot, interaction, await self._current(interaction, tournament))

    @tournament.command(name=ls("name.t_seed"), description=ls("cmd.t_seed"))
    @app_commands.rename(user=ls("pname.user"), position=ls("pname.t_position"))
    @app_commands.describe(user=ls("opt.t_seeded"), position=ls("opt.t_position"))
    @tournament_option(_open_choices)
    async def t_seed(
        self,
        interaction: discord.Interaction,
        user: discord.User,
        position: app_commands.Range[int, 0, limits.MAX_ENTRANTS],
        tournament: str | None = None,
    ) -> None:
        tr = await self._organised(interaction, tournament)
        await seed_player(self.bot, interaction, tr, user, position)

    async def _take_off(self, tr: TournamentRecord, user_id: int) -> str:
        """Off the list during the sign-up; withdrawn once it runs (``TournamentRunner.withdraw``:
        what became of the match being played). The answer's catalogue key."""
        if tr.status is TournamentStatus.SIGNUP:
            if not await self.bot.tournaments.store.remove_entrant(tr.tournament_id, user_id):
                raise_not_joined()
            self.bot.event_host.changed(tr.tournament_id)
            return "tournament.ok.left"
        return str(await self.bot.tournaments.withdraw(tr.tournament_id, user_id))

    @commands.Cog.listener()
    async def on_guild_channel_update(
        self, before: discord.abc.GuildChannel, after: discord.abc.GuildChannel
    ) -> None:
        """Its permissions may have changed: a tournament stuck there tries again now."""
        self.bot.tournaments.channel_changed(after.id)

    # -- what anyone may look at ------------------------------------------------------------

    @tournament.command(name=ls("name.standings"), description=ls("cmd.t_standings"))
    @app_commands.rename(name=ls("pname.t_name"))
    @app_commands.describe(name=ls("opt.t_which"))
    @app_commands.autocomplete(name=_any_choices)
    async def t_standings(self, interaction: discord.Interaction, name: str | None = None) -> None:
        await show_standings(self.bot, interaction, await self._named(interaction, name))

    async def _named(self, interaction: discord.Interaction, name: str | None) -> TournamentRecord:
        """The tournament ``name`` names, for looking at (``tournament_pick.named``)."""
        if interaction.guild_id is None:
            raise Rejected(Refusal.NO_TOURNAMENT)
        found = await self._known(interaction.guild_id)
        return named(found, interaction.channel_id, name)

    @tournament.command(name=ls("name.t_export"), description=ls("cmd.t_export"))
    @app_commands.rename(name=ls("pname.t_name"))
    @app_commands.describe(name=ls("opt.t_which"))
    @app_commands.autocomplete(name=_any_choices)
    async def t_export(self, interaction: discord.Interaction, name: str | None = None) -> None:
        await send_export(self.bot, interaction, await self._named(interaction, name))

    @tournament.command(name=ls("name.history"), description=ls("cmd.t_history"))
    async def t_history(self, interaction: discord.Interaction) -> None:
        if interaction.guild_id is None:
            raise Rejected(Refusal.NO_TOURNAMENT)
        past = await self.bot.tournaments.store.guild_tournaments(interaction.guild_id, 20)
        await interaction.response.send_message(
            embed=history_embed(past, loc_of(interaction)), ephemeral=True
        )


def raise_not_joined() -> None:
    raise SignupError("not_joined", "you have not joined")
