"""The frames a browser may send, parsed strictly, and the server's non-table frames
(docs/activity.md, "Protocol"). The table frame itself is built in :mod:`.table_frames`.

A client frame names nothing the server must trust: no user, seat, instance or table. A frame
with any other field (``seat``, ``user_id``, ...) is refused as a whole, so a client that tries
to claim something learns that it cannot.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Annotated, Any, Literal, Protocol

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    TypeAdapter,
    ValidationError,
    field_validator,
    model_validator,
)

from bot.domain import MAX_TURN_TIMER
from bot.tables.table import MAX_SEATS, MIN_SEATS
from bot.text import LANGUAGES
from durak_core import PRESETS
from durak_core.move_kinds import MOVE_KINDS
from durak_core.rules import OPTIONS

from .table_frames import PROTOCOL_VERSION

if TYPE_CHECKING:
    from .hub import Connection

#: Largest frame a browser may send (an action is a few dozen bytes).
MAX_CLIENT_FRAME = 2048
#: Deepest nesting of arrays and objects a frame may have (every frame is one flat object):
#: deeper ones are refused before they are parsed, so none can exhaust the parser's stack.
MAX_FRAME_DEPTH = 4


class _Frame(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)

    v: Literal[1]

    @field_validator("v", mode="before")
    @classmethod
    def _an_integer(cls, value: object) -> object:
        if isinstance(value, bool):  # True == 1, but it is not a version
            raise ValueError("v must be the integer 1")
        return value


class Hello(_Frame):
    """The first frame: the session token from ``POST /api/token`` (or a welcome's resume)."""

    type: Literal["hello"]
    token: str = Field(max_length=1024)


class Act(_Frame):
    """An action: its engine code and the table version the user chose it at. ``ref`` is
    echoed in an error frame so the client knows which of its actions was refused."""

    type: Literal["act"]
    code: int = Field(ge=0)
    version: int = Field(ge=0)
    ref: str | None = Field(default=None, max_length=64)


#: The lobby and seat operations a browser may ask for, each the chat button's counterpart.
LobbyOpName = Literal[
    "join",
    "leave",
    "add_ai",
    "remove_ai",
    "ai_open",
    "ai_host",
    "start",
    "rematch",
    "auto_pass_on",
    "auto_pass_off",
]


class LobbyOp(_Frame):
    """A lobby operation (or "done for this bout", which is a setting, not an engine action).
    ``level``: only for ``add_ai``, one of the lobby buttons' levels (normal if absent).
    ``version``: the table version the choice was made at, for the "done for this bout" ops
    (judged on the table as it is, but refused as stale from an earlier bout); the lobby ops
    are checked on the table as it is."""

    type: Literal["lobby"]
    op: LobbyOpName
    level: Literal["easy", "normal", "hard"] | None = None
    version: int | None = Field(default=None, ge=0)
    ref: str | None = Field(default=None, max_length=64)

    @model_validator(mode="after")
    def _level_only_for_add_ai(self) -> LobbyOp:
        if self.level is not None and self.op != "add_ai":
            raise ValueError("level is for add_ai only")
        return self


class OpenTable(_Frame):
    """Open a table in the session's channel, with ``/durak new``'s main options (the same
    ranges as the command's; the preset and language by their ids). The host is the session's
    user, the channel its instance's."""

    type: Literal["open"]
    preset: str = Field(max_length=32)
    seats: int = Field(ge=MIN_SEATS, le=MAX_SEATS)
    timer: int | None = Field(default=None, ge=0, le=MAX_TURN_TIMER)
    ai_seats: int = Field(default=0, ge=0, le=MAX_SEATS - 1)
    ai_level: Literal["easy", "normal", "hard"] = "normal"
    language: str | None = Field(default=None, max_length=8)
    #: ``/durak new``'s rule options given, by name (durak_core.rules.OPTIONS): a yes/no, or
    #: one of the option's choices; one not given is the preset's.
    rules: dict[str, bool | int] = Field(default_factory=dict, max_length=32)
    ref: str | None = Field(default=None, max_length=64)

    @model_validator(mode="after")
    def _known_names(self) -> OpenTable:
        if self.preset not in PRESETS:
            raise ValueError("unknown preset")
        for name, value in self.rules.items():
            option = _RULE_OPTIONS.get(name)
            if option is None:
                raise ValueError("unknown rule option")
            if isinstance(value, bool) == bool(option.choices) or (
                option.choices and value not in option.choices
            ):
                raise ValueError(f"bad value for {name}")
        if self.language is not None and self.language not in LANGUAGES:
            raise ValueError("unknown language")
        return self


#: The rule options a form may set, by their ``/durak new`` name.
_RULE_OPTIONS = {option.command: option for option in OPTIONS.commands}

#: The coach's requests (``bot.coach.commands.activity_coach``): the finished game's review,
#: a practice table's hint, and the server's daily puzzle (open it, play a move, close it).
CoachOpName = Literal["review", "hint", "puzzle", "puzzle_move", "puzzle_close"]


class Coach(_Frame):
    """A coach request. ``version``: for ``hint``, the table version the hand was shown at;
    ``code`` and ``ply``: for ``puzzle_move``, the move (an engine action code) and how many
    moves the board had when it was chosen."""

    type: Literal["coach"]
    op: CoachOpName
    version: int | None = Field(default=None, ge=0)
    code: int | None = Field(default=None, ge=0)
    ply: int | None = Field(default=None, ge=0, le=999)
    ref: str | None = Field(default=None, max_length=64)

    @model_validator(mode="after")
    def _fields_of_the_op(self) -> Coach:
        if (self.version is not None) != (self.op == "hint"):
            raise ValueError("version is for hint, and hint needs it")
        move = self.op == "puzzle_move"
        if (self.code is not None) != move or (self.ply is not None) != move:
            raise ValueError("code and ply are for puzzle_move, and it needs both")
        return self


class CoachRequests(Protocol):
    """What answers the coach frames (``bot.coach.commands.activity_coach``)."""

    def request(self, conn: Connection, frame: Coach) -> None: ...

    async def close(self) -> None: ...


ClientFrames = Hello | Act | LobbyOp | OpenTable | Coach
ClientFrame = Annotated[ClientFrames, Field(discriminator="type")]
_CLIENT_FRAME: TypeAdapter[ClientFrames] = TypeAdapter(ClientFrame)


class BadFrame(Exception):
    pass


def nesting_depth(text: str) -> int:
    """How deeply the JSON ``text`` nests arrays and objects (brackets inside strings are
    text), without parsing it."""
    depth = deepest = 0
    in_string = escaped = False
    for char in text:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif char in "]}":
            depth -= 1
    return deepest


def parse_client_frame(text: str) -> ClientFrames:
    if len(text) > MAX_CLIENT_FRAME:
        raise BadFrame("too long")
    brackets = text.count("[") + text.count("{")  # counted in C: the scan only when needed
    if brackets > MAX_FRAME_DEPTH and nesting_depth(text) > MAX_FRAME_DEPTH:
        raise BadFrame("nested too deeply")
    try:
        return _CLIENT_FRAME.validate_python(json.loads(text))
    except (ValueError, ValidationError) as exc:  # JSONDecodeError is a ValueError
        raise BadFrame(str(exc).splitlines()[0]) from None


def welcome_frame(
    *,
    user_id: int,
    channel_id: int,
    instance_id: str,
    resume: str,
    resume_expires_in: float,
    texts: dict[str, str],
    default_timer: int,
) -> str:
    """Sent once a hello is accepted: who the server knows the user to be, a fresh
    single-use token to reconnect with (a WebSocket that drops needs no new authorization),
    the catalogue texts the client shows, in the user's language (:mod:`.client_texts`), and
    the choices of the form that opens a table (``new_table``: what :class:`OpenTable`
    accepts; ``timer`` is the server's default turn timer)."""
    return json.dumps(
        {
            "v": PROTOCOL_VERSION,
            "type": "welcome",
            "user_id": str(user_id),
            "channel_id": str(channel_id),
            "instance_id": instance_id,
            "resume": resume,
            "resume_expires_in": round(resume_expires_in),
            "texts": texts,
            "moves": client_moves(),
            "new_table": {
                "presets": list(PRESETS),
                "languages": list(LANGUAGES),
                "seats": [MIN_SEATS, MAX_SEATS],
                "timer": min(default_timer, MAX_TURN_TIMER),
                "max_timer": MAX_TURN_TIMER,
                "rules": [
                    {"name": option.command, "rule": option.rule, "choices": list(option.choices)}
                    for option in OPTIONS.commands
                ],
            },
        }
    )


def client_moves() -> list[dict[str, Any]]:
    """The table of move kinds as the client reads an offer (docs/activity.md, "Protocol"):
    by the first word of its notation, whether a hand card plays it (``spends_card``; ``aims``:
    at an open card, named first), its button's label key (null: none), style and ``{card}``."""
    return [
        {
            "verb": k.verb,
            "spends_card": k.spends_card,
            "aims": k.aims,
            "label": k.label,
            "style": k.style,
            "label_card": k.label_card,
        }
        for k in MOVE_KINDS
    ]


def error_frame(reason: str, text: str, ref: str | None = None) -> str:
    """``reason``: the catalogue key (stable, for the client's logic); ``text``: the message
    in the user's language."""
    return json.dumps(
        {"v": PROTOCOL_VERSION, "type": "error", "reason": reason, "text": text, "ref": ref}
    )


def coach_frame(kind: str, **fields: object) -> str:
    """A coach answer (``bot.coach.commands.activity_coach``): ``kind`` is
    ``review_progress``, ``review``, ``hint`` or ``puzzle``, with its fields."""
    return json.dumps({"v": PROTOCOL_VERSION, "type": "coach", "kind": kind, **fields})
