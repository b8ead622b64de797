"""A game review's ephemeral message: the summary, the biggest swings, every mistake and
blunder with the better action and one line of why, and the chart (docs/ai.md, "Reading a
review"). Also the progress line shown while the review runs."""

from __future__ import annotations

import io
from dataclasses import dataclass

import discord

from bot.coach.review_chart import ChartPoint, ChartScene, render_chart
from bot.text import t
from bot.ui.card_words import action_cards, card_text, rank_label
from durak_core import Action
from durak_core.coach.review import ACCURATE_POINTS, DecisionReview
from durak_core.coach.review_game import GameReview
from durak_core.move_kinds import move_kind

CHART_FILE = "review.png"
FIELD_MAX = 1024
DESCRIPTION_MAX = 4096
COLOUR = 0x1565C0


def action_text(action: Action, loc: str | None) -> str:
    """An action as the review names it ("beat 9♠ with J♠"), in its kind's words."""
    return t(move_kind(action).review, loc, **action_cards(action, loc))


def _result(chance: float) -> str:
    return "win" if chance >= 1.0 else "loss" if chance <= 0.0 else "draw"


def reason_text(r: DecisionReview, loc: str | None) -> str:
    """The one line of why the better action is better."""
    if r.reason == "proven":
        return t(f"review.why.proven.{_result(r.best_chance)}_{_result(r.chosen_chance)}", loc)
    if r.card is None:
        return t("review.why.search", loc)
    card = card_text(r.card, loc)
    if r.reason == "pair":
        rank = card if r.card.joker else rank_label(r.card.rank, loc)
        return t("review.why.pair", loc, card=card, rank=rank)
    return t(f"review.why.{r.reason}", loc, card=card)


def _pct(chance: float, proven: bool, loc: str | None) -> str:
    """A winning chance in per cent; an estimate marked ≈ (the footer says so)."""
    pct = round(chance * 100)
    return str(pct) if proven else t("review.estimate", loc, pct=pct)


def decision_line(r: DecisionReview, loc: str | None) -> str:
    return t(
        "review.line",
        loc,
        move=r.number,
        grade=t(f"review.grade.{r.grade}", loc),
        chosen=action_text(r.chosen, loc),
        chosen_pct=_pct(r.chosen_chance, r.exact or r.chosen_proven, loc),
        best=action_text(r.best, loc),
        best_pct=_pct(r.best_chance, r.exact or r.best_proven, loc),
        why=reason_text(r, loc),
    )


def _lines(reviews: tuple[DecisionReview, ...], limit: int, loc: str | None) -> str:
    """As many whole lines as fit in ``limit`` characters, then how many more there are."""
    out: list[str] = []
    used = 0
    for i, r in enumerate(reviews):
        line = decision_line(r, loc)
        more = t("review.more", loc, n=len(reviews) - i)
        if used + len(line) + 1 + len(more) > limit and i < len(reviews) - 1:
            out.append(more)
            break
        out.append(line)
        used += len(line) + 1
    return "\n".join(out)


def progress_text(game_id: str, done: int, total: int | None, loc: str | None) -> str:
    if total is None:
        return t("review.starting", loc, id=game_id)
    return t("review.progress", loc, id=game_id, done=done, n=total)


@dataclass(frozen=True)
class ReviewSections:
    """A review's words, as the chat's message and the Activity's panel both show them: the
    title, the summary (None without decisions: ``review.none``), the sections (each a heading
    and its lines) and the footer that says which values are proven."""

    title: str
    summary: tuple[str, ...]
    sections: tuple[tuple[str, str], ...]
    footer: str


def review_sections(
    game_id: str, review: GameReview, loc: str | None, limit: int = FIELD_MAX
) -> ReviewSections:
    """``limit``: the most characters of one section (whole lines, then how many more)."""
    title = t("review.title", loc, id=game_id)
    n = len(review.reviews)
    if not n:
        return ReviewSections(title, (t("review.none", loc),), (), "")
    summary = (
        t("review.accuracy", loc, pct=round(review.accuracy * 100), n=n, margin=ACCURATE_POINTS),
        t(
            "review.counts",
            loc,
            mistakes=review.count("mistake"),
            blunders=review.count("blunder"),
        ),
    )
    swings = review.swings
    sections = [
        (
            t("review.swings", loc),
            _lines(swings, limit, loc) if swings else t("review.no_swings", loc),
        )
    ]
    flagged = tuple(r for r in review.flagged if r not in swings)
    if flagged:
        sections.append((t("review.flagged", loc), _lines(flagged, limit, loc)))
    return ReviewSections(title, summary, tuple(sections), t("review.footer", loc))


def review_embed(
    game_id: str, review: GameReview, loc: str | None
) -> tuple[discord.Embed, list[discord.File]]:
    """The review's message: an embed, and the chart as its image (none without decisions)."""
    parts = review_sections(game_id, review, loc)
    embed = discord.Embed(title=parts.title, colour=COLOUR)
    embed.description = "\n".join(parts.summary)
    if not review.reviews:
        return embed, []
    for name, value in parts.sections:
        embed.add_field(name=name, value=value, inline=False)
    embed.set_image(url=f"attachment://{CHART_FILE}")
    embed.set_footer(text=parts.footer)
    return embed, [discord.File(io.BytesIO(chart_png(game_id, review, loc)), CHART_FILE)]


def chart_png(game_id: str, review: GameReview, loc: str | None) -> bytes:
    points = tuple(
        ChartPoint(r.chosen_chance, r.best_chance, r.grade, r.exact) for r in review.reviews
    )
    scene = ChartScene(
        t("review.chart_title", loc, id=game_id), t("review.chart_axis", loc), points
    )
    return render_chart(scene)
