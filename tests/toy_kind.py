"""A toy kind of move, "wink", added through the table of move kinds alone
(durak_core/move_kinds.py) and its words, as a catalogue would hold them: the proof that a new
kind needs no ``if kind ==`` in the bot or the Activity (tests/bot/ui/test_move_kinds_bot.py,
tests/activity/test_browser_move_kinds.py)."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

import pytest

from bot.text.lookup import CATALOGUES
from durak_core import Action, Card
from durak_core.actions import NUM_ACTION_CODES
from durak_core.move_kinds import MOVE_KINDS, MoveKind, register

#: The toy kind's words in two languages (the others fall back to English, as any key does).
WORDS = {
    "en": {
        "act.wink": "Wink {card}",
        "log.wink": "{name} winks at {card}",
        "review.act.wink": "wink at {card}",
    },
    "ru": {
        "act.wink": "Подмигнуть {card}",
        "log.wink": "{name} подмигивает {card}",
        "review.act.wink": "подмигнуть {card}",
    },
}


@contextlib.contextmanager
def registered(monkeypatch: pytest.MonkeyPatch) -> Iterator[MoveKind]:
    """ "wink" in the table, a button that passes the defence on and keeps its
    card, styled as "take" is not; its words in the catalogues. Removed after the test."""
    kind = MoveKind(len(MOVE_KINDS), "wink", False, True, "danger", button=True)
    register(kind)
    for lang, words in WORDS.items():
        for key, text in words.items():
            monkeypatch.setitem(CATALOGUES[lang], key, text)
    try:
        yield kind
    finally:
        MOVE_KINDS.remove(kind)


def wink_of(kind: MoveKind, card: Card) -> Action:
    """The toy action on ``card``: a bare engine action of the new kind, its codes after the
    engine's own (as a real kind's would be)."""
    action = Action()
    action.kind, action.code = kind.kind, NUM_ACTION_CODES + card.index
    action.c, action.a = card.index, -1
    return action
