"""Writes the "How a game looks" section of docs/bot.md from fixed deals: the table picture
and a hand picture of one moment of a four-seat game, the table at the end of a game, and
each role's hand message (its text and buttons) exactly as the bot renders them.

Run ``python docs/make_game_looks.py`` after changing the pictures or the hand's wording;
``tests/bot/ui/test_game_looks_doc.py`` fails until docs/bot.md holds what the code renders.
Nothing here is random: the deals are fixed positions and the moves are written out.
"""

from __future__ import annotations

import io
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import discord
from PIL import Image

from bot.delivery.refresher import TOKEN_LIFETIME, TOKEN_MARGIN
from bot.domain import TableStatus
from bot.render import render_scene_png
from bot.tables.play import apply_action, auto_passes
from bot.tables.table import Seat, Table
from bot.ui.hand_view import HandMessage, table_hand
from bot.ui.table_picture import table_picture
from durak_core import RuleSet, position, preset
from durak_core.actions import parse_action
from durak_core.ai import Level

DOCS = Path(__file__).resolve().parent
BOT_MD = DOCS / "bot.md"
START, END = "<!-- game-looks:start -->", "<!-- game-looks:end -->"
#: A fixed "now" (2026-01-01 00:00 UTC): the turn timer runs out a minute later, and a hand
#: message updates itself while its interaction token lives.
NOW = 1_767_225_600
DEADLINE = NOW + 60
UPDATES_UNTIL = NOW + TOKEN_LIFETIME - TOKEN_MARGIN

TABLE_PNG, HAND_PNG, END_PNG = "look-table.png", "look-hand.png", "look-table-end.png"
RU_PNG = "look-table-ru.png"  # the same moment at a table whose language is Russian
ALICE, BOB, AI, DANA = range(4)


def seats() -> list[Seat]:
    """Two humans, an AI seat, and a human whose seat an AI plays while she is away."""
    return [
        Seat("Alice", user_id=1),
        Seat("Bob", user_id=2),
        Seat("AI 1 (hard)", ai_level=Level.HARD),
        Seat("Dana", user_id=3),
    ]


class Game:
    """A table without Discord, played with written-out moves through the bot's own apply (so
    "done for this bout" passes as it does at a real table)."""

    def __init__(
        self, rules: RuleSet, hands: list[str], trump: str, attacker: int = ALICE, **kw: Any
    ) -> None:
        self.table = Table("5eed0001", 1, 1, 1, rules, 4, 60, seats=seats(), language=None)
        self.table.status, self.table.seed = TableStatus.RUNNING, 7
        self.table.state = position(rules, hands, trump=trump, attacker=attacker, **kw)
        self.table.away.add(DANA)
        self.table.deadline = DEADLINE

    def play(self, *moves: str) -> Game:
        """Moves as "<seat name>: <action>", e.g. "Bob: defend 7S 8S"."""
        names = [s.name for s in self.table.seats]
        for move in moves:
            name, action = move.split(": ")
            apply_action(self.table, names.index(name), parse_action(action), timed_out=False)
            self.table.version += 1
        if self.table.state is not None and self.table.state.finished:
            self.table.status, self.table.deadline = TableStatus.FINISHED, None
        return self

    def done_for_bout(self, seat: int) -> Game:
        """The seat pressed "Done for this bout" (as ``Play.set_auto_pass`` does)."""
        assert self.table.state is not None
        self.table.auto_pass[seat] = self.table.state.bout
        auto_passes(self.table)
        self.table.version += 1
        return self

    def hand(self, seat: int) -> HandMessage:
        return table_hand(self.table, seat, loc=None, images=True, updates_until=UPDATES_UNTIL)


def main_game() -> Game:
    """Classic rules, trump hearts, mid-game (3 cards in the talon); Alice leads against Bob."""
    return Game(
        RuleSet(),
        ["7S 7C 9D QS 10C 6H", "8S KS 9C JD 8H AD", "7D 9S 6C JC QD KH", "6S 6D 8C 10D QC AS"],
        "10H",
        talon="JS 10S",
    )


def transfer_game() -> Game:
    """The transfer preset (V1): Bob holds a seven when Alice leads one."""
    return Game(
        preset("transfer"),
        ["7S 9D QS 10C 6H AC", "7D 8S KS 9C JD 8H", "9S 6C JC QD KH 10S", "6S 6D 8C 10D QC AS"],
        "10H",
        talon="JS",
    )


def end_game() -> Game:
    """The talon is gone and Alice is out; Bob leads his last card against the AI."""
    return Game(RuleSet(), ["", "9S", "10S 6C", "7D"], "10H", attacker=BOB, out=[ALICE])


@dataclass(frozen=True)
class Look:
    title: str
    hand: HandMessage


#: The main game's bout in the order it is played; the pictures show the moment after MOMENT.
LEAD = ("Alice: attack 7S",)
SEVENS = (*LEAD, "Alice: attack 7C")
BEATEN = (*SEVENS, "Bob: defend 7S 8S", "Bob: defend 7C 9C")
MOMENT = (*BEATEN, "AI 1 (hard): attack 9S", "Dana: attack 8C")
ALL_BEATEN = (
    *MOMENT, "Bob: defend 9S KS", "Bob: defend 8C 8H", "Alice: attack 9D", "Bob: defend 9D AD"
)  # fmt: skip


def looks() -> Iterator[Look]:
    """Each role's hand message, in the order the bout goes."""
    yield Look("Alice, the main attacker, leads", main_game().hand(ALICE))
    yield Look(
        "Alice may throw in her other seven at once; Bob has not answered yet",
        main_game().play(*LEAD).hand(ALICE),
    )
    yield Look("Bob took the two sevens", main_game().play(*SEVENS, "Bob: take").hand(BOB))
    yield Look(
        "Both sevens are beaten: Alice may throw in or be done",
        main_game().play(*BEATEN).hand(ALICE),
    )
    done = main_game().play(*BEATEN).done_for_bout(ALICE).play("AI 1 (hard): attack 9S")
    yield Look('Alice pressed "Done for this bout", then the AI threw in a nine', done.hand(ALICE))
    yield Look(
        "Bob faces two open cards: one button per pair (the moment of the pictures above)",
        main_game().play(*MOMENT).hand(BOB),
    )
    yield Look(
        "Alice has nothing to throw in, yet the table shows her as awaited (R23: nobody learns "
        "what she holds)",
        main_game().play(*ALL_BEATEN).hand(ALICE),
    )
    yield Look(
        "With transfers (V1): Bob may pass the attack on with his seven",
        transfer_game().play("Alice: attack 7S").hand(BOB),
    )
    yield Look("Later: Alice is out", end_game().hand(ALICE))
    yield Look("The game is over: Dana is the Durak", finished().hand(DANA))


def finished() -> Game:
    """The end game played out: Bob and the AI go out, Dana is the Durak."""
    return end_game().play(
        "Bob: attack 9S", "AI 1 (hard): defend 9S 10S", "AI 1 (hard): attack 6C", "Dana: take"
    )


def buttons(view: discord.ui.View) -> str:
    """The components' labels, rows apart by " | ": ``[label]``, a select as
    ``[placeholder ▾ option, option]``."""
    rows: dict[int, list[str]] = {}
    for child in view.children:
        item = getattr(child, "item", child)
        if isinstance(item, discord.ui.Button):
            label = f"[{item.label}]"
        else:
            assert isinstance(item, discord.ui.Select)
            label = f"[{item.placeholder} ▾ {', '.join(o.label for o in item.options)}]"
        rows.setdefault(item.row or 0, []).append(label)
    return " | ".join(" ".join(row) for _, row in sorted(rows.items())) or "none"


def fragment() -> str:
    """The Markdown between the markers: each look's message content and buttons."""
    parts = []
    for look in looks():
        parts += [
            f"**{look.title}**",
            "",
            "```text",
            look.hand.content,
            "```",
            "",
            f"Buttons: {buttons(look.hand.view.as_view())}",
            "",
        ]
    return "\n".join(parts)


def replaced(text: str, body: str) -> str:
    """``text`` with the region between the markers replaced by ``body``."""
    head, rest = text.split(START, 1)
    _, tail = rest.split(END, 1)
    return f"{head}{START}\n{body}{END}{tail}"


def region(text: str) -> str:
    """What ``text`` holds between the markers (as :func:`replaced` writes it)."""
    return text.split(START, 1)[1].split(END, 1)[0].removeprefix("\n")


def small(png: bytes) -> bytes:
    """The same pixels, compressed harder than the bot does (it favours speed)."""
    out = io.BytesIO()
    with Image.open(io.BytesIO(png)) as img:
        img.save(out, format="PNG", optimize=True)
    return out.getvalue()


def pictures() -> dict[str, bytes]:
    moment = main_game().play(*MOMENT)
    draw = moment.hand(BOB).draw
    assert draw is not None
    russian = main_game().play(*MOMENT)
    russian.table.language = "ru"
    return {
        TABLE_PNG: small(render_scene_png(table_picture(moment.table))),
        RU_PNG: small(render_scene_png(table_picture(russian.table))),
        HAND_PNG: small(draw()),
        END_PNG: small(render_scene_png(table_picture(finished().table))),
    }


def write(img_dir: Path, bot_md: Path) -> None:
    img_dir.mkdir(parents=True, exist_ok=True)
    for name, png in pictures().items():
        (img_dir / name).write_bytes(png)
    bot_md.write_text(replaced(bot_md.read_text(encoding="utf-8"), fragment()), encoding="utf-8")


def main() -> None:
    write(DOCS / "img", BOT_MD)


if __name__ == "__main__":
    main()
