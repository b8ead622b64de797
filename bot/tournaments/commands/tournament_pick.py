"""Which tournament an organiser's command acts on: the one its ``tournament`` option names
(autocompleted from the server's open ones), else the only open one of the channel (of the
server, when the channel has none). Two or more and none named: the command asks, so a second
tournament never takes over the first one's commands."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypeVar

from discord import app_commands

from bot.tables.refusals import Refusal, Rejected
from bot.text import t
from bot.text.names import shown_name
from bot.text.translator import ls
from bot.tournaments.logic import ResultError
from bot.tournaments.storage import RoundStatus, StoredRound, TournamentRecord, TournamentStatus

OPEN = (TournamentStatus.SIGNUP, TournamentStatus.RUNNING)
F = TypeVar("F", bound=Callable[..., Any])
#: Discord shows at most 25 suggestions, each at most 100 characters.
MAX_CHOICES, MAX_CHOICE_NAME = 25, 100


def pick(
    found: Sequence[TournamentRecord], channel_id: int | None, wanted: str | None
) -> TournamentRecord:
    """``found``: the server's tournaments, newest first. Raises ``Rejected``: none such, or
    several open and none named."""
    open_ones = [tr for tr in found if tr.status in OPEN]
    if wanted is not None and wanted.strip():
        key = wanted.strip()
        for tr in open_ones:
            if tr.tournament_id == key:
                return tr
        named = [tr for tr in open_ones if tr.name.casefold() == key.casefold()]
        if len(named) == 1:
            return named[0]
        if not named:
            raise Rejected(Refusal.NO_TOURNAMENT)
        open_ones = named
    else:
        here = [tr for tr in open_ones if tr.channel_id == channel_id]
        open_ones = here or open_ones
    if len(open_ones) == 1:
        return open_ones[0]
    if not open_ones:
        raise Rejected(Refusal.NO_TOURNAMENT)
    names = ", ".join(f"“{shown_name(tr.name)}”" for tr in open_ones)
    raise Rejected(Refusal.TOURNAMENT_AMBIGUOUS, {"names": names})


def named(
    found: Sequence[TournamentRecord], channel_id: int | None, name: str | None
) -> TournamentRecord:
    """What anyone may look at (standings, export): the tournament ``name`` names, in any
    state, else the open one :func:`pick` picks, else the newest of the channel (a finished one
    is still looked at). ``found``: the server's tournaments, newest first."""
    if name is None:
        try:
            return pick(found, channel_id, None)
        except Rejected as exc:
            here = [tr for tr in found if tr.channel_id == channel_id]
            if exc.kind is not Refusal.NO_TOURNAMENT or not here:
                raise
            return here[0]
    wanted = name.strip().casefold()
    for tr in found:
        if tr.name.casefold() == wanted or tr.tournament_id == wanted:
            return tr
    raise Rejected(Refusal.NO_TOURNAMENT)


def choices(
    found: Sequence[TournamentRecord], typed: str, loc: str, *, open_only: bool = True
) -> list[app_commands.Choice[str]]:
    """The suggestions for the ``tournament`` option: name and state, by id (names may repeat)."""
    typed = typed.strip().casefold()
    out: list[app_commands.Choice[str]] = []
    for tr in found:
        if open_only and tr.status not in OPEN:
            continue
        if typed and typed not in tr.name.casefold():
            continue
        label = f"{tr.name} · {t(f'tournament.state.{tr.status}', loc)}"
        out.append(app_commands.Choice(name=label[:MAX_CHOICE_NAME], value=tr.tournament_id))
    return out[:MAX_CHOICES]


def table_choices(
    rounds: Sequence[StoredRound], names: Mapping[int, str], typed: str, loc: str
) -> list[app_commands.Choice[str]]:
    """The suggestions for ``/durak-tournament override``'s table: the round being played's
    tables without a recorded result, each named as its thread is, with who sits there."""
    if not rounds or rounds[-1].status is not RoundStatus.RUNNING:
        return []
    rnd = rounds[-1]
    typed = typed.strip().casefold()
    out: list[app_commands.Choice[str]] = []
    for label, paired in enumerate(rnd.tables, 1):
        if paired.override is not None:
            continue
        ai = t("tstand.ai", loc)
        players = ", ".join(ai if p is None else names.get(p, str(p)) for p in paired.seats)
        text = t("tournament.override.choice", loc, round=rnd.number, table=label, players=players)
        if typed and typed not in text.casefold():
            continue
        out.append(app_commands.Choice(name=text[:MAX_CHOICE_NAME], value=str(paired.number)))
    return out[:MAX_CHOICES]


def table_number(value: str) -> int:
    """The table the ``table`` option names (its stored number, as autocomplete gives it)."""
    try:
        return int(value.strip())
    except ValueError:
        raise ResultError("override_table", f"no table {value!r}") from None


def tournament_option(suggest: Callable[..., Any]) -> Callable[[F], F]:
    """A command's ``tournament`` option: its localised name and description, and ``suggest``
    (a cog method) as its autocomplete."""

    def decorate(command: F) -> F:
        command = app_commands.autocomplete(tournament=suggest)(command)
        command = app_commands.describe(tournament=ls("opt.t_event"))(command)
        return app_commands.rename(tournament=ls("pname.t_event"))(command)

    return decorate
