"""Every line a review can show exists in every language and fits Discord's limits: each
reason, each grade, each kind of action, a proven swing of each kind, and a long game whose
mistakes do not all fit in a field."""

from __future__ import annotations

import pytest

from bot.coach.ui.review_text import action_text, decision_line, reason_text, review_embed
from bot.text import t
from bot.ui.help_text import help_text
from durak_core import Action, Card, parse_action
from durak_core.coach.review import REASONS, DecisionReview
from durak_core.coach.review_game import GameReview
from tests.bot.text.test_i18n import LANGS as LANGUAGES

ACTIONS = ["attack 9S", "defend 9S JS", "take", "pass", "transfer 9H", "exchange", "show 9H"]


def review(number: int, chosen: Action, best: Action, c: float, b: float, reason: str,
           exact: bool = False, card: Card | None = None) -> DecisionReview:  # fmt: skip
    return DecisionReview(number, chosen, best, c, b, exact, reason, card, 3, 3)


@pytest.mark.parametrize("loc", LANGUAGES)
def test_every_reason_and_action_has_its_words(loc: str) -> None:
    nine = Card.parse("9S")
    for text in ACTIONS:
        assert action_text(parse_action(text), loc)
    named = {action_text(parse_action(text), loc) for text in ACTIONS}
    assert len(named) == len(ACTIONS)  # a show is not named as the transfer (V18)
    take, attack = parse_action("take"), parse_action("attack 9S")
    lines = set()
    for reason in REASONS:
        if reason == "proven":
            for best, chosen in ((1.0, 0.0), (1.0, 0.5), (0.5, 0.0)):
                lines.add(reason_text(review(1, take, attack, chosen, best, reason, True), loc))
        else:
            lines.add(reason_text(review(1, take, attack, 0.2, 0.6, reason, card=nine), loc))
    assert len(lines) == len(REASONS) + 2  # every one its own sentence
    assert not any("{" in line for line in lines)


@pytest.mark.parametrize("loc", LANGUAGES)
def test_a_long_review_fits_discords_limits(loc: str) -> None:
    take, attack = parse_action("take"), parse_action("defend 9S JS")
    reviews = tuple(
        review(n, take, attack, 0.2, 0.2 + (0.1 + n % 5 / 10), "defend", card=Card.parse("JS"))
        for n in range(1, 80)
    )
    embed, files = review_embed("0123abcd.1.2", GameReview(0, reviews), loc)
    data = embed.to_dict()
    assert len(data.get("description", "")) <= 4096
    fields = data.get("fields", [])
    assert [f["name"] for f in fields] == [t("review.swings", loc), t("review.flagged", loc)]
    assert all(len(f["value"]) <= 1024 for f in fields)
    assert t("review.more", loc, n=1).split("1")[0] in fields[1]["value"]
    assert len(files) == 1


def test_a_game_without_choices() -> None:
    embed, files = review_embed("0123abcd.1.1", GameReview(0, ()), "en")
    assert embed.description == t("review.none", "en") and files == []


@pytest.mark.parametrize("loc", LANGUAGES)
def test_help_names_the_review_command_and_its_button(loc: str) -> None:
    answer = help_text(loc, activity_built=None)
    assert f"/{t('name.durak', loc)} {t('name.review', loc)}" in answer
    assert f"**{t('btn.review', loc)}**" in answer
    assert f"/{t('name.durak', loc)} {t('name.puzzle', loc)}" in answer


@pytest.mark.parametrize("loc", LANGUAGES)
def test_estimates_are_marked_and_proofs_are_not(loc: str) -> None:
    """Issue #48: a proven value shows as a plain per cent, an estimate with ≈; a line with a
    proven chosen value and an estimated best marks only the best."""
    take, attack = parse_action("take"), parse_action("attack 9S")
    proven = decision_line(review(1, take, attack, 0.0, 1.0, "proven", True), loc)
    guessed = decision_line(review(1, take, attack, 0.2, 0.6, "search"), loc)
    half = DecisionReview(1, take, attack, 0.0, 0.7, False, "search", None, 3, 3, True)
    mixed = decision_line(half, loc)
    assert "≈" not in proven and "100" in proven
    assert guessed.count("≈20") == 1 and guessed.count("≈60") == 1
    assert "≈70" in mixed and "≈0" not in mixed
    assert "≈" in t("review.footer", loc)
