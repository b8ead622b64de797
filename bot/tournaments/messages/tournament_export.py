"""``/durak-tournament export``: a tournament's results as files (issue #30, "export"; issue #47
item 6: its settings and every round).

``settings.csv``: the event's settings, one per row (format, rounds, seats, match, rules,
timer, dates, organiser...). ``standings.csv``: one row per player, every tie-break.
``games.csv``: one row per game of each round (a table the organiser decided without a game,
and each bye, a row too). ``tournament.json``: the same settings, the players, each round's
tables and byes, every game with its seed commitment (``/durak verify <game id>`` checks it),
the organiser's results of tables (an override: who won or forfeited, who recorded it, when;
the deciding game's round marked), and the same standings. Everything is recomputed from the
stored records, as the standings message is. A spreadsheet opens the CSV files as they are:
a text cell that would start a formula is written with a leading ``'`` (OWASP's advice)."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Mapping, Sequence
from fractions import Fraction

import discord

from bot.tournaments.logic import Format, PlayedGame, places
from bot.tournaments.runner.check_in import MINUTES as CHECK_IN_MINUTES
from bot.tournaments.runner.deciding import DECIDER, decider_round
from bot.tournaments.runner.entrants import bye_limit, late_join_until
from bot.tournaments.runner.formats import field_size
from bot.tournaments.runner.options import TableOptions
from bot.tournaments.runner.tournament_runner import break_minutes
from bot.tournaments.storage import EntrantRecord, PairedTable, StoredRound, TournamentRecord

from .tournament_bracket import tournament_bracket
from .tournament_standings import swiss_standings

#: The standings' columns (the CSV's header, the JSON's keys).
SWISS_COLUMNS = (
    "rank", "user_id", "name", "points", "buchholz", "head_to_head", "sonneborn_berger",
    "wins", "last_places", "byes", "withdrawn",
)  # fmt: skip
BRACKET_COLUMNS = ("place", "user_id", "name", "withdrawn")
GAME_COLUMNS = (
    "round", "table", "kind", "game_id", "players", "finishing_order", "durak", "result",
)  # fmt: skip
#: What starts a formula in a spreadsheet (OWASP, "CSV injection").
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def spreadsheet_safe(value: object) -> object:
    """A CSV cell a spreadsheet shows as typed: text that would start a formula gets a
    leading single quote; numbers stay numbers."""
    if isinstance(value, str) and value.startswith(FORMULA_START):
        return "'" + value
    return value


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


def settings_entry(
    t: TournamentRecord, entrants: Sequence[EntrantRecord], names: Mapping[int, str]
) -> dict[str, object]:
    """The event's settings as they were played (issue #47 item 6)."""
    s = t.settings
    options = TableOptions.of(t.options)
    field = field_size(entrants)  # late entrants add no round
    return {
        "id": t.tournament_id,
        "name": t.name,
        "status": str(t.status),
        "format": str(s.format),
        "rounds": s.rounds_for(field) if field else s.rounds,
        "rounds_set": s.rounds,
        "table_size": s.table_size,
        "match": {"kind": str(s.match.kind), "count": s.match.count},
        "player_limit": s.player_limit,
        "ai_fill": s.ai_fill,
        "decider": bool(t.options.get(DECIDER, True)),
        "rules": options.rules.options(),
        "turn_timer": options.turn_timer,
        "language": options.language,
        "check_in_minutes": t.options.get(CHECK_IN_MINUTES) or 0,
        **extras_entry(t),
        "organiser": {"user_id": t.organiser_id, "name": names.get(t.organiser_id, "")},
        "created_at": t.created_at.isoformat(),
        "signup_deadline": None if t.signup_deadline is None else t.signup_deadline.isoformat(),
        "started_at": None if t.started_at is None else t.started_at.isoformat(),
        "finished_at": None if t.finished_at is None else t.finished_at.isoformat(),
    }


def game_rows(
    rounds: Sequence[StoredRound],
    games: Sequence[PlayedGame],
    game_ids: Sequence[tuple[str, str]],
    names: Mapping[int, str],
) -> list[dict[str, object]]:
    """One row per game of each round, in the order played; a table the organiser decided
    without a game, and each bye, one row too."""

    def name(seat: int | None) -> str:
        return "AI" if seat is None else names.get(seat, str(seat))

    by_table: dict[tuple[int, int], list[tuple[PlayedGame, str]]] = {}
    for g, (gid, _) in zip(games, game_ids, strict=True):
        by_table.setdefault((g.round, g.table), []).append((g, gid))
    out: list[dict[str, object]] = []
    for r in rounds:
        for tb in r.tables:
            players = " | ".join(name(p) for p in tb.seats)
            o = tb.override
            result = "" if o is None else f"{o.kind}: {name(o.player)}"
            played = by_table.get((r.number, tb.number), [])
            for g, gid in played:
                out.append({
                    "round": r.number, "table": tb.number, "kind": "game", "game_id": gid,
                    "players": players,
                    "finishing_order": ", ".join(name(g.seats[i]) for i in g.finishing_order),
                    "durak": "" if g.durak is None else name(g.seats[g.durak]),
                    "result": result,
                })  # fmt: skip
            if o is not None and not played:
                out.append({"round": r.number, "table": tb.number, "kind": "override",
                            "players": players, "result": result})  # fmt: skip
        out.extend({"round": r.number, "kind": "bye", "players": name(p)} for p in r.byes)
    return out


def export_data(
    t: TournamentRecord,
    entrants: Sequence[EntrantRecord],
    rounds: Sequence[StoredRound],
    games: Sequence[PlayedGame],
    game_ids: Sequence[tuple[str, str]],
    names: Mapping[int, str],
) -> dict[str, object]:
    """``game_ids``: each game's id and seed commitment, in the order of ``games``;
    ``names``: the entrants' and the organiser's."""
    return {
        "tournament": settings_entry(t, entrants, names),
        "players": [
            {
                "user_id": e.user_id,
                "name": names.get(e.user_id, str(e.user_id)),
                "rating": e.rating,
                "signup_order": e.signup_order,
                "withdrawn": e.withdrawn,
                "checked_in": e.checked_in,
                "seed_by_hand": e.seed or None,
                "first_round": e.joined_round,
                "requested_byes": list(e.rests),
            }
            for e in entrants
        ],
        "rounds": [
            {
                "round": r.number,
                "status": str(r.status),
                "deciding_game": r.number == decider_round(t),
                "started_at": r.started_at.isoformat(),
                "finished_at": None if r.finished_at is None else r.finished_at.isoformat(),
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
        "game_rows": game_rows(rounds, games, game_ids, names),
        "standings": standings_rows(t, entrants, rounds, games, names),
    }


def extras_entry(t: TournamentRecord) -> dict[str, object]:
    """The settings of issue #47's controls: late entrants until which round, the break
    between rounds, the byes a player may ask for (Swiss)."""
    return {
        "late_join_until": late_join_until(t),
        "break_minutes": break_minutes(t),
        "byes_on_request": bye_limit(t),
    }


def export_files(data: dict[str, object], swiss: bool) -> list[discord.File]:
    settings = data["tournament"]
    assert isinstance(settings, dict)
    rows = data["standings"]
    games = data["game_rows"]
    assert isinstance(rows, list) and isinstance(games, list)
    sheets = (
        ("settings.csv", ("setting", "value"), [{"setting": k, "value": v}
                                                for k, v in flat(settings).items()]),
        ("standings.csv", SWISS_COLUMNS if swiss else BRACKET_COLUMNS, rows),
        ("games.csv", GAME_COLUMNS, games),
    )  # fmt: skip
    files = [discord.File(io.BytesIO(csv_text(columns, body).encode()), filename=name)
             for name, columns, body in sheets]  # fmt: skip
    text = json.dumps(data, ensure_ascii=False, indent=2)
    files.append(discord.File(io.BytesIO(text.encode()), filename="tournament.json"))
    return files


def csv_text(columns: Sequence[str], rows: Sequence[Mapping[str, object]]) -> str:
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=columns)
    writer.writeheader()
    writer.writerows({k: spreadsheet_safe(v) for k, v in row.items()} for row in rows)
    return out.getvalue()


def flat(settings: Mapping[str, object], prefix: str = "") -> dict[str, object]:
    """``{"match": {"kind": "games"}}`` as ``{"match.kind": "games"}``: one row each."""
    out: dict[str, object] = {}
    for key, value in settings.items():
        if isinstance(value, Mapping):
            out.update(flat(value, f"{prefix}{key}."))
        else:
            out[f"{prefix}{key}"] = value
    return out
