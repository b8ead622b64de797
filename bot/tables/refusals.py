"""A change a table refuses, and why: the one exception the table's parts raise, and its kinds."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum


class Refusal(Enum):
    """Why a change was refused. The value is the catalogue key of the answer the user gets
    (``err.*``, in every language); callers tell refusals apart by kind, never by text."""

    AI_HOST_ONLY = "err.ai_host_only"
    #: Opening a table: rules that cannot be combined, a DM, a channel the bot cannot post in.
    BAD_RULES = "err.bad_rules"
    GUILD_ONLY = "err.guild_only"
    CANNOT_POST = "err.cannot_post"
    ALREADY_LEFT = "err.already_left"
    ALREADY_SEATED = "err.already_seated"
    CANCEL_DENIED = "err.cancel_denied"
    FORGED = "err.forged"
    HOST_CANNOT_LEAVE = "err.host_cannot_leave"
    ILLEGAL = "err.illegal"
    NO_AI_SEAT = "err.no_ai_seat"
    NO_AUTO_PASS = "err.no_auto_pass"
    #: "Done for this bout" clicked again, or taken back after its bout ended: nothing changes,
    #: and the hand says why.
    AUTO_PASS_SET = "err.auto_pass_set"
    AUTO_PASS_LAPSED = "err.auto_pass_lapsed"
    NO_REMATCH = "err.no_rematch"
    NO_TABLE = "err.no_table"
    NOT_AWAY = "err.not_away"
    NOT_HOST = "err.not_host"
    NOT_LOBBY = "err.not_lobby"
    NOT_RUNNING = "err.not_running"
    NOT_SEATED = "err.not_seated"
    NOT_YOUR_SEAT = "err.not_your_seat"
    RULES_SEATS = "err.rules_seats"
    STALE = "err.stale"
    #: A Take clicked on a hand that showed fewer cards on the table than lie there now.
    TAKE_GREW = "err.take_grew"
    TABLE_EXISTS = "err.table_exists"
    TABLE_FULL = "err.table_full"
    TOO_FEW = "err.too_few"
    #: A tournament's table: its games follow the match, not a rematch or a cancel.
    TOURNAMENT_TABLE = "err.tournament_table"
    #: Tournament commands: no such tournament, not allowed, a deadline that is no time.
    NO_TOURNAMENT = "err.no_tournament"
    TOURNAMENT_DENIED = "err.tournament_denied"
    #: A tournament's channel: not one that holds threads, or the bot may not open them.
    TOURNAMENT_CHANNEL = "err.tournament_channel"
    TOURNAMENT_PERMISSIONS = "err.tournament_permissions"
    #: Several open tournaments and the command named none of them.
    TOURNAMENT_AMBIGUOUS = "err.tournament_ambiguous"
    BAD_DEADLINE = "err.bad_deadline"
    MATCH_BOTH = "err.match_both"

    @property
    def key(self) -> str:
        """The catalogue key of the answer."""
        key: str = self.value
        return key


@dataclass(frozen=True)
class Rejected(Exception):
    """A change the table refused: its ``kind``, and ``params`` that fill the answer's text."""

    kind: Refusal
    params: dict[str, object] = field(default_factory=dict)

    @property
    def key(self) -> str:
        return self.kind.key
