"""What the tournament standings' embed and pictures share: the translator they take, names,
numbers, the status line, and fitting text into Discord's embed limits."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Final, Protocol

import discord

from bot.text import t
from bot.text.names import shown_name
from bot.tournaments.logic import Format, PlayedGame, seed_order
from bot.tournaments.storage import EntrantRecord, StoredRound, TournamentRecord, TournamentStatus

#: Discord's embed limits (https://discord.com/developers/docs/resources/message#embed-object-
#: embed-limits): the description, a field's value, the fields, and all the text together.
DESCRIPTION_MAX: Final = 4096
FIELD_MAX: Final = 1024
FIELDS_MAX: Final = 25
EMBED_MAX: Final = 6000
#: The standings take at most this much of the description, so that the rounds' fields keep
#: room within EMBED_MAX.
DESCRIPTION_BUDGET: Final = 3000
NAME_CHARS: Final = 32  # a Discord display name's limit; longer names are cut with "…"

COLOURS: Final = {
    TournamentStatus.SIGNUP: 0x1E88E5,
    TournamentStatus.RUNNING: 0x2E7D32,
    TournamentStatus.FINISHED: 0xF9A825,
    TournamentStatus.CANCELLED: 0x757575,
}


@dataclass(frozen=True, slots=True)
class Event:
    """What the standings are made of, as stored: the tournament, its entrants (withdrawn ones
    too), its rounds as paired, its games in the order played; and the entrants' names."""

    t: TournamentRecord
    entrants: Sequence[EntrantRecord]
    rounds: Sequence[StoredRound]
    games: Sequence[PlayedGame]
    names: Mapping[int, str]


class Translator(Protocol):
    """A message by key in the reader's language: ``tr("tstand.title", name=...)``."""

    def __call__(self, key: str, /, **params: object) -> str: ...


def translator_for(locale: object | None) -> Translator:
    """The catalogue's :func:`bot.text.t` bound to a Discord locale (or a bare language)."""

    def tr(key: str, /, **params: object) -> str:
        return t(key, locale, **params)

    return tr


def as_translator(translator: Translator | str | None) -> Translator:
    """A translator, or a locale to make one of (None: English)."""
    return translator if callable(translator) else translator_for(translator)


def num(value: Fraction) -> str:
    """Points are whole or halves (docs/tournaments.md): 4, ½, 3½."""
    whole, half = divmod(value * 2, 2)
    if half == 0:
        return str(int(whole))
    return "½" if whole == 0 else f"{int(whole)}½"


def tiebreak_texts(values: Sequence[Fraction]) -> list[str]:
    """A column of Buchholz values, written alike: whole or halves as points are when all are
    (2-seat tables: 6½); else at larger tables, where a mean of three or five opponents is
    thirds, fifths..., every value in decimals, one when that is exact for all (fifths: 10.4,
    and 8.0 beside it), two otherwise (19/3: 6.33). Never rounded to a half: what is shown
    keeps the order the exact values give."""
    if all((v * 2).denominator == 1 for v in values):
        return [num(v) for v in values]
    places = 1 if all((v * 10).denominator == 1 for v in values) else 2
    return [f"{float(v):.{places}f}" for v in values]


def tiebreak_text(value: Fraction) -> str:
    """One Buchholz value alone (:func:`tiebreak_texts`)."""
    return tiebreak_texts([value])[0]


class Names:
    """Display names of entrants (their seed when the bot has no name) and of AI seats."""

    def __init__(
        self, entrants: Sequence[EntrantRecord], names: Mapping[int, str], tr: Translator
    ) -> None:
        self.seed = {e.player: i + 1 for i, e in enumerate(seed_order(x.entrant for x in entrants))}
        self.withdrawn = frozenset(e.user_id for e in entrants if e.withdrawn)
        self._names = names
        self._tr = tr

    def plain(self, player: int | None) -> str:
        """The name as the picture draws it."""
        if player is None:
            return self._tr("tstand.ai")
        name = " ".join((self._names.get(player) or "").split())
        if not name:
            return self._tr("tstand.unknown", seed=self.seed.get(player, "?"))
        return name if len(name) <= NAME_CHARS else name[: NAME_CHARS - 1] + "…"

    def md(self, player: int | None) -> str:
        """The name for the embed's text (markdown characters escaped)."""
        return shown_name(self.plain(player))

    def listed(self, player: int) -> str:
        """The name in the players' list: that they withdrew, too."""
        name = self.md(player)
        return self._tr("tstand.withdrawn", name=name) if player in self.withdrawn else name


def seed_rows(who: Names, tr: Translator) -> list[str]:
    """The entrants by seed: the sign-up's list (nobody has points yet)."""
    return [tr("tstand.seed_row", seed=seed, name=who.md(p)) for p, seed in who.seed.items()]


def fit_lines(lines: Sequence[str], limit: int, more: Translator, *, key: str) -> str:
    """``lines`` joined, as many as fit in ``limit`` characters with a last line saying how
    many were left out (``key``: a plural message of ``n``)."""
    text = "\n".join(lines)
    if len(text) <= limit:
        return text
    kept: list[str] = []
    used = 0
    for i, line in enumerate(lines):
        tail = more(key, n=len(lines) - i - 1)
        if used + len(line) + 1 + len(tail) > limit:
            break
        kept.append(line)
        used += len(line) + 1
    return "\n".join([*kept, more(key, n=len(lines) - len(kept))])[:limit]


def add_fields(
    embed: discord.Embed, fields: Sequence[tuple[str, list[str]]], tr: Translator, *, key: str
) -> None:
    """Add ``fields`` (a name, its lines) sharing what the embed's text limit leaves, each cut
    to fit with a line saying how many lines were left out. A Swiss has at most 15 rounds and
    a bracket 6, so Discord's 25 fields are never reached; past them the last would go."""
    fields = list(fields)[:FIELDS_MAX]
    if not fields:
        return
    used = len(embed.title or "") + len(embed.description or "")
    used += len(embed.footer.text or "") if embed.footer else 0
    used += sum(len(name[:256]) for name, _ in fields)
    room = max(0, EMBED_MAX - used - 16)
    share = min(FIELD_MAX, room // len(fields))
    for name, lines in fields:
        value = fit_lines(lines, share, tr, key=key) if lines else "—"
        embed.add_field(name=name[:256], value=value or "—", inline=False)


def standings_embed(
    t: TournamentRecord,
    head: Sequence[str],
    rows: Sequence[str],
    fields: Sequence[tuple[str, list[str]]],
    tr: Translator,
) -> discord.Embed:
    """The embed: the title, the status lines and the players' lines (as many as the budget
    holds), the format in the footer, then the rounds' fields in what is left."""
    text = "\n".join(head)
    budget = DESCRIPTION_BUDGET - len(text) - 2
    body = fit_lines(rows, budget, tr, key="tstand.more_players") if rows else ""
    embed = discord.Embed(
        title=tr("tstand.title", name=shown_name(t.name)),
        description=f"{text}\n\n{body or tr('tstand.no_entrants')}",
        colour=COLOURS[t.status],
    )
    embed.set_footer(text=format_line(t, tr))
    add_fields(embed, fields, tr, key="tstand.more")
    return embed


def format_line(tour: TournamentRecord, tr: Translator) -> str:
    """The footer: the format, the table size, the match, the tie-break."""
    s = tour.settings
    match = tr(f"tstand.match.{s.match.kind.value}", n=s.match.count)
    if s.format is Format.SWISS:
        return tr("tstand.footer.swiss", size=s.table_size, match=match)
    if s.format is Format.ROUND_ROBIN:
        return tr("tstand.footer.round_robin", match=match)
    return tr("tstand.footer.elimination", match=match)
