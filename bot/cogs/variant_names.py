"""``/durak new variants:``: the rules' yes/no options (switches) named in one text option, so
that a new switch adds no option to the command (Discord allows 25 a level; issue #45).

A piece of the comma-separated list names a switch by its ``/durak new`` name (``transfer``), its
rule id (``V1``) or its short name in any catalogue (``переводной``; ``RuleOption.short_key``),
in any case, with spaces, ``-`` and ``_`` alike; ``-name`` turns off a switch the preset has on.
Pure: no Discord here, the cog answers a :class:`VariantsError` with its catalogue key.

>>> parse("transfer, V15")
{'transfer': True, 'jokers': True}
>>> parse("-Transfer")
{'transfer': False}
>>> parse(" Переводной , show trump")
{'transfer': True, 'show_trump': True}
>>> suggest("transfer, jo", "en")
['transfer, jokers']
>>> suggest("transfer, -", "ru")[:2]
['transfer, -пять-до-отбоя', 'transfer, -соседи']
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Final

from bot.text import CATALOGUES, t
from durak_core.rule_options import RuleOption
from durak_core.rules import OPTIONS

#: The rule options ``variants`` names: ``/durak new``'s yes/no ones, in rule id order.
SWITCHES: Final = tuple(o for o in OPTIONS.commands if not o.choices)
#: Discord: an autocomplete answer holds at most 25 choices, each value at most 100 characters.
MAX_SUGGESTIONS: Final = 25
MAX_VALUE: Final = 100
#: A piece quoted back in a refusal is cut to this (the option itself is bounded by Discord).
MAX_QUOTED: Final = 40
OFF: Final = "-"


class VariantsError(ValueError):
    """A piece the list cannot take: ``key`` is the refusal's catalogue entry, ``piece`` the
    piece as typed (cut), ``other`` the piece it repeats or contradicts."""

    def __init__(self, key: str, piece: str, other: str = "") -> None:
        super().__init__(f"{key}: {piece!r}")
        self.key, self.piece, self.other = key, _quoted(piece), _quoted(other)


def _quoted(piece: str) -> str:
    return piece if len(piece) <= MAX_QUOTED else piece[: MAX_QUOTED - 1] + "…"


def normal(name: str) -> str:
    """Case, spaces, ``-`` and ``_`` do not matter: ``"Show_Trump"`` → ``"show-trump"``."""
    return "-".join(re.split(r"[\s_-]+", name.strip().casefold())).strip("-")


def _aliases(option: RuleOption) -> set[str]:
    names = {option.command, option.rule}
    names |= {str(catalogue[option.short_key]) for catalogue in CATALOGUES.values()}
    return {normal(name) for name in names}


def _index(switches: Iterable[RuleOption]) -> dict[str, tuple[RuleOption, ...]]:
    """Each accepted name → the switches it names (two or more: ambiguous)."""
    found: dict[str, tuple[RuleOption, ...]] = {}
    for option in switches:
        for alias in _aliases(option):
            found[alias] = (*found.get(alias, ()), option)
    return found


NAMES: Final = _index(SWITCHES)


def _resolve(piece: str) -> tuple[RuleOption, bool]:
    """The switch a piece names and whether it is turned on; raises :class:`VariantsError`."""
    name = piece.removeprefix(OFF)
    named = NAMES.get(normal(name), ())
    if len(named) != 1:
        raise VariantsError("err.variant_ambiguous" if named else "err.variant_unknown", piece)
    return named[0], not piece.startswith(OFF)


def _pieces(text: str) -> list[str]:
    return [piece.strip() for piece in text.split(",") if piece.strip()]


def parse(text: str) -> dict[str, bool]:
    """The switches ``text`` names, by ``/durak new`` name → on (True) or off (False); raises
    :class:`VariantsError` for an unknown or ambiguous piece, or one naming a switch twice."""
    chosen: dict[str, bool] = {}
    said: dict[str, str] = {}
    for piece in _pieces(text):
        option, on = _resolve(piece)
        if option.command in chosen:
            twice = "err.variant_repeated" if chosen[option.command] == on else "err.variant_both"
            raise VariantsError(twice, piece, said[option.command])
        chosen[option.command], said[option.command] = on, piece
    return chosen


def valid_names(lang: str) -> str:
    """The switches' names for a refusal, in ``lang`` with the ``/durak new`` name beside a
    translated one: ``переводной (transfer), …``."""
    names = []
    for option in SWITCHES:
        local = t(option.short_key, lang)
        names.append(
            local if normal(local) == normal(option.command) else f"{local} ({option.command})"
        )
    return ", ".join(names)


def suggest(typed: str, lang: str) -> list[str]:
    """Completions of ``typed`` while it is typed: what comes before its last comma kept, its
    last piece completed to the short name, in ``lang``, of each switch it may begin (any
    accepted name counts) that the list does not name yet."""
    head, comma, last = typed.rpartition(",")
    keep = f"{head.strip()}, " if comma and head.strip() else ""
    listed = set()
    for piece in _pieces(head):
        try:
            listed.add(_resolve(piece)[0].command)
        except VariantsError:
            continue  # refused when the command is sent, not while it is typed
    off = OFF if last.strip().startswith(OFF) else ""
    begun = normal(last.strip().removeprefix(OFF))
    out = []
    for option in SWITCHES:
        local = t(option.short_key, lang)
        begins = any(alias.startswith(begun) for alias in _aliases(option))
        value = f"{keep}{off}{local}"
        if option.command not in listed and begins and len(value) <= MAX_VALUE:
            out.append(value)
    return out[:MAX_SUGGESTIONS]


__all__ = ["NAMES", "SWITCHES", "VariantsError", "normal", "parse", "suggest", "valid_names"]
