"""``/durak puzzle`` through the fake Discord: a board whose buttons are exactly the legal
actions, solved by clicking the winning line or failed by another move, the daily puzzle the
same for everyone in a server with the list of who solved it, the puzzle streak in ``/durak
stats``, and clear answers to bad options and to clicks on boards that are no longer open."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import UTC, datetime
from pathlib import Path

import pytest

from bot.app import DurakBot
from bot.coach.commands import puzzle_commands
from bot.coach.commands.puzzle_commands import SHOWN_SOLVERS
from bot.coach.ui.puzzle_board import MAX_CONTENT, BoardText, puzzle_board
from bot.text import t
from durak_core import parse_move
from durak_core.coach.puzzles import PLAYER, Puzzle, PuzzleFormatError, PuzzlePlay, daily_number
from tests.bot.cogs.test_bot_clicks import _with_button, raw_click
from tests.bot.helpers import World, settings, world
from tests.durak_core.coach.test_puzzles import SHIPPED
from tests.fake_discord import FakeDiscord, FakeMessage
from tests.fake_discord.results import InteractionResult

DAY = 86_400
#: 2026-12-03 12:00 UTC: the bot's clock in these tests, moved by a day at a time.
NOON = datetime(2026, 12, 3, 12, tzinfo=UTC).timestamp()
BOARD_ID = re.compile(r"^dkz:(?P<board>[0-9a-f]{8}):(?P<ply>\d+):(?P<code>\d+)$")
SOLVED = t("puzzle.solved", name=t("puzzle.opponent"))


class Clock:
    def __init__(self) -> None:
        self.now = float(NOON)

    def __call__(self) -> float:
        return self.now

    @property
    def day(self) -> int:
        return int(self.now // DAY)


@asynccontextmanager
async def puzzle_bot(w: World, clock: Clock) -> AsyncIterator[DurakBot]:
    bot = DurakBot(
        settings(w.db), sync=True, sync_guild=w.guild, guild_ready_timeout=0.05, clock=clock
    )
    async with w.fake.run_client(bot):
        yield bot


async def open_puzzle(w: World, user: int, **options: object) -> FakeMessage:
    res = await w.fake.slash(user, w.channel, "durak", "puzzle", options=options)
    assert res.ephemeral, res.content
    assert res.message is not None
    return res.message


def moves_on(message: FakeMessage) -> dict[int, str]:
    """The board's buttons by the action code they play."""
    out = {}
    for b in message.buttons:
        found = BOARD_ID.match(b.custom_id or "")
        assert found, b.custom_id
        out[int(found["code"])] = str(b.custom_id)
    return out


async def play_line(w: World, user: int, message: FakeMessage, puzzle: Puzzle) -> str:
    """Click the player's moves of the solution (the defence answers as in the line); the
    board's text at the end. Before every click the buttons are exactly the engine's legal
    actions in the position reached (followed here by the pure module)."""
    shadow = PuzzlePlay(puzzle)
    for move in puzzle.line:
        seat, action = parse_move(move)
        if seat != PLAYER:
            continue
        assert set(moves_on(message)) == {a.code for a in shadow.choices()}
        res = await w.fake.click(user, message, moves_on(message)[action.code])
        assert res.response_type == 7, res.content  # the board itself is updated
        shadow.play(action)
    assert shadow.status == "solved" and message.buttons == []
    assert w.fake.violations == []  # every message within Discord's rules
    return message.content


async def old_click(
    fake: FakeDiscord, user: int, message: FakeMessage, custom_id: str
) -> InteractionResult:
    """A click on a button the board no longer shows (a client showing an older version)."""
    return await raw_click(fake, user, _with_button(message, custom_id), custom_id)


def daily_puzzle(w: World, clock: Clock) -> Puzzle:
    return SHIPPED[daily_number(w.guild, clock.day, len(SHIPPED)) - 1]


async def test_a_puzzle_is_solved_by_clicking_the_winning_line(tmp_path: Path) -> None:
    """The buttons are exactly the engine's legal actions (the single source of legality)."""
    p = min(SHIPPED[:50], key=lambda q: len(q.line))
    async with world(tmp_path) as w, puzzle_bot(w, Clock()):
        board = await open_puzzle(w, w.alice, number=p.number)
        title = t("puzzle.title", n=p.number, grade=t(f"puzzle.grade.{p.grade}"))
        assert board.content.startswith(title)
        assert set(moves_on(board)) == {a.code for a in p.start().legal_actions(PLAYER)}
        text = await play_line(w, w.alice, board, p)
        assert SOLVED in text
        assert t("puzzle.solution", line="").strip() in text
        assert board.buttons == []  # over: nothing left to click


async def test_a_wrong_first_move_fails_and_shows_the_solution(tmp_path: Path) -> None:
    p = SHIPPED[0]
    async with world(tmp_path) as w, puzzle_bot(w, Clock()):
        board = await open_puzzle(w, w.alice, number=p.number)
        wrong = next(code for code in moves_on(board) if code != p.first_move.code)
        await w.fake.click(w.alice, board, moves_on(board)[wrong])
        assert "❌" in board.content and SOLVED not in board.content
        assert t("puzzle.solution", line="").strip() in board.content
        assert board.buttons == []
        # the finished board's buttons, clicked anyway (an old client): a clear answer
        res = await old_click(w.fake, w.alice, board, f"dkz:{_board_of(board)}:1:{wrong}")
        assert res.content == t("puzzle.over")


def _board_of(message: FakeMessage) -> str:
    """The board's token, from the first version of the message (which had buttons)."""
    for row in message.versions[0]["components"]:
        for c in row["components"]:
            return str(c["custom_id"]).split(":")[1]
    raise AssertionError("no buttons")


async def test_the_daily_puzzle_is_the_same_for_everyone_with_its_solvers(
    tmp_path: Path,
) -> None:
    clock = Clock()
    async with world(tmp_path) as w, puzzle_bot(w, clock):
        p = daily_puzzle(w, clock)
        alice = await open_puzzle(w, w.alice, daily=True)
        bob = await open_puzzle(w, w.bob, daily=True)
        title = t("puzzle.title_daily", n=p.number, grade=t(f"puzzle.grade.{p.grade}"),
                  date="2026-12-03")  # fmt: skip
        assert alice.content.splitlines()[0] == bob.content.splitlines()[0] == title
        assert t("puzzle.solvers_none") in alice.content

        text = await play_line(w, w.alice, alice, p)
        assert SOLVED in text
        assert t("puzzle.solvers", n=1, names=f"<@{w.alice}>") in text
        assert t("puzzle.counted_solved", n=1) in text

        # bob fails his first try: it counts, and he is not on the list
        wrong = next(code for code in moves_on(bob) if code != p.first_move.code)
        await w.fake.click(w.bob, bob, moves_on(bob)[wrong])
        assert t("puzzle.counted_failed") in bob.content
        again = await open_puzzle(w, w.bob, daily=True)
        assert t("puzzle.practice_failed") in again.content
        assert t("puzzle.solvers", n=1, names=f"<@{w.alice}>") in again.content
        text = await play_line(w, w.bob, again, p)  # solved in practice: still not listed
        assert t("puzzle.solvers", n=1, names=f"<@{w.alice}>") in text
        assert "counted" not in text


async def stats_streak(w: World, user: int) -> str:
    res = await w.fake.slash(user, w.channel, "durak", "stats")
    (embed,) = res.embeds
    field = next(f for f in embed["fields"] if f["name"] == t("stats.puzzle_streak"))
    return str(field["value"])


async def test_the_puzzle_streak_counts_days_and_resets_after_a_missed_day(
    tmp_path: Path,
) -> None:
    clock = Clock()
    async with world(tmp_path) as w, puzzle_bot(w, clock):

        async def solve_today() -> None:
            board = await open_puzzle(w, w.carol, daily=True)
            assert SOLVED in await play_line(w, w.carol, board, daily_puzzle(w, clock))

        assert await stats_streak(w, w.carol) == t("stats.puzzle_streak_value", n=0, best=0,
                                                   solved=0)  # fmt: skip
        await solve_today()
        assert await stats_streak(w, w.carol) == t(
            "stats.puzzle_streak_value", n=1, best=1, solved=1
        )
        clock.now += DAY
        # the next day, before solving: yesterday's streak still stands
        assert await stats_streak(w, w.carol) == t(
            "stats.puzzle_streak_value", n=1, best=1, solved=1
        )
        await solve_today()
        assert await stats_streak(w, w.carol) == t(
            "stats.puzzle_streak_value", n=2, best=2, solved=2
        )
        clock.now += 2 * DAY  # a day missed
        assert await stats_streak(w, w.carol) == t(
            "stats.puzzle_streak_value", n=0, best=2, solved=2
        )
        await solve_today()
        assert await stats_streak(w, w.carol) == t(
            "stats.puzzle_streak_value", n=1, best=2, solved=3
        )


async def test_bad_options_and_clicks_on_old_boards_get_clear_answers(tmp_path: Path) -> None:
    count = len(SHIPPED)
    async with world(tmp_path) as w, puzzle_bot(w, Clock()):
        fake = w.fake
        for n in (0, count + 1):
            res = await fake.slash(w.alice, w.channel, "durak", "puzzle", options={"number": n})
            assert res.content == t("puzzle.no_number", n=n, count=count)
        res = await fake.slash(
            w.alice, w.channel, "durak", "puzzle", options={"daily": True, "number": 3}
        )
        assert res.content == t("puzzle.one_option")

        first = await open_puzzle(w, w.alice, number=1)
        old_id = next(iter(moves_on(first).values()))
        second = await open_puzzle(w, w.alice, grade="hard")
        assert t("puzzle.grade.hard") in second.content.splitlines()[0]
        res = await fake.click(w.alice, first, old_id)  # replaced by the newer board
        assert res.content == t("puzzle.gone")
        assert first.content == first.versions[0]["content"]  # nothing changed on it

        token = _board_of(second)
        legal = next(iter(moves_on(second)))
        res = await old_click(fake, w.bob, second, f"dkz:{token}:0:{legal}")
        assert res.content == t("puzzle.not_yours")
        res = await old_click(fake, w.alice, second, f"dkz:{token}:5:{legal}")
        assert res.content == t("puzzle.stale")
        res = await old_click(fake, w.alice, second, f"dkz:{token}:0:99999")
        assert res.content == t("err.forged")
        take = parse_move("0 take")[1].code  # the attacker cannot take: not offered
        res = await old_click(fake, w.alice, second, f"dkz:{token}:0:{take}")
        assert res.content == t("puzzle.illegal")
        assert second.buttons and len(second.versions) == 1  # the board is as it was


@pytest.mark.slow
def test_the_longest_boards_fit_in_a_message() -> None:
    """Discord's 2000 characters: the longest solutions, every language, a long name, a full
    list of solvers; a board that would not fit leaves out the moves so far."""
    solvers = ", ".join(f"<@{10**18 + i}>" for i in range(SHOWN_SOLVERS)) + ", …"
    notes = {
        loc: BoardText(1, (t("puzzle.solvers", loc, n=99, names=solvers),
                           t("puzzle.counted_solved", loc, n=9)))
        for loc in ("en", "es", "de", "ru", "uk")
    }  # fmt: skip

    def longest_board(play: PuzzlePlay) -> int:
        return max(
            len(puzzle_board(play, "abcd1234", "x" * 32, loc=loc, images=False, text=text).content)
            for loc, text in notes.items()
        )

    for p in sorted(SHIPPED, key=lambda p: -len(p.line))[:3]:
        play = PuzzlePlay(p)
        assert longest_board(play) <= MAX_CONTENT, p.number
        for move in p.line:
            seat, action = parse_move(move)
            if seat == PLAYER:
                play.play(action)
                assert longest_board(play) <= MAX_CONTENT, p.number


async def test_a_broken_puzzle_file_is_said_to_the_player_and_logged(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """The file fails to load (here: as a damaged file would): the player is told puzzles are
    unavailable, with an error id the owner finds in the log line that says why."""

    def damaged() -> tuple[Puzzle, ...]:
        raise PuzzleFormatError("puzzle 3: the line does not end in the player's win")

    monkeypatch.setattr(puzzle_commands, "shipped_puzzles", damaged)
    async with world(tmp_path) as w, puzzle_bot(w, Clock()):
        res = await w.fake.slash(w.alice, w.channel, "durak", "puzzle")
        found = re.search(r"\(error id ([0-9a-f]{6})\)", res.content)
        assert found and res.content == t("puzzle.unavailable", id=found[1])
        (line,) = [r.getMessage() for r in caplog.records if "puzzle file" in r.getMessage()]
        assert found[1] in line and "puzzle 3: the line does not end" in line


async def test_a_slow_answer_defers_the_click_and_updates_the_board(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The solver's answer arrives after the click was deferred (here: at once, as a slow
    machine would), and the board is updated all the same."""
    monkeypatch.setattr(puzzle_commands, "DEFER_AFTER", 0.0)
    p = min(SHIPPED[:50], key=lambda q: len(q.line))
    async with world(tmp_path) as w, puzzle_bot(w, Clock()):
        board = await open_puzzle(w, w.alice, number=p.number)
        _, first = parse_move(p.line[0])
        res = await w.fake.click(w.alice, board, moves_on(board)[first.code])
        assert res.response_type == 6  # deferred
        await w.fake.wait_for(lambda: len(board.versions) > 1, 5, what="the board's update")
        assert t("puzzle.moves", moves="").strip() in board.content
        assert w.fake.violations == []
