"""``/durak-tournament export``: a tournament's results as files (issue #30, "export").

``standings.csv``: one row per player, every tie-break (a spreadsheet opens it as it is).
``tournament.json``: the players, each round's tables and byes, every game with its seed
commitment (``/durak verify <game id>`` checks it), the organiser's results of tables (an
override: who won or forfeited, who recorded it, when; the deciding game's round marked), and
the same standings. Everything is
recomputed from the stored records, as the standings message is."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Mapping, Sequence
from fractions import Fraction

import discord

from bot.tournaments.logic import Format, PlayedGame, places
from bot.tournaments.runner.deciding import decider_round
from bot.tournaments.storage import EntrantRecord, PairedTable, StoredRound, TournamentRecord

from .tournament_bracket import tournament_bracket
from .tournament_standings import swiss_standings

#: The standings' columns (the CSV's header, the JSON's keys).
SWISS_COLUMNS = (
    "rank", "user_id", "name", "points", "buchholz", "head_to_head", "sonneborn_berger",
    "wins", "last_places", "byes", "withdrawn",
)  # fmt: skip
BRACKET_COLUMNS = ("place", "user_id", "name", "withdrawn")


def number(value: Fraction) -> float:
    """A tie-break as a number a spreadsheet reads (4 decimals: thirds and fifths kept apart)."""
    return round(float(value), 4)


def standings_rows(
    t: TournamentRecord,
    entrants: Sequence[EntrantRecord],
    rounds: Sequence[StoredRound],
    games: Sequence[PlayedGame],
    names: Mapping[int, str],
) -> list[dict[str, object]]:
    withdrawn = {e.user_id for e in entrants if e.withdrawn}
    if t.settings.format is Format.SINGLE_ELIMINATION:
        b = tournament_bracket(t, entrants, rounds, games)
        placed = [] if b is None else places(b)
        return [
            {"place": str(place), "user_id": p, "name": names.get(p, str(p)),
             "withdrawn": p in withdrawn}
            for p, place in placed
        ]  # fmt: skip
    st = swiss_standings(t, entrants, rounds, games)
    return [
        {
            "rank": r.rank,
            "user_id": r.player,
            "name": names.get(r.player, str(r.player)),
            "points": number(r.points),
            "buchholz": number(r.buchholz),
            "head_to_head": number(r.head_to_head),
            "sonneborn_berger": number(r.sonneborn),
            "wins": r.firsts,
            "last_places": r.lasts,
            "byes": r.byes,
            "withdrawn": r.player in withdrawn,
        }
        for r in st.rows
    ]


def table_entry(tb: PairedTable) -> dict[str, object]:
    """A paired table, and the organiser's result of it: which, for whom, by whom, when."""
    entry: dict[str, object] = {"table": tb.number, "seats": list(tb.seats)}
    o = tb.override
    if o is not None:
        entry["override"] = {
            "kind": str(o.kind), "player": o.player, "by": o.by, "at": o.at.isoformat(),
        }  # fmt: skip
    return entry


def export_data(
    t: TournamentRecord,
    entrants: Sequence[EntrantRecord],
    rounds: Sequence[StoredRound],
    games: Sequence[PlayedGame],
    game_ids: Sequence[tuple[str, str]],
    names: Mapping[int, str],
) -> dict[str, object]:
    """``game_ids``: each game's id and seed commitment, in the order of ``games``."""
    s = t.settings
    return {
        "tournament": {
            "id": t.tournament_id,
            "name": t.name,
            "format": str(s.format),
            "table_size": s.table_size,
            "match": {"kind": str(s.match.kind), "count": s.match.count},
            "status": str(t.status),
        },
        "players": [
            {
                "user_id": e.user_id,
                "name": names.get(e.user_id, str(e.user_id)),
                "rating": e.rating,
                "signup_order": e.signup_order,
                "withdrawn": e.withdrawn,
                "checked_in": e.checked_in,
            }
            for e in entrants
        ],
        "rounds": [
            {
                "round": r.number,
                "status": str(r.status),
                "deciding_game": r.number == decider_round(t),
                "tables": [table_entry(tb) for tb in r.tables],
                "byes": list(r.byes),
            }
            for r in rounds
        ],
        "games": [
            {
                "round": g.round,
                "table": g.table,
                "game_id": gid,
                "seed_commitment": commitment,
                "seats": list(g.seats),
                "finishing_order": list(g.finishing_order),
                "durak": g.durak,
            }
            for g, (gid, commitment) in zip(games, game_ids, strict=True)
        ],
        "standings": standings_rows(t, entrants, rounds, games, names),
    }


def export_files(data: dict[str, object], swiss: bool) -> list[discord.File]:
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=SWISS_COLUMNS if swiss else BRACKET_COLUMNS)
    writer.writeheader()
    rows = data["standings"]
    assert isinstance(rows, list)
    writer.writerows(rows)
    text = json.dumps(data, ensure_ascii=False, indent=2)
    return [
        discord.File(io.BytesIO(out.getvalue().encode()), filename="standings.csv"),
        discord.File(io.BytesIO(text.encode()), filename="tournament.json"),
    ]
