"""The coach in the Activity (issue #48 item 4), in headless Chromium through the harness page
against the bot's real Activity server and the fake Discord: "Review my game" on the results
shows the chat's review (its words, the ≈ of every estimate, the chart), the 💡 at a practice
table shows the chat's hint for the seat's own view, and the server's daily puzzle opens from
the start screen and is solved with clicks on the table, counted as the chat counts it. Each is
laid out at the Activity's phone and desktop sizes: nothing wider than the screen, the texts
and buttons on it (screenshots: docs/img/activity-coach-*.png)."""

from __future__ import annotations

import random
import re
from base64 import b64decode
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from bot.activity.server import ActivityServer
from bot.coach.commands.activity_coach import ActivityCoach
from bot.coach.puzzle_days import today
from bot.coach.reviews import review_seed
from bot.coach.ui.hint_text import hint_text
from bot.coach.ui.puzzle_board import title_line
from bot.coach.ui.review_text import review_sections
from bot.text import t
from durak_core import Action, parse_move, visible_to
from durak_core.coach.puzzles import PuzzlePlay, solver_for, winning_moves
from tests.activity.browser import (
    BROWSER_TEST,
    CLIENT_DOC,
    DRAWN,
    LAYOUT_SIZES,
    Page,
    reduce_motion,
    set_size,
)
from tests.activity.test_browser_game import click_move, two_browsers
from tests.bot.coach.test_hints import practice_pair
from tests.bot.coach.test_review_bot import alices_game
from tests.bot.helpers import world

pytestmark = BROWSER_TEST

#: The sizes each coach view is checked and shot at: every size the Activity is laid out at.
SIZES = LAYOUT_SIZES
WAIT = 60.0

#: The coach's texts as the page shows them, and whether anything sticks out of the screen.
SHOWN = f"""(() => {{
  const doc = {CLIENT_DOC};
  const text = sel => [...doc.querySelectorAll(sel)].map(e => e.textContent);
  const chart = doc.querySelector('.coach-panel .chart');
  const panel = doc.querySelector('.coach-panel');
  const wide = [...doc.querySelectorAll('#app *')].filter(e => {{
    const r = e.getBoundingClientRect();
    return r.width > 0 && (r.left < -1 || r.right > doc.defaultView.innerWidth + 1);
  }}).map(e => e.className);
  return {{
    title: text('.coach-panel h2'), summary: text('.coach-panel .summary'),
    sections: text('.coach-panel h3'), lines: text('.coach-panel .line'),
    footer: text('.coach-panel .footer'), hint: text('.coach-hint'),
    puzzle: text('.coach-puzzle p'), status: text('#app > .status .line'),
    chart: chart ? [chart.naturalWidth, chart.naturalHeight] : null,
    panel: panel ? panel.getBoundingClientRect().width : null,
    wide, width: doc.defaultView.innerWidth,
  }};
}})()"""


def plain(text: str) -> str:
    """A catalogue text as the page shows it: the chat's ``**`` and backticks dropped."""
    return re.sub(r"\*\*|`", "", text)


async def open_page(page: Page, base: str, user: int, instance: str) -> None:
    """The client in the harness without its log (``shot=1``): the whole window is the
    Activity's, as in Discord."""
    await reduce_motion(page)
    await page.call("Page.navigate", url=f"{base}/harness/?scenario={instance}&user={user}&shot=1")
    await page.wait_for(DRAWN, f"user {user}'s client to draw", timeout=30)


async def click(page: Page, key: str) -> None:
    await page.evaluate(f"{CLIENT_DOC}.querySelector('[data-key=\"{key}\"]').click()")


async def shown(page: Page) -> dict[str, Any]:
    found: dict[str, Any] = await page.evaluate(SHOWN)
    return found


async def shoot(page: Page, name: str, tmp_path: Path, check: str) -> None:
    """At every size: ``check`` true (its elements on screen) and nothing of the page wider
    than the screen; a screenshot each (``tmp_path``/<name>-<w>x<h>.png)."""
    for w, h in SIZES:
        await set_size(page, w, h)
        shot = await page.call("Page.captureScreenshot", format="png")
        path = tmp_path / f"activity-coach-{name}-{w}x{h}.png"
        path.write_bytes(b64decode(shot["data"]))  # kept when what follows fails: look at it
        # laid out again for the size (the hand's fan follows a resize): then nothing sticks out
        await page.wait_for(f"{check} && ({SHOWN}).wide.length === 0", f"{name} at {w}x{h}")
        shot = await page.call("Page.captureScreenshot", format="png")
        path.write_bytes(b64decode(shot["data"]))
        with Image.open(path) as image:
            assert image.size == (w, h)


def moved(play: PuzzlePlay, ply: int) -> Callable[[], bool]:
    return lambda: len(play.moves) > ply


def inside(selector: str) -> str:
    """True once every element ``selector`` finds is drawn within the screen's width."""
    return f"""(() => {{
  const doc = {CLIENT_DOC};
  const els = [...doc.querySelectorAll('{selector}')];
  return els.length > 0 && els.every(e => {{
    const r = e.getBoundingClientRect();
    return r.width > 0 && r.left >= -1 && r.right <= doc.defaultView.innerWidth + 1;
  }});
}})()"""


async def test_review_my_game_shows_the_chats_review(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with world(tmp_path) as w, two_browsers(monkeypatch, w) as (site, alice, _):
        bot = site.bot
        table, gid = await alices_game(w, bot, "easy", random.Random(5))
        seat = table.seat_of(w.alice)
        assert seat is not None
        await w.fake.wait_for(lambda: table.ratings is not None, what="the game recorded")
        instance = w.fake.activity.open_instance(w.channel, [w.alice])
        await open_page(alice, site.url, w.alice, instance)
        await alice.wait_for(inside('[data-key="c:review"]'), "the Review button", WAIT)
        await click(alice, "c:review")
        await alice.wait_for(inside(".coach-panel .chart"), "the review's chart", WAIT)
        review = bot.reviews.cached(gid, seat)
        assert review is not None and review.reviews
        parts = review_sections(gid, review, "en")
        found = await shown(alice)
        assert found["title"] == [plain(parts.title)]
        assert found["summary"] == [plain(line) for line in parts.summary]
        assert found["sections"] == [plain(name) for name, _ in parts.sections]
        lines = [plain(line) for _, text in parts.sections for line in text.split("\n")]
        assert found["lines"] == lines
        # the estimates are marked as in chat (≈), and the footer says what is proven
        estimates = sum("≈" in line for line in lines)
        assert estimates == sum("≈" in line for line in found["lines"])
        assert found["footer"] == [plain(t("review.footer", "en"))]
        assert found["chart"][:2] == [800, 400]  # the chat's picture
        await shoot(alice, "review", tmp_path, inside(".coach-panel h2"))
        await click(alice, "c:close-review")
        await alice.wait_for(f"!{CLIENT_DOC}.querySelector('.coach-panel')", "the review closed")


async def test_the_hint_at_a_practice_table(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with world(tmp_path) as w, two_browsers(monkeypatch, w) as (site, alice, _):
        bot = site.bot
        table = await practice_pair(w, bot)
        seat = table.seat_of(w.alice)
        assert seat is not None
        instance = w.fake.activity.open_instance(w.channel, [w.alice])
        await open_page(alice, site.url, w.alice, instance)
        await alice.wait_for(inside('[data-key="c:hint"]'), "the 💡 button", WAIT)
        await click(alice, "c:hint")
        thinking = t("activity.coach_working", "en")
        await alice.wait_for(
            f"{CLIENT_DOC}.querySelector('.coach-hint')?.textContent.startsWith('💡')",
            "the hint",
            WAIT,
        )
        # the chat's hint for this hand, from the seat's view and what it saw (cached: the same)
        hand = (table.table_id, seat, table.version)
        view = table.seat_view(seat)
        seed = review_seed(f"{table.table_id}.{table.series_number}")
        history = visible_to(table.events, seat)
        found = await bot.reviews.hint(hand, view, history, seed)
        assert found.best in view.legal_actions
        page = await shown(alice)
        assert page["hint"] == [plain(hint_text(found, "en"))] and thinking not in page["hint"]
        await shoot(alice, "hint", tmp_path, inside(".coach-hint"))


async def test_the_daily_puzzle_is_solved_on_the_table(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with world(tmp_path) as w, two_browsers(monkeypatch, w) as (site, alice, _):
        bot = site.bot
        instance = w.fake.activity.open_instance(w.channel, [w.alice])
        await open_page(alice, site.url, w.alice, instance)
        await alice.wait_for(inside('[data-key="c:puzzle"]'), "the puzzle's button", WAIT)
        await click(alice, "c:puzzle")
        await alice.wait_for(inside(".coach-puzzle"), "the puzzle board", WAIT)
        server = bot.activity_server
        assert isinstance(server, ActivityServer) and isinstance(server.coach, ActivityCoach)
        board = server.coach.puzzles._boards[w.alice]
        play = board.play
        day = today(bot.service.core.clock)
        found = await shown(alice)
        assert found["puzzle"][0] == plain(title_line(play.puzzle, day, "en"))
        await shoot(alice, "puzzle", tmp_path, inside(".hand .card"))
        await set_size(alice, 1280, 720)
        while play.status == "playing":
            ply = len(play.moves)
            action: Action = (
                parse_move(play.puzzle.line[0])[1]
                if ply == 0
                else winning_moves(solver_for(play.state, None), play.state)[0]
            )
            await alice.wait_for(
                f"{CLIENT_DOC}.getElementById('app').dataset.version === '{ply}'"
                f" && {CLIENT_DOC}.getElementById('app').dataset.pending === 'false'",
                f"the board at move {ply}",
                WAIT,
            )
            await click_move(alice, action)
            await w.fake.wait_for(moved(play, ply), WAIT, what="the move")
        assert play.status == "solved"
        solved = plain(t("puzzle.solved", "en", name=t("puzzle.opponent", "en")))
        await alice.wait_for(
            f"{CLIENT_DOC}.querySelector('#app > .status')?.textContent === {solved!r}",
            "the verdict",
            WAIT,
        )
        assert w.guild is not None
        assert await bot.service.storage.daily_puzzle_try(w.guild, day, w.alice) is True
        page = await shown(alice)
        streak = plain(t("puzzle.counted_solved", "en", n=1))
        assert streak in page["puzzle"], page["puzzle"]
        await shoot(alice, "puzzle-solved", tmp_path, inside(".coach-puzzle"))
        await click(alice, "c:close-puzzle")
        await alice.wait_for(inside('[data-key="c:puzzle"]'), "the start screen again", WAIT)
