"""A practice table's hint in words: Hard's suggested action, named as a review names actions,
and one line of why (docs/ai.md, "Hints at practice tables")."""

from __future__ import annotations

from bot.text import t
from durak_core.coach.review import DecisionReview

from .review_text import action_text, reason_text


def _result(chance: float) -> str:
    return "win" if chance >= 1.0 else "loss" if chance <= 0.0 else "draw"


def hint_reason(r: DecisionReview, loc: str | None) -> str:
    """Why the suggestion: a proven endgame result, the review's reason why it beats the
    heuristic move, or that the search found nothing better than the heuristic move."""
    if r.exact:
        return t(f"hint.why.proven_{_result(r.best_chance)}", loc)
    if not r.reason:
        return t("hint.why.sound", loc)
    return reason_text(r, loc)


def hint_text(r: DecisionReview, loc: str | None) -> str:
    """The hint's answer; an estimate adds the winning chance it gives (a proof says it)."""
    text = t("hint.text", loc, action=action_text(r.best, loc), why=hint_reason(r, loc))
    if r.exact:
        return text
    return f"{text} {t('hint.chance', loc, pct=round(r.best_chance * 100))}"
