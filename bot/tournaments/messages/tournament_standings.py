"""The tournament's public standings message: one embed, edited in place as results come in,
and its picture — the standings (Swiss) or the bracket (single elimination).

Everything shown is recomputed from the stored entrants, rounds and games through the core's
own functions (:func:`bot.tournaments.logic.standings`, :func:`replay_bracket`), so the message
always equals a recomputation. The embed lists every player (as many as Discord's limits
allow, then "and N more"); the picture shows the top of the table, big enough for a phone
(docs/tournaments.md, "What people look at").
"""

from __future__ import annotations

import io
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass

import discord

from bot.tournaments.logic import (
    Format,
    Place,
    PlayedGame,
    RoundEntry,
    RoundLine,
    StandingRow,
    Standings,
    half_bye_points,
)
from bot.tournaments.pictures.tournament import (
    MAX_ROWS,
    Mark,
    MarkKind,
    StandingsLine,
    StandingsScene,
)
from bot.tournaments.pictures.tournament import render_standings_png as _render_standings
from bot.tournaments.runner.deciding import decider_round, deciding_result, swiss_table
from bot.tournaments.runner.formats import field_size, overrides_of
from bot.tournaments.storage import EntrantRecord, StoredRound, TournamentRecord, TournamentStatus
from bot.ui.cycles import PictureFile

from .tournament_bracket import elimination_message
from .tournament_text import (
    Event,
    Names,
    Translator,
    as_translator,
    num,
    seed_rows,
    standings_embed,
    tiebreak_texts,
    translator_for,
)

__all__ = ["StandingsMessage", "Translator", "standings_message", "translator_for"]

STANDINGS_IMAGE = "standings.png"
#: A round at a 2-seat table as the picture marks it: won, drawn (shared), lost.
MARK_WORDS: dict[MarkKind, str] = {
    "first": "tstand.mark.win",
    "shared": "tstand.mark.draw",
    "last": "tstand.mark.loss",
}


@dataclass(frozen=True)
class StandingsMessage:
    embed: discord.Embed  # its image is f"attachment://{filename}"
    picture: bytes  # PNG
    filename: str

    def file(self) -> discord.File:
        """The picture as the attachment the embed's image names (a new one for each send:
        discord.py reads a file once)."""
        return PictureFile(io.BytesIO(self.picture), filename=self.filename)


def standings_message(
    t: TournamentRecord,
    entrants: Sequence[EntrantRecord],
    rounds: Sequence[StoredRound],
    games: Sequence[PlayedGame],
    names: Mapping[int, str],
    translator: Translator | str | None,
) -> StandingsMessage:
    """The standings message of ``t`` now: during the sign-up, while rounds run, and at the end
    (the champion, places, each player's record, a line for each round). ``games``: the stored
    games in the order played. ``names``: user id → display name. ``translator``: the reader's
    words (:func:`tournament_text.translator_for`), or a locale."""
    tr = as_translator(translator)
    event = Event(t, entrants, rounds, games, names)
    if t.settings.format is Format.SINGLE_ELIMINATION:
        embed, picture, filename = elimination_message(event, tr)
    else:
        embed, picture, filename = swiss_message(event, tr)
    embed.set_image(url=f"attachment://{filename}")
    return StandingsMessage(embed, picture, filename)


def swiss_standings(
    t: TournamentRecord,
    entrants: Sequence[EntrantRecord],
    rounds: Sequence[StoredRound],
    games: Sequence[PlayedGame],
) -> Standings:
    """The core's standings from the stored records (finished matches only; the joint leaders
    ordered by their deciding game once it is over)."""
    return swiss_table(t.settings, decider_round(t), entrants, rounds, games)


def swiss_message(e: Event, tr: Translator) -> tuple[discord.Embed, bytes, str]:
    t = e.t
    st = swiss_standings(t, e.entrants, e.rounds, e.games)
    who = Names(e.entrants, e.names, tr)
    seats = {(line.round, tl.table): len(tl.seats) for line in st.lines for tl in line.tables}
    status = swiss_status(t, st, field_size(e.entrants), tr)
    head = [status]
    if t.status is TournamentStatus.FINISHED and st.rows:
        champions = [who.md(r.player) for r in st.rows if r.rank == 1]
        if len(champions) == 1:
            head.insert(0, tr("tstand.champion", name=champions[0]))
        else:
            head.insert(0, tr("tstand.champions", names=", ".join(champions)))
    tiebreaks = tiebreak_texts([r.buchholz for r in st.rows])
    rows = [
        row_text(r, st.rows[i - 1].rank if i else 0, t, who, tr, tiebreaks[i])
        for i, r in enumerate(st.rows)
    ]
    if t.status is TournamentStatus.SIGNUP:
        rows = seed_rows(who, tr)
    seated = {(r.number, table.number): table.seats for r in e.rounds for table in r.tables}
    cancelled = t.status is TournamentStatus.CANCELLED
    decided = set(overrides_of(e.rounds))
    fields = [
        round_field(line, seated, who, tr, cancelled=cancelled, decided=decided)
        for line in st.lines
    ]
    deciding = next((r for r in e.rounds if r.number == decider_round(t)), None)
    if deciding is not None:
        fields.append(decider_field(deciding, e.games, e.entrants, who, tr))
        over = deciding_result(deciding, e.games, e.entrants) is not None
        if t.status is TournamentStatus.RUNNING and not over:
            status = head[-1] = tr("tstand.status.decider")
    if t.status is not TournamentStatus.FINISHED:
        fields.reverse()  # while it runs, the round being played first
    embed = standings_embed(t, head, rows, fields, tr)
    scene = standings_scene(t, st, who, seats, status, tr)
    return embed, _render_standings(scene), STANDINGS_IMAGE


def decider_field(
    deciding: StoredRound,
    games: Sequence[PlayedGame],
    entrants: Sequence[EntrantRecord],
    who: Names,
    tr: Translator,
) -> tuple[str, list[str]]:
    """The joint leaders' deciding game: being played, or its places (best first)."""
    result = deciding_result(deciding, games, entrants)
    (table,) = deciding.tables
    if result is None:
        names = ", ".join(who.md(p) for p in table.seats)
        return tr("tstand.decider"), [tr("tstand.decider_playing", names=names)]
    placed = sorted(zip(result.places(), result.seats, strict=True), key=lambda x: x[0])
    if len(placed) == 2:
        (_, a), (_, b) = placed
        line = tr("tstand.beat", winner=who.md(a), loser=who.md(b))
    else:
        line = " · ".join(f"{place} {who.md(p)}" for place, p in placed)
    if table.override is not None:
        line = f"{line} {tr('tstand.overridden')}"
    return tr("tstand.decider"), [line]


def total_rounds(t: TournamentRecord, entrants: int, played: int) -> int:
    return max(played, t.settings.rounds_for(max(entrants, 2)))


def swiss_status(t: TournamentRecord, st: Standings, entrants: int, tr: Translator) -> str:
    total = total_rounds(t, entrants, len(st.lines))
    if t.status is TournamentStatus.SIGNUP:
        return tr("tstand.status.signup", n=entrants)
    if t.status is TournamentStatus.CANCELLED:
        return tr("tstand.status.cancelled")
    if t.status is TournamentStatus.FINISHED:
        return tr("tstand.status.final", n=entrants)
    if not st.lines:  # started, the first round not paired yet
        return tr("tstand.status.starting", n=entrants)
    line = st.lines[-1]
    tables = len(line.tables) + len(line.pending)
    return tr("tstand.status.round", round=line.round, rounds=total, done=len(line.tables),
              n=tables)  # fmt: skip


def record_text(row: StandingRow, t: TournamentRecord, tr: Translator) -> str:
    """A player's record: wins, draws, losses at 2-seat tables; the places round by round at
    larger ones ("–" a bye)."""
    if t.settings.table_size == 2:
        played = [e.place for e in row.entries if e.place is not None]
        wins = sum(p == Place(1, 1) for p in played)
        losses = sum(p == Place(2, 2) for p in played)
        text = tr("tstand.wdl", w=wins, d=len(played) - wins - losses, l=losses)
        return text + (" · " + tr("tstand.byes", n=row.byes) if row.byes else "")
    if not row.entries:
        return tr("tstand.no_games")
    return tr("tstand.places", places="/".join(place_text(e) for e in row.entries))


def place_text(e: RoundEntry) -> str:
    if e.place is None:
        return "–"
    return f"{e.place.first}=" if e.place.shared else str(e.place.first)


def row_text(
    row: StandingRow,
    rank_above: int,
    t: TournamentRecord,
    who: Names,
    tr: Translator,
    tiebreak: str,
) -> str:
    """A player's line; ``tiebreak``: their Buchholz as the column writes it
    (:func:`tiebreak_texts`)."""
    rank = f"{row.rank}." if row.rank != rank_above else "="
    return tr("tstand.row", rank=rank, name=who.listed(row.player), points=num(row.points),
              record=record_text(row, t, tr), tiebreak=tiebreak)  # fmt: skip


def round_field(
    line: RoundLine,
    seated: Mapping[tuple[int, int], tuple[int | None, ...]],
    who: Names,
    tr: Translator,
    *,
    cancelled: bool = False,
    decided: Collection[tuple[int, int]] = (),
) -> tuple[str, list[str]]:
    """A round in one field: the tables still playing (in a cancelled tournament: left
    unfinished) and who sits there, each finished table's places (best first; ``decided``: the
    organiser recorded them, marked so), the byes."""
    pending = "tstand.table_cancelled" if cancelled else "tstand.table_playing"
    out = [
        tr(pending, table=number,
           seats=", ".join(who.md(p) for p in seated.get((line.round, number), ())))
        for number in line.pending
    ]  # fmt: skip
    for table in line.tables:
        seats = " · ".join(
            f"{s.place} {who.md(s.seat)}" if len(table.seats) > 2 else who.md(s.seat)
            for s in table.seats
        )
        if len(table.seats) == 2:
            a, b = table.seats
            key = "tstand.drew" if a.place.shared else "tstand.beat"
            seats = tr(key, winner=who.md(a.seat), loser=who.md(b.seat))
        if (line.round, table.table) in decided:
            seats = f"{seats} {tr('tstand.overridden')}"
        out.append(tr("tstand.table", table=table.table, seats=seats))
    if line.byes:
        out.append(tr("tstand.bye_line", names=", ".join(who.md(p) for p in line.byes)))
    return tr("tstand.round", round=line.round), out


def mark(
    e: RoundEntry | None, seats_at: Mapping[tuple[int, int], int], size: int, tr: Translator
) -> Mark:
    """A round of a player in the picture: the place (W, D, L at 2-seat tables), a bye, or an
    empty mark (not played: still playing, or withdrawn)."""
    if e is None:
        return Mark("", "open")
    if e.place is None or e.table is None:  # at 2 seats a half bye (late, asked) shows "½"
        half = size == 2 and e.points == half_bye_points(size)
        return Mark(num(e.points) if half else "–", "bye")
    p = e.place
    seats = seats_at.get((e.round, e.table), size)
    kind: MarkKind = (
        "shared" if p.shared else "first" if p.first == 1 else "last" if p.first == seats else "mid"
    )
    if seats == 2:
        return Mark(tr(MARK_WORDS[kind]), kind)
    return Mark(place_text(e), kind)


def standings_scene(
    t: TournamentRecord,
    st: Standings,
    who: Names,
    seats: Mapping[tuple[int, int], int],
    status: str,
    tr: Translator,
) -> StandingsScene:
    """The picture: the top MAX_ROWS rows (MAX_ROWS - 1 and a line of how many more); during
    the sign-up the entrants by seed, without points."""
    signup = t.status is TournamentStatus.SIGNUP
    cut = len(st.rows) > MAX_ROWS
    shown = st.rows[: MAX_ROWS - 1] if cut else st.rows
    played = [line.round for line in st.lines]
    lines = []
    tiebreaks = tiebreak_texts([r.buchholz for r in st.rows])
    for i, row in enumerate(shown):
        by_round = {e.round: e for e in row.entries}
        marks = tuple(mark(by_round.get(r), seats, t.settings.table_size, tr) for r in played)
        same = i > 0 and shown[i - 1].rank == row.rank
        rank = str(who.seed[row.player]) if signup else "" if same else str(row.rank)
        points, tiebreak = ("", "") if signup else (num(row.points), tiebreaks[i])
        dim = row.player in who.withdrawn
        lines.append(StandingsLine(rank, who.plain(row.player), points, tiebreak, marks, dim))
    more = tr("tstand.picture_more", n=len(st.rows) - len(shown)) if cut else ""
    headings = (
        tr("tstand.head.rank"),
        tr("tstand.head.player"),
        "" if signup else tr("tstand.head.points"),
        "" if signup else tr("tstand.head.tiebreak"),
        tr("tstand.head.round"),
    )
    title = tr("tstand.title", name=t.name)
    # no medals before the start, in a cancelled event, or before anyone has scored
    medals = t.status in (TournamentStatus.RUNNING, TournamentStatus.FINISHED) and any(
        r.points > 0 for r in st.rows
    )
    return StandingsScene(title, status, headings, tuple(lines), more, medals=medals)
