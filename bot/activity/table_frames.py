"""A table as one user may see it, as a JSON frame (docs/activity.md, "Protocol").

Built only from engine views (R23–R25): the seat's ``SeatView`` for the user sitting there,
the ``PublicView`` for everyone else. Cards are durak_core notation (``10D``, ``QS``, ``JKR``),
actions their engine codes (``Action.from_code``) with their notation for reading.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterable
from typing import Any

from bot.domain import TableStatus
from bot.tables.play import may_auto_pass
from bot.tables.table import Table
from bot.tables.timeout_moves import timed_seats
from bot.text import t
from bot.ui.rules_text import rules_summary
from bot.ui.table_embed import game_id
from durak_core import Card, PublicView, SeatView, seed_commitment
from durak_core.events import ActionTaken
from durak_core.move_kinds import notation

#: Bumped on any change a client must know about (fields removed or changing meaning).
PROTOCOL_VERSION = 1
#: How many of the game's latest timed-out moves a frame carries (the client's notice).
TIMEOUTS_SHOWN = 4


def _cards(cards: Iterable[Card]) -> list[str]:
    return [str(c) for c in sorted(cards, key=lambda c: c.index)]


def _seats(mask: frozenset[int] | tuple[int, ...]) -> list[int]:
    return sorted(mask)


def public_part(view: PublicView) -> dict[str, Any]:
    """The public view's fields (R23): what every viewer of the table may know."""
    result = view.result
    return {
        "seats": view.seats,
        "teams": list(view.teams),
        "dealer": view.dealer,
        "trump": None if view.trump is None else view.trump.letter,
        "trump_card": str(view.trump_card),
        "trump_in_talon": view.trump_in_talon,
        "trump_will_change": view.trump_will_change,
        "talon_size": view.talon_size,
        "discard_size": view.discard_size,
        "discarded": _cards(view.discarded),
        "hand_sizes": list(view.hand_sizes),
        "known": [_cards(k) for k in view.known],
        "table": [[str(a), None if d is None else str(d)] for a, d in view.table],
        "bout": view.bout,
        "attacker": view.attacker,
        "defender": view.defender,
        "attackers": _seats(view.attackers),
        "limit": view.limit,
        "taken": view.taken,
        "passed": _seats(view.passed),
        "active": list(view.active),
        "finishing_order": list(view.finishing_order),
        "awaiting": list(view.awaiting),
        "finished": view.finished,
        "result": None
        if result is None
        else {
            "finishing_order": list(result.finishing_order),
            "durak": result.durak,
            "losers": list(result.losers),
            "winners": list(result.winners),
        },
    }


def timer_part(table: Table) -> dict[str, Any]:
    """The turn timer, public like the table message's "(timer)" lines: when the awaited
    players must act (the bot's Unix seconds, and the seconds left as this frame is built, which
    a client counts down from without trusting its own clock), the seats the timer would play
    for, and the game's latest moves the timer made."""
    left = None if table.deadline is None else max(0.0, table.deadline - time.time())
    events = table.events
    timeouts = []
    for i in table.timed_out[-TIMEOUTS_SHOWN:]:
        event = events[i] if 0 <= i < len(events) else None
        if isinstance(event, ActionTaken):
            timeouts.append({"at": i, "seat": event.seat, "action": str(event.action)})
    return {
        "deadline": table.deadline,
        "deadline_in": None if left is None else round(left, 1),
        "timed": timed_seats(table) if table.deadline is not None else [],
        "timeouts": timeouts,
    }


def seat_part(view: SeatView) -> dict[str, Any]:
    """What only the seat's owner may know (R24): the hand and the legal actions."""
    return {
        "hand": _cards(view.hand),
        "actions": [{"code": a.code, "text": notation(a)} for a in view.legal_actions],
    }


def fairness_part(table: Table) -> dict[str, Any]:
    """R4 and the series, as the table message's footer and series lines show them: the
    shuffle's commitment (the seed's SHA-256) during the game, the seed itself once it is over,
    and each seat's wins and losses in the series so far; once it is over, the rating
    changes."""
    finished = table.status == TableStatus.FINISHED
    series = table.series
    return {
        "commitment": None if table.seed is None else seed_commitment(table.seed),
        "seed": None if table.seed is None or not finished else format(table.seed, "064x"),
        "game_id": game_id(table) if finished else None,  # what /durak verify takes
        "series": None
        if series is None
        else {
            "games": series.games,
            "draws": series.draws,
            "wins": list(series.wins),
            "losses": list(series.losses),
            "over": series.finished,
        },
        "ratings": ratings_part(table) if finished else None,
    }


def _tenths(x: float) -> float:
    return round(x, 1) + 0.0  # + 0.0: never "-0.0"


def ratings_part(table: Table) -> list[dict[str, float] | None] | None:
    """Each seat's rating change in the finished game (the guild rating the leaderboard shows,
    to one decimal, as it shows it), as recording the game returned it: null for an AI seat
    and a seat whose game counted for nobody; null as a whole while it is not known."""
    ratings = table.ratings
    if ratings is None:
        return None
    out: list[dict[str, float] | None] = []
    for seat in range(len(table.seats)):
        change = ratings.get(seat)
        if change is None:
            out.append(None)
            continue
        # The delta of the shown values, so that before + delta = after as the reader sees it.
        before, after = _tenths(change.before), _tenths(change.after)
        out.append({"before": before, "after": after, "delta": _tenths(after - before)})
    return out


def rules_lines(table: Table) -> list[str]:
    """The rules summary and the turn timer, as the lobby message says them."""
    loc = table.language
    timer = (
        t("lobby.timer", loc, n=table.turn_timer) if table.turn_timer else t("lobby.no_timer", loc)
    )
    return [rules_summary(table.rules, loc), timer]


def table_frame(table: Table | None, user_id: int) -> str:
    """The ``table`` frame for ``user_id``: their seat's view if they sit at the table and a
    game runs (or has just ended), the public view otherwise, ``null`` without a table."""
    if table is None:
        return json.dumps({"v": PROTOCOL_VERSION, "type": "table", "table": None})
    seat = table.seat_of(user_id)
    body: dict[str, Any] = {
        "id": table.table_id,
        "status": table.status,
        "version": table.version,
        "language": table.language or "en",
        "host": str(table.host_id),
        "max_seats": table.max_seats,
        "anyone_adds_ai": table.anyone_adds_ai,
        "practice": table.practice,
        "turn_timer": table.turn_timer,
        # the lobby message's rules and timer lines, in the table's language
        "rules": rules_lines(table),
        # a tournament's table deals its match on by itself: no rematch to offer
        "tournament": table.match is not None,
        "you": seat,
        "players": [
            {
                "name": s.name,
                "user_id": None if s.user_id is None else str(s.user_id),
                "ai": s.ai_level,
                # the Discord avatar hash: the client builds the CDN path from it and user_id
                "avatar": None if s.is_ai else s.avatar,
                "playing": table.player_of(i)[0],
            }
            for i, s in enumerate(table.seats)
        ],
        "game": None,
    }
    if table.state is not None and table.status in (TableStatus.RUNNING, TableStatus.FINISHED):
        game = public_part(table.public_view())
        game.update(timer_part(table))
        game.update(fairness_part(table))
        if seat is not None:
            view = table.seat_view(seat)
            game.update(seat_part(view))
            # "Done for this bout": whether it is set for the seat, and whether it may be now.
            game["auto_pass"] = seat in table.auto_pass
            game["may_auto_pass"] = table.status == TableStatus.RUNNING and may_auto_pass(view)
        else:
            game.update({"hand": None, "actions": [], "auto_pass": False, "may_auto_pass": False})
        body["game"] = game
    return json.dumps({"v": PROTOCOL_VERSION, "type": "table", "table": body})
