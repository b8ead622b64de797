"""Tournament rows ↔ models, shared by both backends, and the settings' JSON form."""

from __future__ import annotations

import json
from typing import Any

from bot.storage.rows import dumps, parse_ts
from bot.tournaments.logic import Format, MatchKind, MatchLength, PlayedGame, TournamentSettings

from .tournament_models import EntrantRecord, PairedTable, TableOverride, TournamentRecord

#: A tournament's columns, in the order of ``tournament_values``.
TOURNAMENT_COLUMNS = (
    "tournament_id, guild_id, channel_id, organiser_id, name, settings_json, options_json,"
    " status, current_round, signup_deadline, created_at"
)
ENTRANT_COLUMNS = "user_id, rating, signup_order, withdrawn"


def settings_json(s: TournamentSettings) -> str:
    return dumps({
        "name": s.name, "format": str(s.format), "table_size": s.table_size,
        "match": {"kind": str(s.match.kind), "count": s.match.count}, "rounds": s.rounds,
        "player_limit": s.player_limit, "ai_fill": s.ai_fill,
    })  # fmt: skip


def settings_from_json(text: str) -> TournamentSettings:
    d = json.loads(text)
    match = d["match"]
    return TournamentSettings(
        name=d["name"], format=Format(d["format"]), table_size=d["table_size"],
        match=MatchLength(MatchKind(match["kind"]), match["count"]), rounds=d["rounds"],
        player_limit=d["player_limit"], ai_fill=d["ai_fill"],
    )  # fmt: skip


def _time_or_none(value: Any) -> Any:
    return None if value is None else parse_ts(value)


def tournament_from_row(row: Any) -> TournamentRecord:
    return TournamentRecord(
        tournament_id=row["tournament_id"],
        guild_id=row["guild_id"],
        channel_id=row["channel_id"],
        organiser_id=row["organiser_id"],
        settings=settings_from_json(row["settings_json"]),
        options=json.loads(row["options_json"]),
        signup_deadline=_time_or_none(row["signup_deadline"]),
        status=row["status"],
        current_round=row["current_round"],
        signup_message_id=row["signup_message_id"],
        standings_message_id=row["standings_message_id"],
        created_at=parse_ts(row["created_at"]),
        started_at=_time_or_none(row["started_at"]),
        finished_at=_time_or_none(row["finished_at"]),
    )


def entrant_from_row(row: Any) -> EntrantRecord:
    return EntrantRecord(
        user_id=row["user_id"],
        rating=row["rating"],
        signup_order=row["signup_order"],
        withdrawn=bool(row["withdrawn"]),
        checked_in=bool(row["checked_in"]),
    )


def seats_from_json(text: str) -> tuple[int | None, ...]:
    return tuple(json.loads(text))


def paired_table_from_row(row: Any) -> PairedTable:
    override = None
    if row["override_json"] is not None:
        d = json.loads(row["override_json"])
        override = TableOverride(
            kind=d["kind"],
            player=d["player"],
            by=row["override_by"],
            at=parse_ts(row["override_at"]),
        )
    return PairedTable(
        number=row["table_number"],
        seats=seats_from_json(row["seats_json"]),
        bot_table_id=row["bot_table_id"],
        override=override,
    )


def played_game(row: Any) -> PlayedGame:
    """A stored tournament game as the core's :class:`PlayedGame`.

    The seats are the paired table's (an AI that took a player's seat plays it for them), so a
    game counts for the entrant it was paired for. A stored finishing order may list the Durak
    last, and under the storage's ranking rule seats it does not name come after those it
    names; the core wants each seat named once, the Durak apart.
    """
    seats = seats_from_json(row["seats_json"])
    durak: int | None = row["durak_seat"]
    order = [s for s in json.loads(row["finishing_order_json"]) if s != durak]
    order += [s for s in range(len(seats)) if s not in order and s != durak]
    return PlayedGame(
        round=row["round_number"],
        table=row["table_number"],
        seats=seats,
        finishing_order=tuple(order),
        durak=durak,
    )
