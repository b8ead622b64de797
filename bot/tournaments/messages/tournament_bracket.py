"""The standings message of a single-elimination tournament: places and who is still in, a field
for each round's matches, and the bracket picture."""

from __future__ import annotations

from collections.abc import Collection, Sequence

import discord

from bot.tournaments.logic import (
    Bracket,
    BracketMatch,
    PlayedGame,
    new_bracket,
    places,
    replay_bracket,
)
from bot.tournaments.pictures.bracket import MAX_COLUMNS, BracketScene, MatchBox, Slot
from bot.tournaments.pictures.bracket import render_bracket_png as _render_bracket
from bot.tournaments.runner.formats import bracket_events, overrides_of
from bot.tournaments.storage import EntrantRecord, StoredRound, TournamentRecord, TournamentStatus

from .tournament_text import Event, Names, Translator, seed_rows, standings_embed

BRACKET_IMAGE = "bracket.png"


def tournament_bracket(
    t: TournamentRecord,
    entrants: Sequence[EntrantRecord],
    rounds: Sequence[StoredRound],
    games: Sequence[PlayedGame],
) -> Bracket | None:
    """The core's bracket from the stored games, withdrawals and the organiser's results; None
    below two entrants."""
    if len(entrants) < 2:
        return None
    if t.status is TournamentStatus.SIGNUP:  # the seeding as it stands
        return new_bracket([e.entrant for e in entrants])
    events = bracket_events(entrants, games, overrides_of(rounds).values())
    return replay_bracket([e.entrant for e in entrants], events, t.settings.match)


def round_name(b: Bracket | None, round: int, tr: Translator) -> str:
    matches = len(b.winners[round - 1]) if b is not None else 1
    if matches == 1:
        return tr("tstand.stage.final")
    if matches == 2:
        return tr("tstand.stage.semi")
    if matches == 4:
        return tr("tstand.stage.quarter")
    return tr(f"tstand.stage.of{2 * matches}")  # 16, 32, 64: at most 64 entrants


def elimination_message(e: Event, tr: Translator) -> tuple[discord.Embed, bytes, str]:
    t = e.t
    b = tournament_bracket(t, e.entrants, e.rounds, e.games)
    who = Names(e.entrants, e.names, tr)
    opened = {r.number for r in e.rounds}
    played = {(g.round, g.table) for g in e.games}
    decided = set(overrides_of(e.rounds))
    status = bracket_status(t, b, len(e.entrants), opened, tr)
    head = [status]
    champion = b.champion() if b is not None else None
    if champion is not None:
        head.insert(0, tr("tstand.champion", name=who.md(champion)))
    fields = []
    if b is not None and t.status is not TournamentStatus.SIGNUP:
        for r in range(1, b.rounds + 1):
            cancelled = t.status is TournamentStatus.CANCELLED
            lines = match_lines(
                b.matches(r), who, opened, played, tr, cancelled=cancelled, decided=decided
            )
            if lines:
                fields.append((round_name(b, r, tr), lines))
    embed = standings_embed(
        t, head, player_rows(b, t.status is TournamentStatus.SIGNUP, who, tr), fields, tr
    )
    scene = bracket_scene(t, b, e.entrants, who, opened, status, tr)
    return embed, _render_bracket(scene), BRACKET_IMAGE


def current_round(b: Bracket) -> int | None:
    """The earliest round with a match to play; None when the bracket is decided."""
    return next((r for r in range(1, b.rounds + 1) if any(m.ready for m in b.matches(r))), None)


def bracket_status(
    t: TournamentRecord, b: Bracket | None, entrants: int, opened: set[int], tr: Translator
) -> str:
    if t.status is TournamentStatus.SIGNUP:
        return tr("tstand.status.signup", n=entrants)
    if t.status is TournamentStatus.CANCELLED:
        return tr("tstand.status.cancelled")
    r = current_round(b) if b is not None else None
    if b is None or r is None or t.status is TournamentStatus.FINISHED:
        return tr("tstand.status.final", n=entrants)
    left = sum(m.ready for m in b.matches(r))
    return tr("tstand.status.stage", stage=round_name(b, r, tr), n=left)


def records(b: Bracket) -> dict[int, tuple[int, int]]:
    """Each player's matches won and lost (a bye is neither)."""
    won = dict.fromkeys(b.seeds, 0)
    lost = dict.fromkeys(b.seeds, 0)
    for r in range(1, b.rounds + 1):
        for m in b.matches(r):
            p, q = m.players
            if m.winner is None or p is None or q is None:
                continue
            won[m.winner] += 1
            lost[q if m.winner == p else p] += 1
    return {p: (won[p], lost[p]) for p in b.seeds}


def player_rows(b: Bracket | None, signup: bool, who: Names, tr: Translator) -> list[str]:
    """Who is still in (by seed), then the places, best first; the seeds during the sign-up."""
    if b is None or signup:
        return seed_rows(who, tr)
    placed = places(b)
    done = {p for p, _ in placed}
    wl = records(b)
    rows = []
    for p in b.seeds:
        if p not in done:
            w, lost = wl[p]
            rows.append(tr("tstand.alive_row", seed=who.seed[p], name=who.listed(p),
                           record=tr("tstand.wl", w=w, l=lost)))  # fmt: skip
    for p, place in placed:
        w, lost = wl[p]
        name = who.listed(p)
        rows.append(tr("tstand.place_row", place=str(place), name=name,
                       record=tr("tstand.wl", w=w, l=lost)))  # fmt: skip
    return rows


def match_lines(
    matches: Sequence[BracketMatch],
    who: Names,
    opened: set[int],
    played: set[tuple[int, int]],
    tr: Translator,
    *,
    cancelled: bool = False,
    decided: Collection[tuple[int, int]] = (),
) -> list[str]:
    """A round's matches: the results (``decided``: those the organiser recorded, marked so),
    the byes, the matches being played or to play next (in a cancelled tournament: left
    unfinished)."""
    out = []
    byes = []
    for m in matches:
        p, q = m.players
        if m.winner is not None and (p is None or q is None):
            byes.append(who.md(m.winner))
        elif (m.round, m.number) in decided:
            loser = q if m.winner == p else p
            line = tr("tstand.beat", winner=who.md(m.winner), loser=who.md(loser))
            out.append(f"{line} {tr('tstand.overridden')}")
        elif m.winner is not None:
            loser = q if m.winner == p else p
            # a withdrawal decides a match even after some of its games (a walkover)
            won = (m.round, m.number) in played and loser not in who.withdrawn
            key = "tstand.beat" if won else "tstand.forfeit"
            out.append(tr(key, winner=who.md(m.winner), loser=who.md(loser)))
        elif m.ready and not (cancelled and m.round not in opened):
            key = "tstand.match_playing" if m.round in opened else "tstand.match_next"
            key = "tstand.match_cancelled" if cancelled else key
            out.append(tr(key, a=who.md(p), b=who.md(q)))
    if byes:
        out.append(tr("tstand.bye_line", names=", ".join(byes)))
    return out


def _slot(b: Bracket, m: BracketMatch, i: int, first: int, who: Names, tr: Translator) -> Slot:
    """Player ``i`` of match ``m``. In the first drawn round of a bracket cut short, a place
    still open names the two players of the match that decides it ("A / B"), if known."""
    p = m.players[i]
    if p is None:
        if m.round == 1:
            return Slot(tr("tstand.bye"), None, "bye")
        feeder = b.players(m.round - 1, 2 * m.number - 1 + i)
        if m.round == first and None not in feeder:
            return Slot(" / ".join(who.plain(x) for x in feeder), None, "unknown")
        return Slot("—", None, "unknown")
    seed = b.seeds.index(p) + 1
    if m.winner is None:
        return Slot(who.plain(p), seed, "ready")
    if m.winner == p:
        return Slot(who.plain(p), seed, "won")
    if p in who.withdrawn:  # the walkover's mark
        return Slot(tr("tstand.withdrawn", name=who.plain(p)), seed, "lost")
    return Slot(who.plain(p), seed, "lost")


def bracket_scene(
    t: TournamentRecord,
    b: Bracket | None,
    entrants: Sequence[EntrantRecord],
    who: Names,
    opened: set[int],
    status: str,
    tr: Translator,
) -> BracketScene:
    """The last MAX_COLUMNS rounds (the round of 16 on); a line names the earlier ones."""
    title = tr("tstand.title", name=t.name)
    label = tr("tstand.champion_label")
    if b is None:  # fewer than two entrants: the final's empty box
        slots = [Slot(who.plain(e.user_id), 1, "ready") for e in entrants]
        slots += [Slot("—", None, "unknown")] * (2 - len(slots))
        final = (MatchBox(slots[0], slots[1]),)
        return BracketScene(title, status, (round_name(None, 1, tr),), (final,), label, "")
    first = max(1, b.rounds - MAX_COLUMNS + 1)
    shown = range(first, b.rounds + 1)
    rounds = tuple(
        tuple(
            MatchBox(
                _slot(b, m, 0, first, who, tr),
                _slot(b, m, 1, first, who, tr),
                m.ready and r in opened,
            )
            for m in b.matches(r)
        )
        for r in shown
    )
    names = tuple(round_name(b, r, tr) for r in shown)
    champion = b.champion()
    more = tr("tstand.earlier_rounds", n=first - 1) if first > 1 else ""
    return BracketScene(
        title, status, names, rounds, label, who.plain(champion) if champion else "", more
    )
