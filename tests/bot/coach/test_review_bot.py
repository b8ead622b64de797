"""Game reviews through the fake Discord (issue #34): the finished table's "Review" button and
`/durak review`, ephemeral, with progress, the chart, the cache, and the refusals."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

import pytest
from PIL import Image

from benchmarks.review_load import stored_game
from bot.app import DurakBot
from bot.coach.commands.review_commands import PROGRESS_EDIT_SECONDS
from bot.coach.ui.review_text import CHART_FILE
from bot.tables.table import Table
from bot.text import t
from tests.bot.helpers import World, public_message, running_bot, table_of, world
from tests.bot.tables.test_bot_game import play_one_game


async def alices_game(w: World, bot: DurakBot, level: str, rng: random.Random) -> tuple[Table, str]:
    """Alice's finished game against one AI seat of ``level``, and the game's id."""
    await w.fake.slash(
        w.alice, w.channel, "durak", "new", options={"ai_seats": 1, "ai_level": level}
    )
    await w.fake.slash(w.alice, w.channel, "durak", "start")
    table = await play_one_game(w, bot, rng, users=[w.alice])
    return table, f"{table.series_id}.{table.game_number}"


@pytest.mark.slow
async def test_review_button_and_command(tmp_path: Path) -> None:
    async with world(tmp_path) as w, running_bot(w) as bot:
        fake = w.fake
        table, game_id = await alices_game(w, bot, "normal", random.Random(3))
        review_id = f"dkv:{game_id}"
        await fake.wait_for(
            lambda: any(b.custom_id == review_id for b in public_message(w, table).buttons),
            what="the Review button on the finished table",
        )
        (button,) = [b for b in public_message(w, table).buttons if b.custom_id == review_id]
        assert button.label == t("btn.review")

        # Someone who did not play is told so, and nothing runs.
        other = await fake.click(w.bob, public_message(w, table), review_id)
        assert other.ephemeral and other.content == t("review.not_yours", id=game_id)
        reviews = bot.reviews
        assert reviews.running == 0 and reviews.cached(game_id, 0) is None

        started = await fake.click(w.alice, public_message(w, table), review_id)
        assert started.ephemeral
        assert started.content == t("review.starting", id=game_id)
        message = started.message
        assert message is not None
        await fake.wait_for(
            lambda: fake.message(message.id).current.get("embeds"), 30, what="the review"
        )
        (embed,) = fake.message(message.id).current["embeds"]
        assert embed["title"] == t("review.title", id=game_id)
        assert "%" in embed["description"] and embed["image"]["url"] == f"attachment://{CHART_FILE}"
        seat = table.seat_of(w.alice)
        assert seat is not None
        review = reviews.cached(game_id, seat)
        assert review is not None and review.reviews
        chart = fake.attachment_bytes(message)[CHART_FILE]
        assert chart.startswith(b"\x89PNG")
        (tmp_path / CHART_FILE).write_bytes(chart)
        assert Image.open(tmp_path / CHART_FILE).size == (800, 400)

        # `/durak review` without a game: her latest game here, now from the cache at once.
        again = await fake.slash(w.alice, w.channel, "durak", "review")
        assert again.ephemeral and again.embeds[0]["title"] == t("review.title", id=game_id)
        assert again.embeds[0]["description"] == embed["description"]

        none = await fake.slash(w.bob, w.channel, "durak", "review")
        assert none.content == t("review.no_recent")
        missing = await fake.slash(w.alice, w.channel, "durak", "review", options={"game": "x"})
        assert missing.content == t("verify.not_found", id="x")
        assert table_of(bot, w.channel).status == "finished"
        assert fake.violations == []


@pytest.mark.slow
async def test_review_progress_is_edited_at_a_bounded_rate(tmp_path: Path) -> None:
    """The ephemeral answer shows how far the review is, edited at most every two seconds,
    and then becomes the review."""
    async with world(tmp_path) as w, running_bot(w, ai_budget_iterations=200) as bot:
        fake = w.fake
        table, game_id = await alices_game(w, bot, "easy", random.Random(4))
        loop = asyncio.get_running_loop()
        begun = loop.time()
        started = await fake.slash(w.alice, w.channel, "durak", "review")
        message = started.message
        assert message is not None
        await fake.wait_for(
            lambda: fake.message(message.id).current.get("embeds"), 60, what="the review"
        )
        took = loop.time() - begun
        versions = fake.message(message.id).history
        progress = [v["content"] for v in versions[1:-1]]
        assert versions[0]["content"] == t("review.starting", id=game_id)
        assert all(f"`{game_id}`" in line for line in progress)
        seat = table.seat_of(w.alice)
        assert seat is not None
        review = bot.reviews.cached(game_id, seat)
        assert review is not None
        # Bounded: one edit per PROGRESS_EDIT_SECONDS at most, and shown once it takes longer.
        assert len(progress) <= took / PROGRESS_EDIT_SECONDS + 1
        if took > 2 * PROGRESS_EDIT_SECONDS + 1:
            assert progress
        done = [int(line.split(": ", 1)[1].split(" ")[0]) for line in progress]
        assert done == sorted(done) and all(0 < d < len(review.reviews) for d in done)


@pytest.mark.slow
async def test_records_that_cannot_be_reviewed(tmp_path: Path) -> None:
    """A record whose log does not replay, and a later game of a series whose earlier game is
    missing (R22: it fixes the dealer): each is said in the answer; nothing is left waiting."""
    async with world(tmp_path) as w, running_bot(w) as bot:
        fake = w.fake
        good = stored_game(0, w.guild, w.channel, w.alice)
        broken = good.model_copy(update={"actions": ["1 take", *good.actions]})
        await bot.service.storage.record_game(broken)
        asked = await fake.slash(w.alice, w.channel, "durak", "review")
        message = asked.message
        assert message is not None and asked.content == t("review.starting", id=good.game_id)
        bad = t("review.bad_record", id=good.game_id)
        await fake.wait_for(lambda: fake.message(message.id).current["content"] == bad)
        later = stored_game(1, w.guild, w.channel, w.alice)
        second = later.model_copy(update={"game_id": f"{later.series_id}.2", "game_number": 2})
        await bot.service.storage.record_game(second)
        missing = await fake.slash(
            w.alice, w.channel, "durak", "review", options={"game": second.game_id}
        )
        assert missing.content == t("review.missing_earlier", id=second.game_id, n=1)
        assert bot.reviews.running == 0
