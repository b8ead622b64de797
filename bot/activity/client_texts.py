"""The catalogue texts the browser client shows, sent in the welcome frame in the user's
language (docs/activity.md, "Client"). The client fills their ``{placeholders}`` itself, so it
has no words of its own: one source of truth, the catalogues (bot/text/catalogues/*.toml).

Only single-form messages: a plural message needs its count to pick a form, so the client
shows counts as bare numbers instead.
"""

from __future__ import annotations

from bot.text import EN, LANGUAGES, t
from durak_core import PRESETS
from durak_core.move_kinds import MOVE_KINDS
from durak_core.rules import OPTIONS

CLIENT_TEXT_KEYS: tuple[str, ...] = (
    # controls (and the buttons of the kinds of move: :func:`client_text_keys`)
    "act.auto_pass",
    "act.auto_pass_off",
    # the lobby, and after the game
    "btn.join",
    "btn.leave",
    "btn.add_ai",
    "btn.remove_ai",
    "btn.ai_open",
    "btn.ai_host",
    "lobby.ai_anyone",
    "lobby.ai_host_only",
    "btn.start",
    "btn.rematch",
    "btn.back",
    "level.easy",
    "level.normal",
    "level.hard",
    "lobby.seats",
    "table.rematch_hint",
    # the felt
    "table.players",
    "table.bout",
    "table.bout_empty",
    "table.trump",
    "table.trump_none",
    "table.talon",
    "table.discard",
    "activity.bout_limit",
    "activity.teammate",
    "activity.known",
    # seat plates
    "table.role.attacker",
    "table.role.defender",
    "table.role.thrower",
    "table.role.out",
    "table.role.durak",
    "picture.badge.away",
    "picture.badge.left",
    # the status line
    "hand.you_lead",
    "hand.you_throw",
    "hand.you_defend",
    "hand.taking",
    "hand.finished_out",
    "table.waiting",
    "table.result_durak",
    "table.result_team",
    "table.result_draw",
    "lobby.title",
    "lobby.hint",
    "lobby.cancelled",
    "activity.spectator",
    "activity.pick_target",
    "activity.pick_preferred",
    "activity.reconnecting",
    # the turn timer: what it played for a seat whose time ran out
    "activity.timeout_take",
    "activity.timeout_pass",
    "activity.timeout_attack",
    "activity.timeout_you_take",
    "activity.timeout_you_pass",
    "activity.timeout_you_attack",
    # the end of a game: places, the series, the shuffle's commitment and its seed (R4)
    "activity.game_over",
    "activity.wins",
    "activity.losses",
    "activity.pass_note",
    "activity.auto_pass_note",
    "activity.copy",
    "activity.copied",
    "activity.verify_hint",
    "verify.seed",
    "verify.commitment",
    "stats.rating",
    "table.series",
    # the coach: the review, the hint at practice tables, the daily puzzle
    "btn.review",
    "act.hint",
    "activity.puzzle",
    "activity.close",
    "activity.coach_working",
    # the lobby
    "activity.empty_seat",
    "activity.invite",
    "lobby.rules",
    # Rich Presence (Discord's activity status)
    "activity.presence_lobby",
    "activity.presence_game",
    # the form that opens a table (/durak new's main options, named as the command names them)
    "activity.open_title",
    "activity.open_rules",
    "activity.open_seats",
    "activity.open_timer",
    "activity.open_ai",
    "activity.open_ai_level",
    "activity.open_language",
    "activity.open_language_server",
    "activity.open",
    "activity.open_new",
    "activity.open_back",
    *(f"preset.{name}" for name in PRESETS),
    # the rule options of the form: each one's /durak new description, and its choices
    "activity.open_rule_options",
    "activity.open_rule_preset",
    "activity.open_rule_on",
    "activity.open_rule_off",
    *(option.description_key for option in OPTIONS.commands),
    *(f"lang.{lang}" for lang in LANGUAGES),
)


def client_text_keys() -> tuple[str, ...]:
    """The keys above and the button label of each kind of move (durak_core/move_kinds.py)."""
    return CLIENT_TEXT_KEYS + tuple(k.label for k in MOVE_KINDS if k.label is not None)


def client_texts(locale: str) -> dict[str, str]:
    """Each key's template in ``locale``'s language (English where a catalogue lacks it)."""
    return {key: t(key, locale) for key in client_text_keys()}


def _check() -> None:
    for key in client_text_keys():
        if not isinstance(EN[key], str):
            raise TypeError(f"{key!r} is a plural message; the client cannot pick its form")


_check()
